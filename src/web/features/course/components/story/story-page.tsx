import { ArrowRight, BookOpen, Users } from "lucide-react";
import { lazy, memo, type ReactNode, Suspense, useId, useState } from "react";
import { Link, useNavigate } from "react-router";
import type { PracticeSet, Story, StoryBlock } from "#course/course";
import { courseAudioPath, sectionLines, storySections } from "#course/course";
import { isDayFinished, taskStatus } from "#course/progress-rules";
import { Page } from "#web/components/page";
import { Button } from "#web/components/ui/button";
import { coursePaths, paths } from "#web/config/paths";
import { Breadcrumbs } from "#web/features/course/components/breadcrumbs";
import { dayCrumbs, dayPageTitle, type OpenDay } from "#web/features/course/components/course-day-frame";
import { CultureNoteCard } from "#web/features/course/components/culture-note-card";
import { DayVoices } from "#web/features/course/components/day-voices";
import { DayFeedbackCard } from "#web/features/course/components/feedback/day-feedback";
import { OnToNextChapter } from "#web/features/course/components/on-to-next-chapter";
import { PracticeMission } from "#web/features/course/components/practice-mission";
import { useStartDay } from "#web/features/course/use-course-day";
import { OUTLINE } from "#web/lib/course-data";
import type { ChapterSummary } from "#web/lib/course-outline";
import { useClipUrl } from "#web/lib/published-clips";
import { toast } from "#web/lib/toast";
import { CompleteTaskButton } from "./complete-task-button";
import { type StoryPlayer, StoryPlayerControls, useStoryPlayer } from "./story-player";
import { StorySectionView } from "./story-section";

/** The story again with Alex's lines left to the learner: loaded when they start it. */
const YourTurn = lazy(() => import("#web/features/course/components/speaking/your-turn"));
/** Whose lines the learner says in "Your turn" (your-turn.tsx, LEARNER_SPEAKER). */
const LEARNER = "Alex";

/**
 * What a signed-in learner warms up on before a review day's quiz: the route gives it (the review's
 * hardest phrases), so the page knows nothing of the review.
 */
export type RenderQuizWarmUp = (chapter: ChapterSummary) => ReactNode;

/**
 * A day's first page (/chapter-1/day-1): its story's blocks in order (sections with their
 * completion buttons, culture notes, a review day's quiz with its warm-up). Opening it signed in
 * with nothing recorded for the day marks the day as started.
 * Memoized: it draws again only when the day or the learner changes.
 */
export const StoryPage = memo(function StoryPage({
  open,
  renderQuizWarmUp,
}: {
  open: OpenDay;
  renderQuizWarmUp?: RenderQuizWarmUp;
}) {
  useStartDay(open);
  const { chapter, day } = open;
  return (
    <Page
      title={dayPageTitle(day, "story")}
      heading={`Day ${day.number}: ${day.subtopic}`}
      intro={
        <>
          <span className="block">{day.goal}</span>
          <DayVoices chapterId={chapter.id} day={day} />
        </>
      }
      busy={open.learner.provisional}
    >
      <Breadcrumbs items={dayCrumbs(chapter, day, "story")} />
      <DayFeedbackCard chapterId={chapter.id} dayId={day.id} />
      {day.story && <StoryBlocks open={open} story={day.story} renderQuizWarmUp={renderQuizWarmUp} />}
    </Page>
  );
});

function StoryBlocks({
  open,
  story,
  renderQuizWarmUp,
}: {
  open: OpenDay;
  story: Story;
  renderQuizWarmUp?: RenderQuizWarmUp;
}) {
  const player = useStoryPlayer({ englishByDefault: englishShownByDefault(open) });
  const hasSections = storySections({ story }).length > 0;
  return (
    // Where index.css hides the English before the first paint, when the learner chose to hide it.
    <div className="space-y-8" data-story-lines>
      {hasSections && <StoryPlayerControls player={player} />}
      {story.blocks.map((block) => (
        <StoryBlockView
          key={blockKey(block)}
          open={open}
          story={story}
          block={block}
          player={player}
          renderQuizWarmUp={renderQuizWarmUp}
        />
      ))}
      <YourTurnInTheStory open={open} story={story} />
      {story.next === "codebook" && <ContinueToCodebook open={open} story={story} />}
      {story.next === "journey" && <MoreOfTheDay open={open} />}
      {story.next === "next-chapter" && <OnToNextChapter open={open} />}
    </div>
  );
}

/**
 * The English is shown on Day 1, and on any day to whoever has not finished Day 1 yet (a visitor,
 * staff looking ahead); once Day 1 is done the story is read in Malay first, the English a switch away.
 */
function englishShownByDefault({ chapter, day, learner }: OpenDay): boolean {
  const [firstDay] = OUTLINE;
  if (!firstDay || (firstDay.chapterId === chapter.id && firstDay.dayId === day.id)) return true;
  return !isDayFinished(learner.progress, firstDay, learner.completedDays);
}

/** After the story, when Alex speaks in it: the dialogue again with his lines left to the learner. */
function YourTurnInTheStory({ open, story }: { open: OpenDay; story: Story }) {
  const [started, setStarted] = useState(false);
  const { chapter, day, learner } = open;
  const clipUrl = useClipUrl();
  const lines = storySections({ story })
    .flatMap((section) => sectionLines(section))
    .map((line) => ({ ...line, audio: clipUrl(courseAudioPath(chapter.id, day.id, line.id)) }));
  if (!lines.some((line) => line.speaker === LEARNER)) return null;
  if (!started) {
    return (
      <Button type="button" variant="outline" onClick={() => setStarted(true)}>
        Your turn: be {LEARNER}
      </Button>
    );
  }
  return (
    <Suspense fallback={<p className="text-muted-foreground">Loading…</p>}>
      <YourTurn day={{ chapterId: chapter.id, dayId: day.id }} lines={lines} signedIn={learner.signedIn} />
    </Suspense>
  );
}

const blockKey = (block: StoryBlock) =>
  block.type === "section" ? block.id : `${block.type}:${"task" in block ? block.task?.id : block.title}`;

function StoryBlockView({
  open,
  story,
  block,
  player,
  renderQuizWarmUp,
}: {
  open: OpenDay;
  story: Story;
  block: StoryBlock;
  player: StoryPlayer;
  renderQuizWarmUp?: RenderQuizWarmUp;
}) {
  const navigate = useNavigate();
  const { chapter, day } = open;
  switch (block.type) {
    case "section":
      return (
        <StorySectionView
          chapter={chapter}
          day={day}
          section={block}
          playing={player.playing}
          onToggle={player.toggle}
          showEnglish={player.showEnglish}
          action={
            block.task && (
              <CompleteTaskButton
                open={open}
                taskId={block.task.id}
                label={block.completeLabel ?? "Mark as Complete"}
                onCompleted={
                  story.next === "codebook"
                    ? () => toast({ title: "Section Completed!", description: "Great job, you're making progress!" })
                    : () => navigate(paths.progress)
                }
              />
            )
          }
        />
      );
    case "culture-note":
      return <CultureNoteCard note={block} />;
    case "practice":
      return (
        <>
          {isReviewQuiz(block) && open.learner.signedIn && renderQuizWarmUp?.(chapter)}
          <PracticeSection title={block.title} description={block.description}>
            <PracticeMission open={open} practice={block} />
          </PracticeSection>
        </>
      );
  }
}

/**
 * A review day's quiz: task ids name the part of the day they belong to (content-schema.ts), and
 * the quiz is the day's "review" part. A signed-in learner warms up on their hardest phrases first.
 */
const isReviewQuiz = (block: PracticeSet) => block.task.id.startsWith("review:");

/** A practice set in the flow of a story page (a review day's quiz): its heading, what to do, the set. */
function PracticeSection({
  title,
  description,
  children,
}: {
  title: string;
  description: string;
  children: ReactNode;
}) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="space-y-5 rounded-xl border bg-card p-4 shadow-sm sm:p-6">
      <header className="space-y-1">
        <h2 id={headingId} className="text-2xl font-semibold tracking-tight">
          {title}
        </h2>
        <p className="text-muted-foreground">{description}</p>
      </header>
      <div className="min-h-80">{children}</div>
    </section>
  );
}

const HINT_ID = "continue-to-codebook-hint";

/** A story in sections that leads on to the Codebook (day 1): Continue to Codebook opens once every section is complete. */
function ContinueToCodebook({ open, story }: { open: OpenDay; story: Story }) {
  const { chapter, day, learner } = open;
  const allComplete = storySections({ story }).every(
    (section) => !section.task || taskStatus(learner.progress, chapter.id, day.id, section.task.id) === "completed",
  );
  return (
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
  );
}

/**
 * A story that returns to My Journey once done (days 2-4) links on to the day's Codebook and live
 * session; a day that is its story alone (the course's last review day) links back to My Journey.
 */
function MoreOfTheDay({ open }: { open: OpenDay }): ReactNode {
  const { chapter, day } = open;
  if (!day.codebook && !day.liveSession) {
    return (
      <div>
        <Button asChild variant="outline">
          <Link to={paths.progress}>Back to My Journey</Link>
        </Button>
      </div>
    );
  }
  return (
    <nav aria-label={`More of Day ${day.number}`} className="flex flex-wrap gap-3">
      {day.codebook && (
        <Button asChild variant="outline">
          <Link to={coursePaths.codebook(chapter.id, day.id)}>
            <BookOpen aria-hidden />
            Day {day.number} Codebook
          </Link>
        </Button>
      )}
      {day.liveSession && (
        <Button asChild variant="outline">
          <Link to={coursePaths.liveSession(chapter.id, day.id)}>
            <Users aria-hidden />
            Day {day.number} Live Session
          </Link>
        </Button>
      )}
    </nav>
  );
}
