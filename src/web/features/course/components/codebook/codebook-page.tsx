import { Mic } from "lucide-react";
import { lazy, Suspense, useState } from "react";
import { useNavigate } from "react-router";
import { courseAudioPath, type Mission, sectionLines, storySections } from "#course/course";
import { Page } from "#web/components/page";
import { Button } from "#web/components/ui/button";
import { coursePaths } from "#web/config/paths";
import { Breadcrumbs } from "#web/features/course/components/breadcrumbs";
import { dayCrumbs, dayPageTitle, type OpenDay } from "#web/features/course/components/course-day-frame";
import { DayVoices } from "#web/features/course/components/day-voices";
import { OnToNextChapter } from "#web/features/course/components/on-to-next-chapter";
import { PracticeMission } from "#web/features/course/components/practice-mission";
import { useClipUrl } from "#web/lib/published-clips";
import { toast } from "#web/lib/toast";
import { useSingleAudio } from "#web/lib/use-single-audio";
import { CultureNotesVideo } from "./culture-notes-video";
import { FlipCardDeck } from "./flip-card-deck";
import { ListenAndShadow } from "./listen-and-shadow";
import { MissionCard } from "./mission-card";
import { useCodebookTasks } from "./use-codebook-tasks";

/** Recording each phrase loads when the learner asks for it, as the dialogue's line practice does. */
const LinePracticePanel = lazy(() => import("#web/features/course/components/speaking/line-practice"));

/** The day's phrases to say aloud and record, beside their cards, opened on request. */
function SayThePhrases(props: {
  day: { chapterId: string; dayId: string };
  signedIn: boolean;
  lines: { id: string; malay: string; english: string; audio: string }[];
}) {
  const [open, setOpen] = useState(false);
  if (!open) {
    return (
      <Button type="button" variant="outline" onClick={() => setOpen(true)}>
        <Mic aria-hidden />
        Say each phrase yourself
      </Button>
    );
  }
  return (
    <Suspense fallback={<p className="text-muted-foreground">Loading the recorder…</p>}>
      <LinePracticePanel {...props} title="Say each phrase" />
    </Suspense>
  );
}

/**
 * A day's Codebook (/chapter-1/day-1/codebook): its missions in order, each locked until the one
 * before it is done (listen and shadow, the notes video, the day's phrases as cards, practice), and
 * Proceed to Tutor Hour once all are. A review day's Codebook holds only its own new words as cards,
 * and leads on to the next chapter instead, as its story would; a day without a Codebook has no such
 * page.
 */
export function CodebookPage({ open }: { open: OpenDay }) {
  const { chapter, day } = open;
  return (
    <Page
      title={dayPageTitle(day, "codebook")}
      intro={<DayVoices chapterId={chapter.id} day={day} />}
      busy={open.learner.provisional}
    >
      <Breadcrumbs items={dayCrumbs(chapter, day, "codebook")} />
      <CodebookMissions open={open} missions={day.codebook?.blocks ?? []} />
    </Page>
  );
}

/** What finishing a mission is called, to say what unlocks the next one. */
const FINISH: Record<Mission["type"], (mission: Mission) => string> = {
  "listen-shadow": (mission) => `Finish ${mission.title}`,
  video: () => "Watch the notes",
  "vocabulary-cards": () => "Check every card",
  practice: () => "Answer every practice item",
};

/** What a locked mission is called in its hint. */
const UNLOCKS: Record<Mission["type"], string> = {
  "listen-shadow": "the listening",
  video: "the notes",
  "vocabulary-cards": "the cards",
  practice: "the practice",
};

function CodebookMissions({ open, missions }: { open: OpenDay; missions: readonly Mission[] }) {
  const { chapter, day } = open;
  const tasks = useCodebookTasks(open);
  const audio = useSingleAudio();
  const navigate = useNavigate();
  const allDone = missions.every((mission) => tasks.isCompleted(mission.task.id));

  const proceedToTutorHour = () => {
    if (allDone) {
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
    // Until the session is read the page shows what a visitor sees: nothing in it may act yet (a
    // mission ended or Proceed pressed now would be judged as a visitor's).
    <div className="space-y-8" inert={open.learner.provisional || undefined}>
      <ol aria-label="Missions" className="space-y-6">
        {missions.map((mission, index) => {
          const previous = missions[index - 1];
          const lockedHint =
            previous && !tasks.isCompleted(previous.task.id)
              ? `${FINISH[previous.type](previous)} to unlock ${UNLOCKS[mission.type]}.`
              : undefined;
          return (
            <MissionCard
              key={mission.task.id}
              number={index + 1}
              title={mission.title}
              description={mission.description}
              completed={tasks.isCompleted(mission.task.id)}
              locked={Boolean(lockedHint)}
            >
              <MissionBody open={open} mission={mission} lockedHint={lockedHint} tasks={tasks} audio={audio} />
            </MissionCard>
          );
        })}
      </ol>
      {day.liveSession ? (
        <Button size="lg" onClick={proceedToTutorHour} disabled={open.learner.provisional}>
          Proceed to Tutor Hour
        </Button>
      ) : (
        <OnToNextChapter open={open} size="lg" />
      )}
    </div>
  );
}

function MissionBody({
  open,
  mission,
  lockedHint,
  tasks,
  audio,
}: {
  open: OpenDay;
  mission: Mission;
  lockedHint: string | undefined;
  tasks: ReturnType<typeof useCodebookTasks>;
  audio: ReturnType<typeof useSingleAudio>;
}) {
  const { chapter, day } = open;
  const clipUrl = useClipUrl();
  const clip = (id: string) => clipUrl(courseAudioPath(chapter.id, day.id, id));
  const completed = tasks.isCompleted(mission.task.id);
  const complete = () => tasks.complete(mission.task.id);
  switch (mission.type) {
    case "listen-shadow": {
      const section = storySections(day).find((candidate) => candidate.id === mission.sectionId);
      if (!section) return null;
      return (
        <ListenAndShadow
          src={clip(section.id)}
          lineAudio={sectionLines(section).map((line) => clip(line.id))}
          section={section}
          lockedHint={lockedHint}
          // A signed-in learner's mission is completed by the server once each line is heard and said.
          onEnded={open.learner.signedIn ? undefined : complete}
          practice={{ chapterId: chapter.id, dayId: day.id, signedIn: open.learner.signedIn }}
        />
      );
    }
    case "video":
      return <CultureNotesVideo video={mission.video} lockedHint={lockedHint} onEnded={complete} />;
    case "vocabulary-cards":
      return (
        <div className="space-y-6">
          <FlipCardDeck
            items={day.vocabulary.map((entry) => ({
              id: entry.id,
              front: entry.english,
              back: entry.malay,
              description: entry.note,
              audio: clip(entry.id),
            }))}
            completed={completed}
            lockedHint={lockedHint}
            onAllFlipped={complete}
            playing={audio.playing}
            onToggleAudio={audio.toggle}
          />
          {!lockedHint && (
            <SayThePhrases
              day={{ chapterId: chapter.id, dayId: day.id }}
              signedIn={open.learner.signedIn}
              lines={day.vocabulary.map((entry) => ({
                id: entry.id,
                malay: entry.malay,
                english: entry.english,
                audio: clip(entry.id),
              }))}
            />
          )}
        </div>
      );
    case "practice":
      // As tall as an item: the page does not shift when the set unlocks or its code arrives.
      return (
        <div className="min-h-80">
          {lockedHint ? (
            <p className="text-muted-foreground">{lockedHint}</p>
          ) : (
            <PracticeMission
              open={open}
              practice={mission}
              completed={completed}
              onCompleted={() => tasks.completedByAnswers(mission.task.id)}
            />
          )}
        </div>
      );
  }
}
