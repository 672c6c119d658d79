import { describeError } from "#web/lib/api";
import { toast } from "#web/lib/toast";

/** What a learner is told when what they sent to a tutor (lines, a role-play) did not reach the server. */
export function toastNotSent(error: unknown) {
  toast({
    title: "Not sent",
    description: describeError(error, "Jalan could not reach the server."),
    variant: "destructive",
  });
}
