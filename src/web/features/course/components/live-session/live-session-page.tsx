import { Circle, CircleCheck, CircleDashed } from "lucide-react";
import { lazy, type ReactNode, Suspense, useId, useState } from "react";
import { Link } from "react-router";
import type { RolePlay } from "#course/course";
import { taskStatus } from "#course/progress-rules";
import type { TaskStatus } from "#course/progress-status";
import { Page } from "#web/components/page";
import { Button } from "#web/components/ui/button";
import { paths } from "#web/config/paths";
import { Breadcrumbs } from "#web/features/course/components/breadcrumbs";
import { dayCrumbs, dayPageTitle, type OpenDay } from "#web/features/course/components/course-day-frame";
import { SpokenLineList, withAudio } from "#web/features/course/components/story/spoken-line-list";
import { useClipUrl } from "#web/lib/published-clips";
import { useSingleAudio } from "#web/lib/use-single-audio";

/** A role-play done alone loads when the learner starts one: the page's first load stays within its budget. */
const SoloRolePlay = lazy(() => import("#web/features/course/components/speaking/solo-role-play"));
/** What a tutor said of what the learner sent from this day. */
const TutorRatings = lazy(() => import("#web/features/course/components/speaking/tutor-ratings"));

/**
 * A day's live session (/chapter-1/day-1/live-session): the learner's view of the role-plays the
 * tutor runs, with their phrases to listen to beforehand; `session` is booking a tutor for it (the
 * caller composes it), shown first; `tutorControls` is where staff tools go, shown below a
 * separator (the caller decides who sees them).
 */
export function LiveSessionPage({
  open,
  session,
  tutorControls,
}: {
  open: OpenDay;
  session?: ReactNode;
  tutorControls?: ReactNode;
}) {
  const { chapter, day } = open;
  const rolePlays = day.liveSession?.blocks ?? [];
  return (
    <Page title={dayPageTitle(day, "live-session")} intro={day.liveSession?.intro}>
      <Breadcrumbs items={dayCrumbs(chapter, day, "live-session")} />
      <div className="space-y-8">
        {session}
        {open.learner.signedIn && (
          <Suspense fallback={null}>
            <TutorRatings day={{ chapterId: chapter.id, dayId: day.id }} content={day} />
          </Suspense>
        )}
        <RolePlays open={open} rolePlays={rolePlays} />
        <div className="space-y-2 rounded-lg bg-muted p-4">
          <p>Your tutor marks each practice complete during the session; it shows here as Completed once they have.</p>
          <p>
            No tutor yet? Practise without a tutor: do each role-play alone and send it. Once every practice of the day
            is complete, the next day opens. A tutor listens to what you send and rates each line; in a live session
            they also answer you, ask for more and correct you as you speak.
          </p>
        </div>
        {tutorControls && (
          <section aria-label="Tutor controls" className="space-y-4 border-t-2 pt-8">
            {tutorControls}
          </section>
        )}
        <Button asChild variant="outline">
          <Link to={paths.progress}>Back to My Journey</Link>
        </Button>
      </div>
    </Page>
  );
}

function RolePlays({ open, rolePlays }: { open: OpenDay; rolePlays: readonly RolePlay[] }) {
  const { chapter, day, learner } = open;
  const audio = useSingleAudio();
  const clipUrl = useClipUrl();
  return (
    <div className="space-y-6">
      {rolePlays.map((rolePlay) => (
        <PracticeBlock
          key={rolePlay.task.id}
          title={rolePlay.title}
          description={rolePlay.description}
          status={taskStatus(learner.progress, chapter.id, day.id, rolePlay.task.id)}
        >
          <SpokenLineList
            lines={withAudio(clipUrl, chapter.id, day.id, rolePlay.phrases)}
            playing={audio.playing}
            onToggle={audio.toggle}
          />
          {learner.signedIn && <PractiseAlone day={{ chapterId: chapter.id, dayId: day.id }} rolePlay={rolePlay} />}
        </PracticeBlock>
      ))}
    </div>
  );
}

/** "Practise without a tutor": the role-play done alone, loaded when the learner starts it. */
function PractiseAlone({ day, rolePlay }: { day: { chapterId: string; dayId: string }; rolePlay: RolePlay }) {
  const [started, setStarted] = useState(false);
  if (!started) {
    return (
      <Button type="button" variant="outline" onClick={() => setStarted(true)}>
        Practise without a tutor
      </Button>
    );
  }
  return (
    <Suspense fallback={<p className="text-muted-foreground">Loading the role-play…</p>}>
      <SoloRolePlay day={day} rolePlay={rolePlay} />
    </Suspense>
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
