import { useId } from "react";
import type { DayCoverage } from "#server/modules/studio/studio.contract";

const dayKey = (day: { chapterId: string; dayId: string }) => `${day.chapterId}/${day.dayId}`;

/** How many of a day's lines have a native voice, as the picker and the day's heading say it. */
function coverageText(day: DayCoverage): string {
  const inReview = day.inReview > 0 ? ` (${day.inReview} in review)` : "";
  return `${day.published} of ${day.lines} lines have a native voice${inReview}`;
}

/** The day whose lines are listed, each option with its coverage. */
export function DayPicker({
  days,
  chosen,
  onChoose,
}: {
  days: DayCoverage[];
  chosen: { chapterId: string; dayId: string };
  onChoose: (day: DayCoverage) => void;
}) {
  const id = useId();
  const current = days.find((day) => dayKey(day) === dayKey(chosen));
  return (
    <div className="grid gap-2">
      <label htmlFor={id} className="text-sm font-medium">
        Day
      </label>
      <select
        id={id}
        value={dayKey(chosen)}
        aria-describedby={`${id}-coverage`}
        onChange={(event) => {
          const day = days.find((each) => dayKey(each) === event.target.value);
          if (day) onChoose(day);
        }}
        className="h-10 rounded-md border border-input bg-background px-3 text-base sm:text-sm"
      >
        {days.map((day) => (
          <option key={dayKey(day)} value={dayKey(day)}>
            {day.title}: {day.published} of {day.lines}
          </option>
        ))}
      </select>
      <p id={`${id}-coverage`} className="text-sm text-muted-foreground">
        {current ? `${coverageText(current)}.` : null}
      </p>
    </div>
  );
}
