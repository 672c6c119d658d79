import { useCallback, useRef } from "react";
import { Link, useNavigate } from "react-router";
import type { Codebook } from "../../../../../course/course";
import { VOCABULARY_TASK_ID } from "../../../../../course/progress-rules";
import { Page } from "../../../../components/page";
import { Button } from "../../../../components/ui/button";
import { coursePaths } from "../../../../config/paths";
import { toast } from "../../../../lib/toast";
import { courseAudioUrl } from "../../course-data";
import { useSingleAudio } from "../../use-single-audio";
import { Breadcrumbs } from "../breadcrumbs";
import { dayCrumbs, dayPageTitle, type OpenDay } from "../course-day-frame";
import { UnderConstruction } from "../under-construction";
import { CultureNotesVideo } from "./culture-notes-video";
import { FlipCardDeck } from "./flip-card-deck";
import { ListenAndShadow } from "./listen-and-shadow";
import { MissionCard } from "./mission-card";
import { useCodebookTasks } from "./use-codebook-tasks";

/**
 * A day's Codebook (/chapter-1/day-1/codebook): the three missions when the day has them; the
 * day's words as flip cards when it has only vocabulary to review (docs/decisions/013); otherwise
 * the spec's under-construction page leading on to the live session.
 */
export function CodebookPage({ open }: { open: OpenDay }) {
  const { chapter, day } = open;
  const hasVocabularyTask = day.tasks.some((task) => task.id === VOCABULARY_TASK_ID);
  return (
    <Page title={dayPageTitle(day, "codebook")}>
      <Breadcrumbs items={dayCrumbs(chapter, day, "codebook")} />
      {day.codebook ? (
        <CodebookMissions open={open} codebook={day.codebook} />
      ) : day.vocabulary.length > 0 && hasVocabularyTask ? (
        <VocabularyReview open={open} />
      ) : (
        <UnderConstruction>
          <LiveSessionLink open={open} />
        </UnderConstruction>
      )}
    </Page>
  );
}

function LiveSessionLink({ open }: { open: OpenDay }) {
  return (
    <Button asChild>
      <Link to={coursePaths.liveSession(open.chapter.id, open.day.id)}>Go to the Live Session</Link>
    </Button>
  );
}

/**
 * One clip at a time across the page: the cards' audio buttons and the page's own players (the
 * dialogue recording, the video) stop one another.
 */
function usePageAudio() {
  const clips = useSingleAudio();
  const playersRef = useRef<HTMLDivElement>(null);
  const toggleClip = useCallback(
    (src: string) => {
      for (const player of playersRef.current?.querySelectorAll("audio, video") ?? []) {
        (player as HTMLMediaElement).pause();
      }
      clips.toggle(src);
    },
    [clips.toggle],
  );
  return { playersRef, playing: clips.playing, toggleClip, stopClips: clips.stop };
}

function CodebookMissions({ open, codebook }: { open: OpenDay; codebook: Codebook }) {
  const { chapter, day } = open;
  const { listen, notes, cards } = codebook;
  const tasks = useCodebookTasks(open);
  const audio = usePageAudio();
  const navigate = useNavigate();
  const section = day.story?.sections.find((candidate) => candidate.id === listen.sectionId);
  const listened = tasks.isCompleted(listen.taskId);
  const watched = tasks.isCompleted(notes.taskId);
  const flippedAll = tasks.isCompleted(cards.taskId);

  const proceed = () => {
    if (listened && watched && flippedAll) {
      navigate(coursePaths.liveSession(chapter.id, day.id));
      return;
    }
    toast({
      title: "Not so fast!",
      description: `You haven't completed all tasks in the Day ${day.number} Codebook.`,
      variant: "destructive",
    });
  };

  return (
    <div ref={audio.playersRef} className="space-y-8">
      <ol aria-label="Missions" className="space-y-6">
        <MissionCard number={1} title={listen.title} description={listen.description} completed={listened}>
          {section && (
            <ListenAndShadow
              src={courseAudioUrl(chapter.id, day.id, section.id)}
              lineAudio={section.lines.map((line) => courseAudioUrl(chapter.id, day.id, line.id))}
              section={section}
              onPlay={audio.stopClips}
              onEnded={() => tasks.complete(listen.taskId)}
            />
          )}
        </MissionCard>
        <MissionCard
          number={2}
          title={notes.title}
          description={notes.description}
          completed={watched}
          locked={!listened}
        >
          <CultureNotesVideo
            video={notes.video}
            locked={!listened}
            onPlay={audio.stopClips}
            onEnded={() => tasks.complete(notes.taskId)}
          />
        </MissionCard>
        <MissionCard
          number={3}
          title={cards.title}
          description={cards.description}
          completed={flippedAll}
          locked={!watched}
        >
          <FlipCardDeck
            items={cards.items.map((card) => ({ ...card, audio: courseAudioUrl(chapter.id, day.id, card.id) }))}
            completed={flippedAll}
            lockedHint={watched ? undefined : "Watch the notes to unlock the cards."}
            onAllFlipped={() => tasks.complete(cards.taskId)}
            playing={audio.playing}
            onToggleAudio={audio.toggleClip}
          />
        </MissionCard>
      </ol>
      <Button size="lg" onClick={proceed}>
        Proceed to Tutor Hour
      </Button>
    </div>
  );
}

/** Days whose Codebook is not written yet still let the learner review, and so learn, the day's words. */
function VocabularyReview({ open }: { open: OpenDay }) {
  const { chapter, day } = open;
  const tasks = useCodebookTasks(open);
  const audio = usePageAudio();
  const reviewed = tasks.isCompleted(VOCABULARY_TASK_ID);
  return (
    <div className="space-y-8">
      <UnderConstruction>
        <p>
          The full Codebook for Day {day.number} is on its way. Until then, flip every card below to learn the day's
          words, then go to your live session.
        </p>
        <LiveSessionLink open={open} />
      </UnderConstruction>
      <ol aria-label="Missions" className="space-y-6">
        <MissionCard
          number={1}
          title="Vocabulary Cards"
          description="Flip each card to see the Malay and hear it said."
          completed={reviewed}
        >
          <FlipCardDeck
            items={day.vocabulary.map((entry) => ({
              id: entry.id,
              front: entry.english,
              back: entry.malay,
              audio: courseAudioUrl(chapter.id, day.id, entry.id),
            }))}
            completed={reviewed}
            onAllFlipped={() => tasks.complete(VOCABULARY_TASK_ID)}
            playing={audio.playing}
            onToggleAudio={audio.toggleClip}
          />
        </MissionCard>
      </ol>
    </div>
  );
}
