import { type FormEvent, useState } from "react";
import { CHAT_MAX_LENGTH } from "#course/calls";
import type { ChatMessage } from "#server/modules/calls/calls.contract";
import { Button } from "#web/components/ui/button";
import { Field } from "#web/components/ui/field";
import { timeOfDay } from "#web/lib/session-time";

/** The room's chat: each message with its sender and the time it was sent, in the viewer's zone. */
export function CallChat({
  messages,
  names,
  timeZone,
  problem,
  send,
}: {
  messages: ChatMessage[];
  names: Record<string, string>;
  /** The zone the viewer reads the session's times in. */
  timeZone: string;
  problem: string | null;
  send: (text: string) => void;
}) {
  const [text, setText] = useState("");
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = text.trim();
    if (!trimmed) return;
    send(trimmed);
    setText("");
  };
  return (
    <section aria-labelledby="chat-heading" className="flex flex-col gap-3 rounded-xl border bg-card p-4 shadow-sm">
      <h2 id="chat-heading" className="text-lg font-semibold">
        Chat
      </h2>
      <ol aria-live="polite" className="max-h-80 min-h-24 space-y-2 overflow-y-auto">
        {messages.map((message) => (
          <li key={message.id}>
            <time dateTime={message.at} className="mr-2 text-sm tabular-nums text-muted-foreground">
              {timeOfDay(message.at, timeZone)}
            </time>{" "}
            <span className="font-medium">{names[message.from] ?? "Staff"}:</span> {message.text}
          </li>
        ))}
      </ol>
      <form onSubmit={submit} className="grid gap-2">
        <Field
          label="Message"
          value={text}
          maxLength={CHAT_MAX_LENGTH}
          onChange={(event) => setText(event.target.value)}
          hint={problem ?? undefined}
        />
        <Button type="submit">Send</Button>
      </form>
    </section>
  );
}
