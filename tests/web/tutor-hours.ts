import type { TutorHoursInput } from "#server/modules/bookings/bookings.contract";

/** A tutor's hours every day, all day, in UTC, with no notice: open slots whenever a test runs. */
export const ALWAYS_OPEN: TutorHoursInput = {
  timeZone: "UTC",
  bio: "Cikgu Siti, from Ipoh.",
  languages: ["Malay", "English"],
  sessionMinutes: 30,
  noticeHours: 0,
  horizonDays: 7,
  weekly: [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({
    weekday: weekday as 1,
    ranges: [{ start: "00:00", end: "24:00" }],
  })),
  exceptions: [],
};
