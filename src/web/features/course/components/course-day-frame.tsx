import { Lock } from "lucide-react";
import { type ReactNode, useDeferredValue, useId } from "react";
import { Link, useParams } from "react-router";
import { taskStatus } from "#course/progress-rules";
import { NotFound } from "#web/components/not-found";
import { Page } from "#web/components/page";
import { Button } from "#web/components/ui/button";
import { coursePaths, paths } from "#web/config/paths";
import { type CourseDayState, useCourseDay } from "#web/features/course/use-course-day";
import type { ChapterSummary, DaySummary } from "#web/lib/course-outline";
import { usePublishedClipsRefresh } from "#web/lib/published-clips";
import { Breadcrumbs, type Crumb } from "./breadcrumbs";
import { DayComplete } from "./day-complete";

export type DayPart = "story" | "codebook" | "live-session";

const PART_LABELS: Record<DayPart, string | null> = {
  story: null,
  codebook: "Codebook",
  "live-session": "Live Session",
};

/** Title of a day page: "Day 1", "Day 1 Codebook", "Day 1 Live Session". */
export function dayPageTitle(day: DaySummary, part: DayPart) {
  const label = PART_LABELS[part];
  return label ? `Day ${day.number} ${label}` : `Day ${day.number}`;
}

/** My Journey › Chapter 1 › Day 1 › Codebook: the last crumb is the page itself. */
export function dayCrumbs(chapter: ChapterSummary, day: DaySummary, part: DayPart): Crumb[] {
  const label = PART_LABELS[part];
  return [
    { label: "My Journey", to: paths.progress },
    { label: `Chapter ${chapter.number}`, to: coursePaths.chapter(chapter.id) },
    { label: `Day ${day.number}`, to: label ? coursePaths.day(chapter.id, day.id) : undefined },
    ...(label ? [{ label }] : []),
  ];
}

export type OpenDay = Extract<CourseDayState, { kind: "open" }>;

/**
 * Every page of a day goes through here: an unknown day is "not found", a day the viewer may not
 * open says why and links to the day to do first, and an open day renders `children`. With
 * `asVisitorWhilePending` (the story page, which the build prerenders for visitors), a day open to
 * visitors renders at once as a visitor sees it, its actions disabled until the session is read.
 */
export function CourseDayFrame({
  part,
  asVisitorWhilePending = false,
  children,
}: {
  part: DayPart;
  asVisitorWhilePending?: boolean;
  children: (open: OpenDay) => ReactNode;
}) {
  // A day's page is large: when the session or the progress arrives it is drawn again in short
  // slices, as a deferred value, not in one long task that blocks the page.
  const state = useDeferredValue(useCourseDay({ asVisitorWhilePending }));
  // Every part of a day plays its lines: the native clips published for them are read with the page,
  // and again on the next day's page (the frame stays on screen from one day to the next).
  const { chapterId, dayId } = useParams();
  usePublishedClipsRefresh(`${chapterId}/${dayId}/${part}`);
  if (state.kind === "not-found") return <NotFound />;
  const { chapter, day } = state;
  // A review day is its story alone: it has no Codebook or live session to show.
  if ((part === "codebook" && !day.codebook) || (part === "live-session" && !day.liveSession)) return <NotFound />;
  const title = dayPageTitle(day, part);
  if (state.kind === "loading") {
    return (
      <Page title={title}>
        <p role="status" className="text-muted-foreground">
          Loading…
        </p>
      </Page>
    );
  }
  if (state.kind === "locked") {
    return (
      <Page title={title} heading={<LockedHeading title={title} />}>
        <Breadcrumbs items={dayCrumbs(chapter, day, part)} />
        <LockedDayMessage state={state} />
      </Page>
    );
  }
  return (
    <>
      {children(state)}
      <DayComplete open={state} />
    </>
  );
}

function LockedHeading({ title }: { title: string }) {
  return (
    <span className="flex items-center gap-3">
      <Lock aria-hidden className="size-7 text-muted-foreground" />
      {title} is locked
    </span>
  );
}

type LockedState = Extract<CourseDayState, { kind: "locked" }>;
type Blocker = NonNullable<LockedState["blockedBy"]>;

/** The pages of a day its tasks are done on, by the part of the day a task id names (content-schema-blocks.ts). */
const TASK_PAGES = [
  { parts: ["story", "review"], page: "story", how: "each marked complete on its page" },
  { parts: ["codebook"], page: "codebook", how: "its missions, done on its page" },
  {
    parts: ["live-session"],
    page: "live-session",
    how: "its role-plays, done with a tutor in a booked session or alone on its page",
  },
] as const;

/** The blocking day's tasks still to do, grouped by the page they are done on. */
function tasksLeft({ chapter, day }: Blocker, learner: LockedState["learner"]) {
  const left = day.tasks.filter((task) => taskStatus(learner.progress, chapter.id, day.id, task.id) !== "completed");
  return TASK_PAGES.map((group) => ({
    ...group,
    tasks: left.filter((task) => (group.parts as readonly string[]).includes(task.id.split(":")[0]!)),
  })).filter((group) => group.tasks.length > 0);
}

function pagePath({ chapter, day }: Blocker, page: DayPart) {
  if (page === "codebook") return coursePaths.codebook(chapter.id, day.id);
  if (page === "live-session") return coursePaths.liveSession(chapter.id, day.id);
  return coursePaths.day(chapter.id, day.id);
}

function LockedDayMessage({ state }: { state: LockedState }) {
  const { day, blockedBy, learner } = state;
  const headingId = useId();
  if (blockedBy) {
    const groups = tasksLeft(blockedBy, learner);
    return (
      <div className="space-y-4">
        <p className="text-lg">
          Day {day.number} opens once every task of the days before it is complete. Finish Day {blockedBy.day.number}{" "}
          first.
        </p>
        {groups.length > 0 && (
          <div className="space-y-2">
            <h2 id={headingId} className="font-semibold">
              Left to do on Day {blockedBy.day.number}
            </h2>
            <ul aria-labelledby={headingId} className="list-disc space-y-2 pl-5">
              {groups.map((group) => (
                <li key={group.page}>
                  <Link
                    to={pagePath(blockedBy, group.page)}
                    className="font-medium text-primary underline-offset-4 hover:underline"
                  >
                    {dayPageTitle(blockedBy.day, group.page)}
                  </Link>
                  : {group.tasks.map((task) => task.label).join(", ")} ({group.how})
                </li>
              ))}
            </ul>
          </div>
        )}
        <Button asChild>
          <Link to={coursePaths.day(blockedBy.chapter.id, blockedBy.day.id)}>Go to Day {blockedBy.day.number}</Link>
        </Button>
      </div>
    );
  }
  // Otherwise the day is for signed-in learners only (chapter 2).
  return (
    <div className="space-y-4">
      <p className="text-lg">Sign in to open Day {day.number} and save your progress.</p>
      <Button asChild>
        <Link to={paths.login}>Sign in</Link>
      </Button>
    </div>
  );
}
