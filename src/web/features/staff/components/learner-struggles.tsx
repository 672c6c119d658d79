import { LoaderCircle, Pin } from "lucide-react";
import { type ReactNode, useId } from "react";
import type { StruggleReport, WeakPhrase } from "#server/modules/review/review.contract";
import type { UserSummary } from "#server/modules/users/users.contract";
import { LoadFailed } from "#web/components/load-failed";
import { Button } from "#web/components/ui/button";
import { usePinPhrase, useStruggleReport } from "#web/features/staff/api/struggles";
import { describeError } from "#web/lib/api";
import { cn } from "#web/lib/cn";
import { toast } from "#web/lib/toast";
import { userName } from "./user-picker";

/**
 * Staff see a fixed locale, as learners do their feedback dates; made at the first time shown, since a
 * browser's first Intl formatter is slow to make.
 */
let exactFormat: Intl.DateTimeFormat | undefined;
let relativeFormat: Intl.RelativeTimeFormat | undefined;

const UNITS: ReadonlyArray<[unit: Intl.RelativeTimeFormatUnit, ms: number]> = [
  ["year", 365 * 24 * 3_600_000],
  ["month", 30 * 24 * 3_600_000],
  ["week", 7 * 24 * 3_600_000],
  ["day", 24 * 3_600_000],
  ["hour", 3_600_000],
  ["minute", 60_000],
];

/** "just now", "5 minutes ago", "yesterday", "3 weeks ago": the largest whole unit since `iso`. */
export function timeSince(iso: string, now = Date.now()): string {
  const elapsed = Math.max(0, now - new Date(iso).getTime());
  relativeFormat ??= new Intl.RelativeTimeFormat("en-GB", { numeric: "auto" });
  for (const [unit, ms] of UNITS) {
    if (elapsed >= ms) return relativeFormat.format(-Math.floor(elapsed / ms), unit);
  }
  return "just now";
}

function exactTime(iso: string): string {
  exactFormat ??= new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short" });
  return exactFormat.format(new Date(iso));
}

const count = (amount: number, one: string, many = `${one}s`) => `${amount} ${amount === 1 ? one : many}`;

/**
 * A learner's struggles as staff see them: their due cards, streak and last activity, and the
 * phrases they answer wrong or forget most, each of which a tutor can pin to the front of the
 * learner's next review. `headingLevel` fits the panel into the page's outline.
 */
export function LearnerStruggles({ learner, headingLevel }: { learner: UserSummary; headingLevel: 2 | 3 }) {
  const headingId = useId();
  const report = useStruggleReport(learner.id);
  const name = userName(learner);
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <section aria-labelledby={headingId} aria-busy={report.isFetching} className="grid gap-4">
      <div className="space-y-1">
        <Heading
          id={headingId}
          className={cn("min-w-0 break-words font-semibold", headingLevel === 2 ? "text-2xl" : "text-lg")}
        >
          Struggles of {name}
        </Heading>
        <p className="text-muted-foreground">
          The phrases they answer wrong or forget most in their review (a lapse is a phrase forgotten after it was
          learnt). A pinned phrase comes first in their next review.
        </p>
      </div>
      {report.isError && !report.isFetching ? (
        <LoadFailed what={`The struggles of ${name}`} onRetry={() => void report.refetch()} />
      ) : report.data && !report.isError ? (
        <StruggleDetails learner={learner} report={report.data} />
      ) : (
        <p role="status" className="text-muted-foreground">
          Loading their review…
        </p>
      )}
    </section>
  );
}

function StruggleDetails({ learner, report }: { learner: UserSummary; report: StruggleReport }) {
  const listId = useId();
  return (
    <div className="grid gap-5">
      <dl className="grid gap-3 sm:grid-cols-3">
        <Stat
          term="Due now"
          value={count(report.due, "card")}
          detail={`of ${count(report.deckSize, "card")} in their deck`}
        />
        <Stat term="Streak" value={count(report.streak, "day")} detail="daily goal met in a row" />
        {report.lastActivityAt ? (
          <Stat
            term="Last active"
            value={<time dateTime={report.lastActivityAt}>{timeSince(report.lastActivityAt)}</time>}
            detail={exactTime(report.lastActivityAt)}
          />
        ) : (
          <Stat term="Last active" value="Never" detail="no review, answer or progress yet" />
        )}
      </dl>
      {report.weakest.length === 0 ? (
        <div className="rounded-lg border border-dashed p-4">
          <p className="font-medium">{report.deckSize === 0 ? "No reviews yet" : "No weak phrases yet"}</p>
          <p className="text-sm text-muted-foreground">
            {report.deckSize === 0
              ? "Their review fills with each day's phrases as they meet them; the ones they struggle with show here."
              : "Nothing answered wrong or forgotten so far."}
          </p>
        </div>
      ) : (
        <div className="grid gap-2">
          <p id={listId} className="font-medium">
            Weakest phrases
          </p>
          <ol aria-labelledby={listId} className="grid gap-2">
            {report.weakest.map((phrase) => (
              <WeakPhraseItem
                key={`${phrase.chapterId}/${phrase.dayId}/${phrase.phraseId}`}
                learner={learner}
                phrase={phrase}
              />
            ))}
          </ol>
        </div>
      )}
    </div>
  );
}

function Stat({ term, value, detail }: { term: string; value: ReactNode; detail: string }) {
  return (
    <div className="rounded-lg border bg-card p-3 text-card-foreground">
      <dt className="text-sm text-muted-foreground">{term}</dt>
      <dd className="text-xl font-semibold">{value}</dd>
      <dd className="text-sm text-muted-foreground">{detail}</dd>
    </div>
  );
}

function WeakPhraseItem({ learner, phrase }: { learner: UserSummary; phrase: WeakPhrase }) {
  return (
    <li className="flex flex-wrap items-start justify-between gap-3 rounded-lg border bg-card p-3 text-card-foreground">
      <div className="min-w-0 flex-1 basis-56 space-y-1">
        <p className="flex flex-wrap items-baseline gap-x-2 gap-y-1">
          <span lang="ms" className="break-words font-semibold">
            {phrase.malay}
          </span>
          <span className="break-words text-muted-foreground">{phrase.english}</span>
          <span className="rounded-full bg-secondary px-2 py-0.5 text-xs font-medium text-secondary-foreground">
            Day {phrase.dayNumber}
          </span>
        </p>
        <p className="text-sm">
          {count(phrase.wrong, "wrong answer")} · {count(phrase.lapses, "lapse")}
        </p>
        {phrase.wrongAnswers.length > 0 && (
          <p className="break-words text-sm text-muted-foreground">
            They answered {phrase.wrongAnswers.map((answer) => `“${answer}”`).join(", ")}
          </p>
        )}
      </div>
      {phrase.pinned ? (
        <p className="inline-flex items-center gap-1.5 text-sm font-medium text-primary">
          <Pin aria-hidden className="size-4" />
          Pinned
        </p>
      ) : (
        <PinButton learner={learner} phrase={phrase} />
      )}
    </li>
  );
}

/**
 * Pins the phrase into the learner's review. The report is read again before the mutation settles,
 * so the row then shows "Pinned" and this button goes: the toasts hang on the promise, which still
 * settles once the button is gone.
 */
function PinButton({ learner, phrase }: { learner: UserSummary; phrase: WeakPhrase }) {
  const pin = usePinPhrase(learner.id);
  function onPin() {
    pin.mutateAsync({ chapterId: phrase.chapterId, dayId: phrase.dayId, phraseId: phrase.phraseId }).then(
      () =>
        toast({
          title: `Pinned to ${userName(learner)}'s review`,
          description: `“${phrase.malay}” comes first in their next review.`,
        }),
      (error: unknown) =>
        toast({
          title: "Could not pin the phrase",
          description: describeError(error, "The phrase could not be pinned."),
          variant: "destructive",
        }),
    );
  }
  return (
    <Button variant="outline" size="sm" onClick={onPin} disabled={pin.isPending} aria-busy={pin.isPending || undefined}>
      {pin.isPending ? <LoaderCircle aria-hidden className="animate-spin" /> : <Pin aria-hidden />}
      Pin to review
      <span className="sr-only">
        : <span lang="ms">{phrase.malay}</span>
      </span>
    </Button>
  );
}
