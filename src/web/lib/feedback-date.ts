/**
 * A tutor's note's date, in a fixed locale, so every reader sees the same "23 Nov 2026" whatever their
 * browser's language: the learner reading their feedback, and staff keeping the learner's record.
 * The formatter is made at the first date shown, not when the module loads: a browser's first Intl
 * formatter costs tens of milliseconds, which every course page would otherwise pay at start,
 * feedback or none.
 */
let dateFormat: Intl.DateTimeFormat | undefined;

export function formatFeedbackDate(iso: string): string {
  dateFormat ??= new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric" });
  return dateFormat.format(new Date(iso));
}
