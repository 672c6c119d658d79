import { useQuery } from "@tanstack/react-query";
import { Link, useSearchParams } from "react-router";
import { Button } from "#web/components/ui/button";
import { paths } from "#web/config/paths";
import { sessionQuery } from "#web/lib/session";
import { AuthCard } from "./auth-card";
import { ResendVerification } from "./resend-verification";
import { TextLink } from "./text-link";

/**
 * Where the confirmation link lands. The server has confirmed the address and signed the learner in
 * (autoSignInAfterVerification); a link that has expired or was already used comes back with `error`.
 */
export function EmailConfirmed() {
  const [search] = useSearchParams();
  const session = useQuery(sessionQuery);

  if (search.has("error")) {
    return (
      <AuthCard title="This link no longer works">
        <div className="grid gap-4 text-sm">
          <p>
            A confirmation link works for an hour. <TextLink to={paths.login}>Sign in</TextLink> if your address is
            already confirmed, or ask for a new link:
          </p>
          <ResendVerification />
        </div>
      </AuthCard>
    );
  }
  if (session.isPending) return null;
  if (!session.data) {
    return (
      <AuthCard title="Your email is confirmed">
        <p className="text-sm">
          <TextLink to={paths.login}>Sign in</TextLink> to start your journey.
        </p>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Welcome to Jalan!" pageTitle="Email confirmed">
      <div className="grid gap-4 text-sm">
        <p>Your email address is confirmed and you're signed in.</p>
        <Button asChild className="w-full">
          <Link to={paths.progress}>Start your journey</Link>
        </Button>
      </div>
    </AuthCard>
  );
}
