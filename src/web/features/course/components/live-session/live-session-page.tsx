import { Circle, CircleCheck, CircleDashed } from "lucide-react";
import { type ReactNode, useId } from "react";
import { Link, useNavigate } from "react-router";
import { dayAfter, type LiveSession } from "../../../../../course/course";
import { taskStatus } from "../../../../../course/progress-rules";
import type { TaskStatus } from "../../../../../course/progress-status";
import { Page } from "../../../../components/page";
import { Button } from "../../../../components/ui/button";
import { coursePaths, paths } from "../../../../config/paths";
import { useSaveTask } from "../../api/progress";
import { COURSE } from "../../course-data";
import { useSingleAudio } from "../../use-single-audio";
import { Breadcrumbs } from "../breadcrumbs";
import { dayCrumbs, dayPageTitle, type OpenDay } from "../course-day-frame";
import { signInToSaveToast } from "../story/complete-task-button";
import { SpokenLineList, withAudio } from "../story/spoken-line-list";
import { UnderConstruction } from "../under-construction";

/** The task an unwritten live session records when the learner says it took place. */
const LIVE_SESSION_TASK_ID = "live-session:task-1";

/**
 * A day's live session (/chapter-1/day-1/live-session). With content, the learner's view of what
 * the session practises; `tutorControls` is where staff tools go, shown below a separator (the
 * caller decides who sees them). Without content, the spec's under-construction page whose button
 * records the session and moves on to the next day.
 */
export function LiveSessionPage({ open, tutorControls }: { open: OpenDay; tutorControls?: ReactNode }) {
  const { chapter, day } = open;
  return (
    <Page title={dayPageTitle(day, "live-session")} intro={day.liveSession?.intro}>
      <Breadcrumbs items={dayCrumbs(chapter, day, "live-session")} />
      {day.liveSession ? (
        <div className="space-y-8">
          <PracticeBlocks open={open} liveSession={day.liveSession} />
          <p className="rounded-lg bg-muted p-4">
            Your tutor marks each practice complete during the session; it shows here as Completed once they have.
          </p>
          {tutorControls && (
            <section aria-label="Tutor controls" className="space-y-4 border-t-2 pt-8">
              {tutorControls}
            </section>
          )}
          <Button asChild variant="outline">
            <Link to={paths.progress}>Back to My Journey</Link>
          </Button>
        </div>
      ) : (
        <LiveSessionUnderConstruction open={open} />
      )}
    </Page>
  );
}

function PracticeBlocks({ open, liveSession }: { open: OpenDay; liveSession: LiveSession }) {
  const { chapter, day, learner } = open;
  const audio = useSingleAudio();
  return (
    <div className="space-y-6">
      {liveSession.practice.map((practice) => (
        <PracticeBlock
          key={practice.taskId}
          title={practice.title}
          description={practice.description}
          status={taskStatus(learner.progress, chapter.id, day.id, practice.taskId)}
        >
          <SpokenLineList
            lines={withAudio(chapter.id, day.id, practice.phrases)}
            playing={audio.playing}
            onToggle={audio.toggle}
          />
        </PracticeBlock>
      ))}
    </div>
  );
}

const STATUS_LABELS: Record<TaskStatus, string> = {
  "not-started": "Not started",
  "in-progress": "In progress",
  completed: "Completed",
};

const STATUS_ICONS = { "not-started": Circle, "in-progress": CircleDashed, completed: CircleCheck };

function PracticeBlock({
  title,
  description,
  status,
  children,
}: {
  title: string;
  description: string;
  status: TaskStatus;
  children: ReactNode;
}) {
  const headingId = useId();
  const Icon = STATUS_ICONS[status];
  return (
    <section aria-labelledby={headingId} className="space-y-4 rounded-xl border bg-card p-4 shadow-sm sm:p-6">
      <header className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 flex-1 basis-48 space-y-1">
          <h2 id={headingId} className="text-2xl font-semibold tracking-tight">
            {title}
          </h2>
          <p className="text-muted-foreground">{description}</p>
        </div>
        <p
          className={
            status === "completed"
              ? "inline-flex items-center gap-1.5 font-medium text-primary"
              : "inline-flex items-center gap-1.5 font-medium text-muted-foreground"
          }
        >
          <Icon aria-hidden className="size-5" />
          <span className="sr-only">Status: </span>
          {STATUS_LABELS[status]}
        </p>
      </header>
      {children}
    </section>
  );
}

/**
 * The spec's page for a live session not written yet: its button records the day's live-session
 * task (for a signed-in learner) and goes on to the next day; the last day leads back to My Journey.
 */
function LiveSessionUnderConstruction({ open }: { open: OpenDay }) {
  const { chapter, day, learner } = open;
  const save = useSaveTask();
  const navigate = useNavigate();
  const next = dayAfter(COURSE, chapter.id, day.id);

  if (!next) {
    return (
      <UnderConstruction>
        <Button asChild>
          <Link to={paths.progress}>Back to My Journey</Link>
        </Button>
      </UnderConstruction>
    );
  }

  const goOn = () => navigate(coursePaths.day(next.chapter.id, next.day.id));
  const completeSession = () => {
    if (!learner.signedIn) {
      signInToSaveToast();
      return;
    }
    const hasTask = day.tasks.some((task) => task.id === LIVE_SESSION_TASK_ID);
    if (!hasTask || taskStatus(learner.progress, chapter.id, day.id, LIVE_SESSION_TASK_ID) === "completed") {
      goOn();
      return;
    }
    save.mutate(
      { chapterId: chapter.id, dayId: day.id, taskId: LIVE_SESSION_TASK_ID, status: "completed" },
      { onSuccess: goOn },
    );
  };

  return (
    <UnderConstruction>
      <p>Had your session with your tutor? Complete it to go on to Day {next.day.number}.</p>
      <Button onClick={completeSession} disabled={save.isPending} aria-busy={save.isPending || undefined}>
        Complete Live Session
      </Button>
    </UnderConstruction>
  );
}
