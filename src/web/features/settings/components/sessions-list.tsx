import { LogOut } from "lucide-react";
import { useState } from "react";
import { Button } from "#web/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#web/components/ui/card";
import {
  type AccountSession,
  needsPassword,
  useAccountSessions,
  useRevokeOtherSessions,
} from "#web/features/settings/api/settings";
import { deviceName } from "#web/features/settings/device-name";
import { describeError } from "#web/lib/api";
import { toast } from "#web/lib/toast";
import { ConfirmPasswordDialog } from "./confirm-password-dialog";

const DATE_FORMAT = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "long", year: "numeric" });
const RELATIVE_FORMAT = new Intl.RelativeTimeFormat("en-GB", { numeric: "auto" });
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** "Active now" for this device and the last few minutes, then "Active 3 hours ago", then a date. */
export function lastActiveLabel(session: Pick<AccountSession, "updatedAt" | "current">, now = Date.now()): string {
  const elapsed = now - new Date(session.updatedAt).getTime();
  if (session.current || elapsed < 5 * MINUTE) return "Active now";
  if (elapsed < HOUR) return `Active ${RELATIVE_FORMAT.format(-Math.floor(elapsed / MINUTE), "minute")}`;
  if (elapsed < DAY) return `Active ${RELATIVE_FORMAT.format(-Math.floor(elapsed / HOUR), "hour")}`;
  if (elapsed < 7 * DAY) return `Active ${RELATIVE_FORMAT.format(-Math.floor(elapsed / DAY), "day")}`;
  return `Last active ${DATE_FORMAT.format(new Date(session.updatedAt))}`;
}

function SessionItem({ session }: { session: AccountSession }) {
  return (
    <li className="grid gap-1 py-3 first:pt-0 last:pb-0">
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-medium">{deviceName(session.userAgent)}</span>
        {session.current && (
          <span className="rounded-full bg-secondary px-2 py-0.5 text-xs font-medium text-secondary-foreground">
            This device
          </span>
        )}
      </div>
      <p className="text-sm text-muted-foreground">
        <time dateTime={session.updatedAt}>{lastActiveLabel(session)}</time>
        {session.ipAddress && <span className="break-all"> · IP {session.ipAddress}</span>}
      </p>
    </li>
  );
}

export function SessionsList() {
  const sessions = useAccountSessions();
  const revokeOthers = useRevokeOtherSessions();
  const [askingForPassword, setAskingForPassword] = useState(false);
  const others = sessions.data?.filter((session) => !session.current).length ?? 0;
  // This device first, then the most recently active.
  const ordered = [...(sessions.data ?? [])].sort(
    (a, b) => Number(b.current) - Number(a.current) || b.updatedAt.localeCompare(a.updatedAt),
  );

  function onRevokeOthers() {
    revokeOthers.mutate(undefined, {
      onSuccess: () => toast({ title: "Signed out of other devices." }),
      onError: (error) =>
        toast({
          title: "Sign out Failed",
          description: describeError(error, "Could not sign out your other devices."),
          variant: "destructive",
        }),
    });
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Sessions</CardTitle>
        <CardDescription>The devices signed in to your account.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {sessions.isPending && (
          <p role="status" className="text-sm text-muted-foreground">
            Loading…
          </p>
        )}
        {sessions.isError && needsPassword(sessions.error) && (
          <div className="flex flex-wrap items-center gap-3 text-sm">
            <p>You signed in a while ago. Enter your password again to see your devices.</p>
            <Button variant="outline" size="sm" onClick={() => setAskingForPassword(true)}>
              Enter password
            </Button>
          </div>
        )}
        {sessions.isError && !needsPassword(sessions.error) && (
          <div role="alert" className="flex flex-wrap items-center gap-3 text-sm">
            <p>{describeError(sessions.error, "We could not load your sessions.")}</p>
            <Button variant="outline" size="sm" onClick={() => void sessions.refetch()}>
              Try again
            </Button>
          </div>
        )}
        {sessions.data && (
          <ul className="divide-y" aria-label="Signed-in devices">
            {ordered.map((session) => (
              <SessionItem key={session.id} session={session} />
            ))}
          </ul>
        )}
        {/* Once the password is confirmed, the list is fetched again (useConfirmPassword). */}
        <ConfirmPasswordDialog
          open={askingForPassword}
          onOpenChange={setAskingForPassword}
          description="You signed in a while ago. Enter your password again to see the devices signed in to your account."
        />
        <div>
          <Button
            variant="outline"
            onClick={onRevokeOthers}
            disabled={others === 0 || revokeOthers.isPending}
            className="h-auto min-h-10 whitespace-normal"
          >
            <LogOut aria-hidden="true" />
            Sign out of all other devices
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}
