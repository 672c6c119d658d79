import { ArrowRight } from "lucide-react";
import { Link, useNavigate } from "react-router";
import { dayAfter, type Placeholder } from "../../../../course/course";
import { taskStatus } from "../../../../course/progress-rules";
import { Button } from "../../../components/ui/button";
import { coursePaths, paths } from "../../../config/paths";
import { useSaveTask } from "../api/progress";
import { COURSE } from "../course-data";
import type { OpenDay } from "./course-day-frame";
import { CompleteTaskButton, signInToSaveToast } from "./story/complete-task-button";
import { UnderConstruction } from "./under-construction";

/** A placeholder as the page shows one: the content's, or the default of a page the day does not have yet. */
export type PlaceholderOn = { page: "story" | "codebook" | "liveSession"; block: Placeholder };

/** What a day's page shows where the day has no content for it: the spec's under-construction pages. */
export function defaultPlaceholder(page: PlaceholderOn["page"]): Placeholder {
  const next = { story: "codebook", codebook: "live-session", liveSession: "next-day" } as const;
  return { type: "placeholder", next: next[page] };
}

/**
 * A part of a day not written yet (the spec's under-construction pages): the content's text, the
 * task it records if it has one (Mark as Complete; on a live session, Complete Live Session, which
 * also goes on to the next day), and a link to where it leads.
 */
export function PlaceholderBlock({ open, page, block }: { open: OpenDay } & PlaceholderOn) {
  const { day } = open;
  const title = block.title ?? (page === "story" ? `Day ${day.number} story` : undefined);
  return (
    <UnderConstruction title={title}>
      {block.text && <p>{block.text}</p>}
      {page === "liveSession" && block.next !== "journey" ? (
        <CompleteLiveSession open={open} taskId={block.task?.id} />
      ) : (
        <div className="flex flex-wrap gap-3">
          {block.task && <CompleteTaskButton open={open} taskId={block.task.id} label="Mark as Complete" />}
          <PlaceholderLink open={open} next={block.next} secondary={Boolean(block.task)} />
        </div>
      )}
    </UnderConstruction>
  );
}

function PlaceholderLink({ open, next, secondary }: { open: OpenDay; next: Placeholder["next"]; secondary: boolean }) {
  const { chapter, day } = open;
  const after = dayAfter(COURSE, chapter.id, day.id);
  const link = (() => {
    switch (next) {
      case "codebook":
        return { to: coursePaths.codebook(chapter.id, day.id), label: `Go to Day ${day.number} Codebook` };
      case "live-session":
        return { to: coursePaths.liveSession(chapter.id, day.id), label: "Go to the Live Session" };
      case "next-day":
        return after && { to: coursePaths.day(after.chapter.id, after.day.id), label: `Go to Day ${after.day.number}` };
      case "next-chapter":
        return after && { to: coursePaths.chapter(after.chapter.id), label: `Go to Chapter ${after.chapter.number}` };
      case "journey":
        return undefined;
    }
  })();
  if (!link) {
    return (
      <Button asChild>
        <Link to={paths.progress}>Back to My Journey</Link>
      </Button>
    );
  }
  return (
    <Button asChild variant={secondary ? "outline" : "default"}>
      <Link to={link.to}>
        {link.label}
        <ArrowRight aria-hidden />
      </Link>
    </Button>
  );
}

/**
 * The spec's live session not written yet: its button records the session's task (for a signed-in
 * learner) and goes on to the next day.
 */
function CompleteLiveSession({ open, taskId }: { open: OpenDay; taskId: string | undefined }) {
  const { chapter, day, learner } = open;
  const save = useSaveTask();
  const navigate = useNavigate();
  const next = dayAfter(COURSE, chapter.id, day.id);
  if (!next) return <PlaceholderLink open={open} next="journey" secondary={false} />;

  const goOn = () => navigate(coursePaths.day(next.chapter.id, next.day.id));
  const completeSession = () => {
    if (!learner.signedIn) {
      signInToSaveToast();
      return;
    }
    if (!taskId || taskStatus(learner.progress, chapter.id, day.id, taskId) === "completed") {
      goOn();
      return;
    }
    save.mutate({ chapterId: chapter.id, dayId: day.id, taskId, status: "completed" }, { onSuccess: goOn });
  };
  return (
    <>
      <p>Had your session with your tutor? Complete it to go on to Day {next.day.number}.</p>
      <Button onClick={completeSession} disabled={save.isPending} aria-busy={save.isPending || undefined}>
        Complete Live Session
      </Button>
    </>
  );
}
