import { LoaderCircle } from "lucide-react";
import { type FormEvent, useRef, useState } from "react";
import { Button } from "#web/components/ui/button";
import { Field, TextareaField } from "#web/components/ui/field";
import { type ContactMessageInput, useSendContactMessage } from "#web/features/contact/api/send-contact-message";
import { ApiError, describeError } from "#web/lib/api";
import { toast } from "#web/lib/toast";

type FieldName = keyof ContactMessageInput;

const empty: ContactMessageInput = { fullName: "", email: "", message: "" };

const blankMessages: Record<FieldName, string> = {
  fullName: "Please enter your full name.",
  email: "Please enter your email address.",
  message: "Please write a message.",
};

/** `required` stops empty fields in the browser; this also catches fields holding only spaces. */
function blankFields(values: ContactMessageInput): FieldName[] {
  return (Object.keys(blankMessages) as FieldName[]).filter((name) => values[name].trim() === "");
}

function errorText(message: string | undefined) {
  return message && <span className="font-medium text-destructive">{message}</span>;
}

export function ContactForm() {
  const send = useSendContactMessage();
  const [values, setValues] = useState(empty);
  const [errors, setErrors] = useState<Partial<Record<FieldName, string>>>({});
  const form = useRef<HTMLFormElement>(null);

  function change(name: FieldName, value: string) {
    setValues((current) => ({ ...current, [name]: value }));
    if (errors[name] && value.trim()) setErrors((current) => ({ ...current, [name]: undefined }));
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const blank = blankFields(values);
    if (blank.length > 0) {
      setErrors(Object.fromEntries(blank.map((name) => [name, blankMessages[name]])));
      form.current?.querySelector<HTMLElement>(`[name="${blank[0]}"]`)?.focus();
      return;
    }
    setErrors({});
    send.mutate(
      { fullName: values.fullName.trim(), email: values.email.trim(), message: values.message.trim() },
      {
        onSuccess: () => {
          setValues(empty);
          toast({ title: "Message Sent!", description: "Thank you for reaching out. We'll get back to you soon." });
        },
        onError: (error) => {
          const tooMany = error instanceof ApiError && error.status === 429;
          toast({
            title: tooMany ? "Too Many Messages" : "Message Not Sent",
            description: describeError(error, "Could not send your message. Please try again."),
            variant: "destructive",
          });
        },
      },
    );
  }

  return (
    <form ref={form} onSubmit={onSubmit} className="grid gap-4">
      <Field
        label="Full name"
        name="fullName"
        autoComplete="name"
        value={values.fullName}
        onChange={(event) => change("fullName", event.target.value)}
        aria-invalid={errors.fullName ? true : undefined}
        hint={errorText(errors.fullName)}
        required
      />
      <Field
        label="Email address"
        name="email"
        type="email"
        autoComplete="email"
        value={values.email}
        onChange={(event) => change("email", event.target.value)}
        aria-invalid={errors.email ? true : undefined}
        hint={errorText(errors.email) || "We only use it to answer you."}
        required
      />
      <TextareaField
        label="Message"
        name="message"
        rows={6}
        value={values.message}
        onChange={(event) => change("message", event.target.value)}
        aria-invalid={errors.message ? true : undefined}
        hint={errorText(errors.message)}
        required
      />
      <div>
        <Button type="submit" disabled={send.isPending}>
          {send.isPending && <LoaderCircle className="animate-spin" aria-hidden="true" />}
          Send Message
        </Button>
      </div>
    </form>
  );
}
