import { useCallback, useEffect, useState } from "react";
import { Label } from "#web/components/ui/label";
import { RadioGroup, RadioGroupItem } from "#web/components/ui/radio-group";
import { Switch } from "#web/components/ui/switch";
import { ENGLISH_STORAGE_KEY, storedEnglishChoice } from "#web/features/course/story-english";
import { usePrerendering } from "#web/lib/prerender";
import { useSingleAudio } from "#web/lib/use-single-audio";

/** The speeds a learner can choose for the story's lines. */
export const STORY_SPEEDS = [1, 0.75, 0.5] as const;
type StorySpeed = (typeof STORY_SPEEDS)[number];

/** The chosen speed is kept for the visit (the browser tab), across every story page. */
const SPEED_STORAGE_KEY = "jalan-story-speed";

function storedSpeed(): StorySpeed {
  try {
    const stored = Number(sessionStorage.getItem(SPEED_STORAGE_KEY));
    return STORY_SPEEDS.find((speed) => speed === stored) ?? 1;
  } catch {
    return 1;
  }
}

/**
 * Whether the learner chose to show the English (true) or hide it (false): kept in this browser, for
 * every day and every later visit, over the page's default. Null while they have not chosen.
 */
/**
 * What a story page's player holds: the line playing (one at a time), the speed lines play at and
 * whether the English is shown: the learner's choice once they have made one, `englishByDefault`
 * until then. Both start as the prerendered page shows them (1x, a visitor's default); what the
 * browser kept is read once the page has hydrated, so the first render matches it.
 */
export function useStoryPlayer({ englishByDefault }: { englishByDefault: boolean }) {
  const [speed, setSpeedState] = useState<StorySpeed>(1);
  const [englishChoice, setEnglishChoice] = useState<boolean | null>(null);
  useEffect(() => {
    setSpeedState(storedSpeed());
    setEnglishChoice(storedEnglishChoice());
  }, []);
  // Until a choice was read, the English drawn was the prerendered page's, hidden before the first
  // paint when the learner chose so (public/theme-init.js); the page now draws it as chosen itself.
  useEffect(() => {
    if (englishChoice !== null) delete document.documentElement.dataset.storyEnglish;
  }, [englishChoice]);
  const setSpeed = useCallback((speed: StorySpeed) => {
    setSpeedState(speed);
    try {
      sessionStorage.setItem(SPEED_STORAGE_KEY, String(speed));
    } catch {
      // Storage may be refused (private mode): the speed then lasts for this page only.
    }
  }, []);
  const setShowEnglish = useCallback((shown: boolean) => {
    setEnglishChoice(shown);
    try {
      localStorage.setItem(ENGLISH_STORAGE_KEY, shown ? "shown" : "hidden");
    } catch {
      // Storage may be refused (private mode): the choice then lasts for this page only.
    }
  }, []);
  const audio = useSingleAudio(speed);
  return { ...audio, speed, setSpeed, showEnglish: englishChoice ?? englishByDefault, setShowEnglish };
}

export type StoryPlayer = ReturnType<typeof useStoryPlayer>;

const SPEED_LABEL_ID = "story-speed-label";
const ENGLISH_SWITCH_ID = "story-show-english";

/** The story's study controls: the speed lines play at, and a switch that shows or hides the English. */
export function StoryPlayerControls({ player }: { player: StoryPlayer }) {
  // Like every button of a prerendered page, they wait for the app (decision 021).
  const prerendering = usePrerendering();
  return (
    <div className="flex flex-wrap items-center gap-x-8 gap-y-4 rounded-xl border bg-card p-4 shadow-sm">
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <span id={SPEED_LABEL_ID} className="text-sm font-medium">
          Speed
        </span>
        <RadioGroup
          aria-labelledby={SPEED_LABEL_ID}
          disabled={prerendering}
          value={String(player.speed)}
          onValueChange={(value) => player.setSpeed(Number(value) as StorySpeed)}
          className="flex flex-wrap gap-4"
        >
          {STORY_SPEEDS.map((speed) => (
            <div key={speed} className="flex items-center gap-2">
              <RadioGroupItem value={String(speed)} id={`story-speed-${speed}`} />
              <Label htmlFor={`story-speed-${speed}`} className="cursor-pointer">
                {speed}x
              </Label>
            </div>
          ))}
        </RadioGroup>
      </div>
      <div className="flex items-center gap-3">
        <Switch
          id={ENGLISH_SWITCH_ID}
          disabled={prerendering}
          checked={player.showEnglish}
          onCheckedChange={player.setShowEnglish}
        />
        <Label htmlFor={ENGLISH_SWITCH_ID} className="cursor-pointer">
          Show English
        </Label>
      </div>
    </div>
  );
}
