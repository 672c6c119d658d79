import { type UseQueryResult, useQuery } from "@tanstack/react-query";
import { CircleCheck } from "lucide-react";
import { type RefObject, useEffect, useRef, useState } from "react";
import { courseAudioPath } from "#course/course";
import type { ExerciseItem, Given } from "#course/exercise-schema";
import type { PracticeProgress } from "#server/modules/answers/answers.contract";
import { announceFeedback, type Feedback, feedbackFromServer } from "#web/components/exercise/feedback-panel";
import { answersInMalay, FIRST_CONTROL, isListening, PracticeItem } from "#web/components/exercise/practice-item";
import { Button } from "#web/components/ui/button";
import { practiceProgressQuery, useAnswer } from "#web/features/course/api/answers";
import { loadTaughtWords } from "#web/lib/course-data";
import { useClipUrl } from "#web/lib/published-clips";
import { useSingleAudio } from "#web/lib/use-single-audio";

export interface PracticeSetProps {
  chapterId: string;
  dayId: string;
  taskId: string;
  items: ExerciseItem[];
  /** Signed-in learner: answers go to the server, which grades and stores them. Visitor: graded in the browser with grading.ts, nothing saved. */
  signedIn: boolean;
  /** The task is already completed (stored progress): show the set as done, offering to practise again. */
  completed: boolean;
  /** Called once when the set becomes complete (server says taskCompleted, or for a visitor every item answered right). */
  onCompleted?: () => void;
}

/** A run through the set: the items still to answer right, the first one asked now. */
interface Run {
  queue: string[];
  /** How many of the set's items have been answered right, before this run too. */
  done: number;
  /** How many were answered right before this run (a signed-in learner resuming). */
  doneBefore: number;
  /** Items answered wrong or almost at least once in this run. */
  missed: string[];
  /** Items asked so far: an item that comes back is drawn afresh. */
  asked: number;
}

/** A missed item comes back after this many other items, or at the end of a shorter queue. */
const COMES_BACK_AFTER = 2;

/** Starts with the items not answered right yet; with all of them when none is left. */
function startRun(items: readonly ExerciseItem[], answeredRight: readonly string[]): Run {
  const left = items.filter((item) => !answeredRight.includes(item.id));
  const queue = (left.length > 0 ? left : items).map((item) => item.id);
  const done = items.length - queue.length;
  return { queue, done, doneBefore: done, missed: [], asked: 0 };
}

function afterAnswer(run: Run, right: boolean): Run {
  const [current, ...rest] = run.queue;
  if (current === undefined) return run;
  if (right) return { ...run, queue: rest, done: run.done + 1, asked: run.asked + 1 };
  return {
    ...run,
    queue: [...rest.slice(0, COMES_BACK_AFTER), current, ...rest.slice(COMES_BACK_AFTER)],
    missed: run.missed.includes(current) ? run.missed : [...run.missed, current],
    asked: run.asked + 1,
  };
}

/** Where focus goes after the next render: the new item's first control, or the summary. */
const FOCUS_TARGETS = {
  item: FIRST_CONTROL,
  summary: "[data-focus='summary']",
};

/**
 * A practice set (the Codebook's graded mission): one item at a time, checked at once, with the
 * right answer and its clip. A missed item comes back a little later, until every item has been
 * answered right once. A signed-in learner's answers are graded and stored by the server, and a set
 * left half done resumes where it stopped; a visitor's are graded here and kept nowhere.
 */
export default function PracticeSet(props: PracticeSetProps) {
  const { chapterId, dayId, taskId, items, signedIn, completed } = props;
  const resume = useQuery({ ...practiceProgressQuery(chapterId, dayId, taskId), enabled: signedIn && !completed });
  // The clips of listening items at 0.75x once the learner asks, for every item of the set.
  const [slow, setSlow] = useState(false);
  const audio = useSingleAudio(slow ? 0.75 : 1);
  const clipUrl = useClipUrl();
  const rootRef = useRef<HTMLDivElement>(null);
  const focusNext = useFocusAfterRender(rootRef);
  const { run, wentOn, announcement, setAnnouncement, practiseAgain, next } = usePracticeRun(props, {
    resume,
    focusNext,
    stopAudio: audio.stop,
  });
  const { check, checking } = useChecking(props, { resume, run, setAnnouncement });

  const item = run && items.find((candidate) => candidate.id === run.queue[0]);
  return (
    <div ref={rootRef} className="space-y-4">
      <p role="status" className="sr-only">
        {announcement}
      </p>
      {run === null ? (
        completed ? (
          <CompletedSet onAgain={practiseAgain} />
        ) : (
          <p aria-busy="true">Loading your practice…</p>
        )
      ) : item ? (
        <>
          <Progress run={run} total={items.length} cameBack={run.missed.includes(item.id)} />
          <PracticeItem
            key={`${item.id}-${run.asked}`}
            item={item}
            clip={isListening(item) ? clipUrl(courseAudioPath(chapterId, dayId, item.audio)) : null}
            check={check}
            checking={checking}
            onSaid={setAnnouncement}
            onContinue={next}
            playing={audio.playing}
            onToggleAudio={audio.toggle}
            slow={{ on: slow, onChange: setSlow }}
            autoPlay={wentOn}
          />
        </>
      ) : (
        <Summary run={run} total={items.length} onAgain={practiseAgain} />
      )}
    </div>
  );
}

type Resume = UseQueryResult<PracticeProgress>;

/** Moves focus after the next render to the target set in the ref it answers: the new item's first control, or the summary. */
function useFocusAfterRender(rootRef: RefObject<HTMLDivElement | null>) {
  const focusNext = useRef<keyof typeof FOCUS_TARGETS | null>(null);
  useEffect(() => {
    const target = focusNext.current;
    focusNext.current = null;
    if (target) rootRef.current?.querySelector<HTMLElement>(FOCUS_TARGETS[target])?.focus();
  });
  return focusNext;
}

/** The run through the set: started (or resumed) once the answers so far are known, moved on by each Continue. */
function usePracticeRun(
  { items, signedIn, completed }: PracticeSetProps,
  {
    resume,
    focusNext,
    stopAudio,
  }: { resume: Resume; focusNext: RefObject<keyof typeof FOCUS_TARGETS | null>; stopAudio: () => void },
) {
  // Once the learner has gone on from an item (or started again), a listening item plays as it arrives.
  const [wentOn, setWentOn] = useState(false);
  const [run, setRun] = useState<Run | null>(null);
  const [announcement, setAnnouncement] = useState("");

  useEffect(() => {
    // The set then starts from its first item; the server still knows what was answered.
    if (resume.isError) console.error("Could not read the practice set's answers", resume.error);
  }, [resume.isError, resume.error]);

  const waitingForResume = signedIn && !completed && !resume.isFetchedAfterMount;
  // A set already completed waits for "Practise again"; any other starts (or resumes) at once.
  if (run === null && !completed && !waitingForResume) setRun(startRun(items, resume.data?.answeredRight ?? []));

  const practiseAgain = () => {
    setWentOn(true);
    setRun(startRun(items, []));
    setAnnouncement("");
    focusNext.current = "item";
  };

  const next = (right: boolean) => {
    if (!run) return;
    setWentOn(true);
    const nextRun = afterAnswer(run, right);
    stopAudio();
    setRun(nextRun);
    const finished = nextRun.queue.length === 0;
    setAnnouncement(
      finished
        ? `Practice complete. All ${items.length} items answered right. ${firstTimeLine(nextRun, items.length)}`
        : "",
    );
    focusNext.current = finished ? "summary" : "item";
  };
  return { run, wentOn, announcement, setAnnouncement, practiseAgain, next };
}

/** Grades an answer (on the server for a learner) and, when it completes the set, says so once. */
function useChecking(
  { chapterId, dayId, taskId, signedIn, completed, onCompleted }: PracticeSetProps,
  { resume, run, setAnnouncement }: { resume: Resume; run: Run | null; setAnnouncement: (text: string) => void },
) {
  const sender = useAnswer({ chapterId, dayId, taskId });
  const completionTold = useRef(false);

  useEffect(() => {
    // A visitor's answers are graded here, against every word the course teaches: the grading and
    // the words are fetched once the set is shown, so the first answer does not wait for them; a
    // signed-in learner's page never loads them (the server grades).
    if (!signedIn) void Promise.all([loadGrading(), loadTaughtWords()]);
  }, [signedIn]);

  const check = async (item: ExerciseItem, given: Given): Promise<Feedback> => {
    const malay = answersInMalay(item);
    let feedback: Feedback;
    let completesSet: boolean;
    if (signedIn) {
      const response = await sender.answer(item.id, given);
      feedback = feedbackFromServer(response, malay);
      completesSet = response.taskCompleted && !resume.data?.taskCompleted;
    } else {
      feedback = await gradedHere(item, given, { chapterId, dayId, malay });
      completesSet = feedback.result === "right" && run?.queue.length === 1;
    }
    setAnnouncement(announceFeedback(feedback));
    if (completesSet && !completed && !completionTold.current) {
      completionTold.current = true;
      onCompleted?.();
    }
    return feedback;
  };
  return { check, checking: sender.isPending };
}

/** The grading of answers (with its typed answers' rules), loaded only for a visitor's answers. */
const loadGrading = () => import("#course/grading");

/** A visitor's answer, graded in the browser as the server would (grading.ts), with its right answer. */
async function gradedHere(
  item: ExerciseItem,
  given: Given,
  { chapterId, dayId, malay }: { chapterId: string; dayId: string; malay: Feedback["malay"] },
): Promise<Feedback> {
  const [{ grade }, taughtWords] = await Promise.all([loadGrading(), loadTaughtWords()]);
  const graded = grade(item, given, { forgiveSlips: true, taughtWords });
  const { text, answer, audioId, explain, accepted } = graded.correct;
  return {
    result: graded.grade,
    typo: graded.typo,
    slip: graded.slip,
    text,
    answer,
    malay,
    audio: audioId && courseAudioPath(chapterId, dayId, audioId),
    explain,
    accepted,
  };
}

/** A set already completed: said so, with Practise again. */
function CompletedSet({ onAgain }: { onAgain: () => void }) {
  return (
    <div className="space-y-3">
      <p className="flex items-center gap-2 font-medium">
        <CircleCheck aria-hidden className="size-5 shrink-0" />
        You have completed this practice set.
      </p>
      <Button variant="outline" onClick={onAgain}>
        Practise again
      </Button>
    </div>
  );
}

/**
 * Where the learner is: the position of the item on screen among the items to ask ("Item 3 of 12"),
 * which moves on with every Continue, right or not; an item that comes back adds one to ask.
 */
function itemPosition(run: Run, total: number): { position: number; of: number } {
  const cameBack = run.asked - (run.done - run.doneBefore);
  return { position: run.doneBefore + run.asked + 1, of: total + cameBack };
}

/** "12 of 16 right first time": of the items answered in this run. */
function firstTimeLine(run: Run, total: number): string {
  const answered = total - run.doneBefore;
  return `${answered - run.missed.length} of ${answered} right first time.`;
}

/** "Item 3 of 12", and a bar of the items answered right. */
function Progress({ run, total, cameBack }: { run: Run; total: number; cameBack: boolean }) {
  const { done } = run;
  const { position, of } = itemPosition(run, total);
  return (
    <div className="space-y-2">
      <p className="flex flex-wrap justify-between gap-2 text-sm font-medium">
        <span>
          Item {position} of {of}
        </span>
        {cameBack && <span className="text-muted-foreground">Back again: have another go.</span>}
      </p>
      <div
        role="progressbar"
        aria-label="Items answered right"
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={done}
        aria-valuetext={`${done} of ${total} answered right`}
        className="h-2 overflow-hidden rounded-full bg-accent"
      >
        <div className="h-full bg-primary transition-[width]" style={{ width: `${(done / total) * 100}%` }} />
      </div>
    </div>
  );
}

function Summary({ run, total, onAgain }: { run: Run; total: number; onAgain: () => void }) {
  const answered = total - run.doneBefore;
  return (
    <section className="space-y-3 rounded-lg border-2 border-primary p-4">
      <h3 data-focus="summary" tabIndex={-1} className="flex items-center gap-2 text-xl font-semibold">
        <CircleCheck aria-hidden className="size-6 shrink-0 text-primary" />
        Practice complete
      </h3>
      <p>All {total} items answered right.</p>
      {answered > 0 && (
        <p>
          {firstTimeLine(run, total)}
          {run.missed.length > 0 && ` ${run.missed.length} after another go.`}
        </p>
      )}
      <Button variant="outline" onClick={onAgain}>
        Practise again
      </Button>
    </section>
  );
}
