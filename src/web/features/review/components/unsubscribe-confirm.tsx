import { BellOff } from "lucide-react";
import { useEffect, useRef } from "react";
import { Link } from "react-router";
import { Button } from "#web/components/ui/button";
import { paths } from "#web/config/paths";
import { useUnsubscribe } from "#web/features/review/api/review";
import { describeError } from "#web/lib/api";

/**
 * The reminder email's unsubscribe link (/unsubscribe?token=…): a button, not the visit, turns the
 * emails off, so a mail scanner opening the link changes nothing. Works signed in or out: the token
 * names the learner. A missing or invalid token is sent all the same, and the server's message says
 * why it was refused.
 */
export function UnsubscribeConfirm({ token }: { token: string }) {
  const unsubscribe = useUnsubscribe();
  const doneRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    if (unsubscribe.isSuccess) doneRef.current?.focus();
  }, [unsubscribe.isSuccess]);

  if (unsubscribe.isSuccess) {
    return (
      <section className="max-w-2xl space-y-3 rounded-xl border bg-card p-4 shadow-sm sm:p-6">
        <h2 ref={doneRef} tabIndex={-1} className="flex items-center gap-2 text-xl font-semibold">
          <BellOff aria-hidden className="size-6 shrink-0 text-primary" />
          Reminder emails are off
        </h2>
        <p>
          We will not email you when reviews are waiting. You can turn email notifications on again in{" "}
          <Link to={paths.settings} className="font-medium underline underline-offset-4">
            Settings
          </Link>
          .
        </p>
      </section>
    );
  }
  return (
    <div className="max-w-2xl space-y-4">
      <p>We email you once a day when review cards are waiting. Stopping them turns off email notifications.</p>
      {unsubscribe.isError && (
        <p role="alert" className="font-medium text-destructive">
          {describeError(
            unsubscribe.error,
            "Reminder emails could not be stopped. Check your connection and try again.",
          )}
        </p>
      )}
      <Button onClick={() => unsubscribe.mutate(token)} disabled={unsubscribe.isPending}>
        {unsubscribe.isPending ? "Stopping…" : "Stop reminder emails"}
      </Button>
    </div>
  );
}
