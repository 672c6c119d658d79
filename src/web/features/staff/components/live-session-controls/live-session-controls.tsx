import { useMutation, useQueryClient } from "@tanstack/react-query";
import { CircleCheck, CircleDashed, CircleDot, LoaderCircle, type LucideIcon } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import type { Day } from "#course/course";
import { FEEDBACK_MAX_LENGTH } from "#course/feedback";
import { taskStatus } from "#course/progress-rules";
import type { TaskStatus } from "#course/progress-status";
import type { UserSummary } from "#server/modules/users/users.contract";
import { Button } from "#web/components/ui/button";
import { TextareaField } from "#web/components/ui/field";
import { Label } from "#web/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "#web/components/ui/select";
import { setUserTaskStatus, useSubmitFeedback, useUserProgress } from "#web/features/staff/api/staff";
import { LearnerStruggles } from "#web/features/staff/components/learner-struggles";
import { UserPicker, userName } from "#web/features/staff/components/user-picker";
import { describeError } from "#web/lib/api";
import { characterCount } from "#web/lib/character-count";
import { cn } from "#web/lib/cn";
import { userProgressQueryKey } from "#web/lib/query-keys";
import { toast } from "#web/lib/toast";

/** A task the live session practises, as the tutor sees it. */
export interface LiveSessionTask {
  id: string;
  title: string;
}

function chooseStudentToast() {
  toast({ title: "Choose a student", description: "Pick the student this session was with.", variant: "destructive" });
}

/**
 * What a tutor (or admin) does during a day's live session (spec sections 4 and 6): choose the
 * learner, mark the session's tasks complete for them, see what they struggle with in their review,
 * and leave feedback on the day, pinning one of its phrases (`phrases`, the day's vocabulary) to their
 * review if they like. Everything is recorded for the chosen learner, never for the tutor; the server
 * checks the role again.
 */
export function LiveSessionControls({
  chapterId,
  dayId,
  tasks,
  phrases,
}: {
  chapterId: string;
  dayId: string;
  tasks: LiveSessionTask[];
  phrases: Day["vocabulary"];
}) {
  const [student, setStudent] = useState<UserSummary | null>(null);
  return (
    <div className="space-y-6">
      <header className="space-y-1">
        <h2 className="text-2xl font-semibold tracking-tight">Tutor controls</h2>
        <p className="text-muted-foreground">
          Choose the student you held this live session with, then record their practice and leave them feedback.
        </p>
      </header>
      <UserPicker value={student} onChange={setStudent} label="Student" className="max-w-xl" />
      <StudentTasks student={student} chapterId={chapterId} dayId={dayId} tasks={tasks} />
      {student && <LearnerStruggles key={student.id} learner={student} headingLevel={3} />}
      <FeedbackForm student={student} chapterId={chapterId} dayId={dayId} phrases={phrases} />
    </div>
  );
}

const STATUS = {
  completed: { label: "Completed", Icon: CircleCheck, tone: "text-primary" },
  "in-progress": { label: "In progress", Icon: CircleDot, tone: "text-amber-700 dark:text-amber-400" },
  "not-started": { label: "Not started", Icon: CircleDashed, tone: "text-muted-foreground" },
} satisfies Record<TaskStatus, { label: string; Icon: LucideIcon; tone: string }>;

/** The chosen learner's status of each task of the session, and the button that completes them all. */
function StudentTasks({
  student,
  chapterId,
  dayId,
  tasks,
}: {
  student: UserSummary | null;
  chapterId: string;
  dayId: string;
  tasks: LiveSessionTask[];
}) {
  const headingId = useId();
  const queryClient = useQueryClient();
  const progress = useUserProgress(student?.id ?? null);
  const markComplete = useMutation({
    // One PUT per task, in order: the first failure stops the rest and says why.
    mutationFn: async (userId: string) => {
      for (const task of tasks) {
        await setUserTaskStatus({ userId, chapterId, dayId, taskId: task.id, status: "completed" });
      }
    },
    onSuccess: () => toast({ title: "Success!", description: "Student's progress updated." }),
    onError: (error) =>
      toast({
        title: "Update Failed",
        description: describeError(error, "Could not update the progress."),
        variant: "destructive",
      }),
    // Even a partly failed run may have written some tasks: read the learner's progress again.
    onSettled: (_result, _error, userId) => queryClient.invalidateQueries({ queryKey: userProgressQueryKey(userId) }),
  });

  const statuses = progress.data && tasks.map((task) => taskStatus(progress.data, chapterId, dayId, task.id));
  const allCompleted = Boolean(statuses?.every((status) => status === "completed"));

  function onMarkComplete() {
    if (!student) {
      chooseStudentToast();
      return;
    }
    markComplete.mutate(student.id);
  }

  return (
    <section aria-labelledby={headingId} className="space-y-3">
      <h3 id={headingId} className="text-lg font-semibold">
        {student ? `${userName(student)}'s live session tasks` : "Live session tasks"}
      </h3>
      {!student && <p className="text-muted-foreground">Choose a student to see their progress on these tasks.</p>}
      {student && progress.isPending && (
        <p role="status" className="text-muted-foreground">
          Loading their progress…
        </p>
      )}
      {student && progress.isError && <p className="text-muted-foreground">Their progress could not be loaded.</p>}
      {statuses && (
        <ul className="space-y-1.5">
          {tasks.map((task, index) => {
            const { label, Icon, tone } = STATUS[statuses[index] ?? "not-started"];
            return (
              <li key={task.id} className="flex flex-wrap items-center gap-x-2 gap-y-0.5">
                <Icon aria-hidden className={cn("size-5 shrink-0", tone)} />
                <span className="font-medium">{task.title}</span>
                <span className="text-sm text-muted-foreground">
                  <span className="sr-only">: </span>
                  {label}
                </span>
              </li>
            );
          })}
        </ul>
      )}
      <Button
        onClick={onMarkComplete}
        disabled={allCompleted || markComplete.isPending}
        aria-busy={markComplete.isPending || undefined}
      >
        {markComplete.isPending && <LoaderCircle aria-hidden className="animate-spin" />}
        {allCompleted ? "Completed" : "Mark as Complete for Student"}
      </Button>
    </section>
  );
}

/** The select's value for "no phrase": Radix Select keeps the empty string for "nothing chosen". */
const NO_PIN = "none";

/**
 * Feedback on this day for the chosen learner; they read it on their day page and on My Journey.
 * A phrase of the day's vocabulary can go with it, pinned to the front of their next review.
 */
function FeedbackForm({
  student,
  chapterId,
  dayId,
  phrases,
}: {
  student: UserSummary | null;
  chapterId: string;
  dayId: string;
  phrases: Day["vocabulary"];
}) {
  const [text, setText] = useState("");
  const [pinId, setPinId] = useState(NO_PIN);
  const submit = useSubmitFeedback();
  const selectId = useId();

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!text.trim()) {
      toast({ title: "Feedback cannot be empty", variant: "destructive" });
      return;
    }
    if (!student) {
      chooseStudentToast();
      return;
    }
    const phrase = phrases.find((each) => each.id === pinId);
    submit.mutate(
      {
        studentId: student.id,
        chapterId,
        dayId,
        feedback: text.trim(),
        pin: phrase && { phraseId: phrase.id, malay: phrase.malay },
      },
      {
        onSuccess: () => {
          setText("");
          setPinId(NO_PIN);
        },
      },
    );
  }

  return (
    <form onSubmit={onSubmit} aria-label="Feedback for the student" className="grid max-w-2xl gap-3">
      <TextareaField
        label="Feedback"
        name="feedback"
        rows={5}
        maxLength={FEEDBACK_MAX_LENGTH}
        value={text}
        onChange={(event) => setText(event.target.value)}
        hint={`${student ? `For ${userName(student)}. ` : ""}${characterCount(text.length, FEEDBACK_MAX_LENGTH)}`}
      />
      {phrases.length > 0 && (
        <div className="grid gap-2">
          <Label htmlFor={selectId}>Pin a phrase to their review</Label>
          <Select value={pinId} onValueChange={setPinId}>
            <SelectTrigger id={selectId} aria-describedby={`${selectId}-hint`} className="max-w-md">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value={NO_PIN}>No phrase</SelectItem>
              {phrases.map((phrase) => (
                <SelectItem key={phrase.id} value={phrase.id}>
                  <span>
                    <span lang="ms">{phrase.malay}</span>{" "}
                    <span className="text-muted-foreground">({phrase.english})</span>
                  </span>
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
          <p id={`${selectId}-hint`} className="text-sm text-muted-foreground">
            Optional: sent with the feedback, the phrase comes first in their next review.
          </p>
        </div>
      )}
      <div>
        <Button type="submit" disabled={submit.isPending} aria-busy={submit.isPending || undefined}>
          {submit.isPending && <LoaderCircle aria-hidden className="animate-spin" />}
          Submit Feedback
        </Button>
      </div>
    </form>
  );
}
