import { useEffect, useRef, useState } from "react";
import { FEEDBACK_MAX_LENGTH } from "#course/feedback";
import type { SessionRecord } from "#server/modules/calls/calls.contract";
import { TextareaField } from "#web/components/ui/field";
import { useSaveNotes } from "#web/features/calls/api/record";
import { describeError } from "#web/lib/api";
import { characterCount } from "#web/lib/character-count";

/** The notes are saved this long after the tutor stops typing. */
const NOTES_SAVE_AFTER_MS = 700;
/** A save that failed (the connection dropped) is tried again this often while the text waits. */
const NOTES_RETRY_MS = 3_000;

/** A time of the session, as the reader's clock shows it: "3:05 pm". */
const timeOf = (iso: string) => new Date(iso).toLocaleTimeString([], { timeStyle: "short" });

const count = new Intl.NumberFormat("en");

type NotesState = "saved" | "saving" | "waiting" | "failed";

/**
 * The tutor's notes, saved a moment after they stop typing. A save that fails (the connection
 * dropped) keeps the text and is tried again until it lands; leaving the page with unsaved notes asks first.
 * The box holds what the server keeps (FEEDBACK_MAX_LENGTH) and counts toward it; a paste the browser
 * cuts to fit is said, never cut silently.
 */
export function Notes({ bookingId, record, learner }: { bookingId: string; record: SessionRecord; learner: string }) {
  const [text, setText] = useState(record.notes ?? "");
  const [state, setState] = useState<NotesState>("saved");
  const [problem, setProblem] = useState<string | null>(null);
  const [savedAt, setSavedAt] = useState(record.notesSavedAt);
  /** How many characters of the last paste did not fit; 0 once the tutor makes room. */
  const [leftOut, setLeftOut] = useState(0);
  const save = useSaveNotes(bookingId);
  const latest = useRef(text);
  const ended = record.endedAt !== null;

  useEffect(() => {
    if (state !== "waiting" && state !== "failed") return;
    const timer = setTimeout(
      () => {
        const sending = latest.current;
        setState("saving");
        save.mutate(sending, {
          onSuccess: (saved) => {
            setSavedAt(saved.notesSavedAt);
            setProblem(null);
            setState(latest.current === sending ? "saved" : "waiting");
          },
          onError: (error) => {
            setProblem(describeError(error, "The connection dropped."));
            setState("failed");
          },
        });
      },
      state === "failed" ? NOTES_RETRY_MS : NOTES_SAVE_AFTER_MS,
    );
    return () => clearTimeout(timer);
  }, [state, save]);

  useEffect(() => {
    if (state === "saved") return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [state]);

  const status =
    state === "saved"
      ? savedAt
        ? `Saved at ${timeOf(savedAt)}`
        : "Saved as you type"
      : state === "failed"
        ? `Not saved yet: ${problem} Trying again…`
        : "Saving…";

  return (
    <section aria-labelledby="notes-heading" className="space-y-2">
      <h2 id="notes-heading" className="text-lg font-semibold">
        Notes
      </h2>
      <TextareaField
        label={`Notes for ${learner}`}
        hint={
          ended ? (
            "These became the day's feedback."
          ) : (
            <>
              They become the day's feedback when you end the session.{" "}
              <span className="tabular-nums">{characterCount(text.length, FEEDBACK_MAX_LENGTH)}</span>
            </>
          )
        }
        value={text}
        maxLength={FEEDBACK_MAX_LENGTH}
        rows={5}
        readOnly={ended}
        onPaste={(event) => {
          const { value, selectionStart, selectionEnd } = event.currentTarget;
          // A text box keeps a line break as one character, however the clipboard writes it.
          const pasted = event.clipboardData.getData("text/plain").replace(/\r\n?/g, "\n").length;
          const after = value.length - (selectionEnd - selectionStart) + pasted;
          setLeftOut(Math.max(0, after - FEEDBACK_MAX_LENGTH));
        }}
        onChange={(event) => {
          latest.current = event.target.value;
          setText(event.target.value);
          if (event.target.value.length < FEEDBACK_MAX_LENGTH) setLeftOut(0);
          if (state !== "saving") setState("waiting");
        }}
      />
      {leftOut > 0 && (
        <p role="alert" className="text-sm font-medium text-destructive">
          Notes hold {count.format(FEEDBACK_MAX_LENGTH)} characters: the last {count.format(leftOut)} of what you pasted
          did not fit.
        </p>
      )}
      {!ended && (
        <p role="status" className="text-sm text-muted-foreground">
          {status}
        </p>
      )}
    </section>
  );
}
