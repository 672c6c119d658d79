import { ArrowRight } from "lucide-react";
import { Link } from "react-router";
import type { Story } from "../../../../../course/course";
import { taskStatus } from "../../../../../course/progress-rules";
import { Button } from "../../../../components/ui/button";
import { coursePaths } from "../../../../config/paths";
import { toast } from "../../../../lib/toast";
import type { OpenDay } from "../course-day-frame";
import { CompleteTaskButton } from "./complete-task-button";
import { StoryPlayerControls, useStoryPlayer } from "./story-player";
import { StorySectionView } from "./story-section";

const HINT_ID = "continue-to-codebook-hint";

/**
 * A story in sections that leads on to the Codebook (day 1): each section is completed on its own,
 * and Continue to Codebook opens once every one is.
 */
export function SectionedStory({ open, story }: { open: OpenDay; story: Story }) {
  const player = useStoryPlayer();
  const { chapter, day, learner } = open;
  const allComplete = story.sections.every(
    (section) => taskStatus(learner.progress, chapter.id, day.id, section.taskId) === "completed",
  );
  return (
    <div className="space-y-8">
      <StoryPlayerControls player={player} />
      {story.sections.map((section) => (
        <StorySectionView
          key={section.id}
          chapter={chapter}
          day={day}
          section={section}
          playing={player.playing}
          onToggle={player.toggle}
          showEnglish={player.showEnglish}
          action={
            <CompleteTaskButton
              open={open}
              taskId={section.taskId}
              label={section.completeLabel}
              onCompleted={() =>
                toast({ title: "Section Completed!", description: "Great job, you're making progress!" })
              }
            />
          }
        />
      ))}
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
        {allComplete ? (
          <Button asChild size="lg">
            <Link to={coursePaths.codebook(chapter.id, day.id)}>
              Continue to Codebook
              <ArrowRight aria-hidden />
            </Link>
          </Button>
        ) : (
          <>
            <Button size="lg" disabled aria-describedby={HINT_ID}>
              Continue to Codebook
              <ArrowRight aria-hidden />
            </Button>
            <p id={HINT_ID} className="text-sm text-muted-foreground">
              You must complete all sections before proceeding.
            </p>
          </>
        )}
      </div>
    </div>
  );
}
