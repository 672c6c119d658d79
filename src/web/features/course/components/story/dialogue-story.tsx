import { BookOpen, Users } from "lucide-react";
import { Link, useNavigate } from "react-router";
import type { Story } from "../../../../../course/course";
import { Button } from "../../../../components/ui/button";
import { coursePaths, paths } from "../../../../config/paths";
import type { OpenDay } from "../course-day-frame";
import { CompleteTaskButton } from "./complete-task-button";
import { StoryPlayerControls, useStoryPlayer } from "./story-player";
import { StorySectionView } from "./story-section";

/**
 * A short story dialogue that returns to My Journey once done (days 2-4): its completion button
 * records the section's task and goes to /progress. The day's Codebook and live session follow.
 */
export function DialogueStory({ open, story }: { open: OpenDay; story: Story }) {
  const player = useStoryPlayer();
  const navigate = useNavigate();
  const { chapter, day } = open;
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
              onCompleted={() => navigate(paths.progress)}
            />
          }
        />
      ))}
      <nav aria-label={`More of Day ${day.number}`} className="flex flex-wrap gap-3">
        <Button asChild variant="outline">
          <Link to={coursePaths.codebook(chapter.id, day.id)}>
            <BookOpen aria-hidden />
            Day {day.number} Codebook
          </Link>
        </Button>
        <Button asChild variant="outline">
          <Link to={coursePaths.liveSession(chapter.id, day.id)}>
            <Users aria-hidden />
            Day {day.number} Live Session
          </Link>
        </Button>
      </nav>
    </div>
  );
}
