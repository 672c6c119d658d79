import { accentLabel } from "#course/voices";
import { usePublishedClips, usePublishedClipsRefresh } from "#web/lib/published-clips";
import { lineCount, voiceCredits } from "#web/lib/voice-credits";

/**
 * The team page's credits of the course's voices: every native speaker with a published clip, with
 * their accent and how many lines they voice, most lines first. Before any is published (and on the
 * prerendered page, until the clips are read) it says that espeak reads the lines.
 */
export function CourseVoices() {
  usePublishedClipsRefresh();
  const { voices } = voiceCredits(usePublishedClips());
  return (
    <section aria-labelledby="course-voices" className="mt-12 space-y-4">
      <h2 id="course-voices" className="text-2xl font-semibold tracking-tight">
        The voices of the course
      </h2>
      {voices.length === 0 ? (
        <p className="max-w-2xl text-muted-foreground">
          The course's lines are read by espeak, a synthetic voice, until native speakers record them.
        </p>
      ) : (
        <>
          <p className="max-w-2xl text-muted-foreground">
            Native speakers recorded these lines; espeak, a synthetic voice, reads the rest.
          </p>
          <ul className="grid gap-3 sm:grid-cols-2">
            {voices.map((voice) => (
              <li key={voice.userId} className="rounded-xl border bg-card p-4 shadow-sm">
                <p className="font-semibold">{voice.creditedName}</p>
                <p className="text-sm text-muted-foreground">
                  {accentLabel(voice.accent)} · {lineCount(voice.lines)}
                </p>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
