import { type FormEvent, useState } from "react";
import { Button } from "#web/components/ui/button";
import { Field } from "#web/components/ui/field";
import { focusOnMount, ProblemText } from "./form-helpers";

/**
 * Asks for the password before two-factor sign-in is turned on or off. `onConfirm` answers the
 * server's message when the password was refused, or null when the change went through.
 */
export function PasswordStep({
  explanation,
  submitLabel,
  pendingLabel,
  destructive = false,
  onConfirm,
  onCancel,
}: {
  explanation: string;
  submitLabel: string;
  pendingLabel: string;
  destructive?: boolean;
  onConfirm: (password: string) => Promise<string | null>;
  onCancel: () => void;
}) {
  const [pending, setPending] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const password = String(new FormData(event.currentTarget).get("password") ?? "");
    setPending(true);
    const message = await onConfirm(password);
    // On success the card moves on and this form is gone.
    if (message) {
      setPending(false);
      setProblem(message);
    }
  }

  return (
    <form onSubmit={onSubmit} className="grid gap-4">
      <Field
        ref={focusOnMount}
        label="Password"
        name="password"
        type="password"
        autoComplete="current-password"
        aria-invalid={problem ? true : undefined}
        hint={problem ? <ProblemText>{problem}</ProblemText> : explanation}
        required
      />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" variant={destructive ? "destructive" : "default"} disabled={pending}>
          {pending ? pendingLabel : submitLabel}
        </Button>
        <Button variant="outline" onClick={onCancel} disabled={pending}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
