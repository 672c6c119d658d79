import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { findDay } from "#course/course";
import { dayBlocks } from "#course/day-blocks";
import { booking, bookingChange } from "#server/db/schema";
import type { ErrorBody } from "#server/http/errors";
import type { BookingView, TutorCard, TutorWeek } from "#server/modules/bookings/bookings.contract";
import type { CallRoom } from "#server/modules/calls/calls.contract";
import { bookedMonday, personAs } from "./booked-session";
import { completeDayTasks, completeTask, sendAs } from "./complete-day";
import { createTestApp } from "./test-app";

/**
 * A session its tutor ended in the room is held (docs/decisions/083-a-session-held.md): both sides'
 * views carry its record, it is no longer cancelled, moved or marked a no-show, the tutor's week
 * stops listing its learner as waiting for that day, and the tutor's card counts it. Through HTTP on
 * a clock the test moves: Siti's session with Alex is Monday 23 March 2026 at 09:00 London (GMT).
 */
const t = await createTestApp();
let clock = new Date("2026-03-20T00:00:00.000Z");
const request = t.requestTo(t.appWith({ now: () => clock }));

const errorOf = async (response: Response) => ((await response.json()) as ErrorBody).error;
const mine = async (cookie: string) =>
  ((await (await request("/api/bookings/mine", { cookie })).json()) as { bookings: BookingView[] }).bookings;
const week = async (cookie: string) => (await (await request("/api/bookings/week", { cookie })).json()) as TutorWeek;

/** The day's role-plays as the room's cue cards give them: each task and its phrases. */
async function rolePlaysOf(bookingId: string, cookie: string) {
  const room = (await (await request(`/api/calls/${bookingId}`, { cookie })).json()) as CallRoom;
  return room.record.rolePlays;
}

/** Siti rates the first two phrases of the first role-play 3 and 4, writes a note, and ends the session at `at`. */
async function heldAt(at: string) {
  clock = new Date("2026-03-20T00:00:00.000Z");
  const scene = await bookedMonday(t, request);
  clock = new Date(at);
  const { siti, session } = scene;
  const [first] = await rolePlaysOf(session.id, siti.cookie);
  for (const [index, rating] of [3, 4].entries()) {
    const line = { taskId: first!.taskId, lineId: first!.phrases[index]!.id, rating };
    expect(
      (await request(`/api/calls/${session.id}/ratings`, { method: "PUT", cookie: siti.cookie, json: line })).status,
    ).toBe(200);
  }
  const notes = { notes: "Lovely greetings. Practise the drinks." };
  expect(
    (await request(`/api/calls/${session.id}/notes`, { method: "PUT", cookie: siti.cookie, json: notes })).status,
  ).toBe(200);
  expect((await request(`/api/calls/${session.id}/end`, { method: "POST", cookie: siti.cookie })).status).toBe(200);
  return scene;
}

describe("a session held", () => {
  it("shows its record on both sides' views: when it ended, the lines rated, the notes, no rating yet", async () => {
    const { siti, alex, session } = await heldAt("2026-03-23T09:20:00.000Z");
    const phrases = (await rolePlaysOf(session.id, siti.cookie)).reduce((sum, card) => sum + card.phrases.length, 0);
    const held = {
      endedAt: "2026-03-23T09:20:00.000Z",
      lines: { rated: 2, of: phrases, average: 3.5 },
      notes: "Lovely greetings. Practise the drinks.",
      rating: null,
    };
    expect((await mine(alex.cookie)).find((each) => each.id === session.id)?.held).toEqual(held);
    expect((await mine(siti.cookie)).find((each) => each.id === session.id)?.held).toEqual(held);
    // Weeks later it is still the learner's record of the day, where other past sessions have left the list.
    clock = new Date("2026-05-01T09:00:00.000Z");
    expect((await mine(alex.cookie)).find((each) => each.id === session.id)?.held).toEqual(held);
    expect((await mine(siti.cookie)).find((each) => each.id === session.id)).toBeUndefined();
    const one = (await (await request(`/api/bookings/${session.id}`, { cookie: alex.cookie })).json()) as {
      booking: BookingView;
    };
    expect(one.booking.held).toEqual(held);
  });

  it("is not held before its tutor ends it", async () => {
    clock = new Date("2026-03-20T00:00:00.000Z");
    const { alex, session } = await bookedMonday(t, request);
    clock = new Date("2026-03-23T09:20:00.000Z");
    expect((await mine(alex.cookie)).find((each) => each.id === session.id)?.held).toBeNull();
  });

  it("is no longer cancelled, moved or marked a no-show: each is refused with why, and nothing changes", async () => {
    clock = new Date("2026-03-20T00:00:00.000Z");
    const { siti, alex, session } = await bookedMonday(t, request);
    const proposal = { startsAt: "2026-03-30T08:00:00.000Z" };
    expect(
      (await request(`/api/bookings/${session.id}/propose`, { method: "POST", cookie: siti.cookie, json: proposal }))
        .status,
    ).toBe(200);
    // The room opens 5 minutes before the start: Siti ends the session before it was due to start.
    clock = new Date("2026-03-23T08:57:00.000Z");
    expect((await request(`/api/calls/${session.id}/end`, { method: "POST", cookie: siti.cookie })).status).toBe(200);
    const changesBefore = await t.db.select().from(bookingChange).where(eq(bookingChange.bookingId, session.id));

    const held = {
      code: "SESSION_HELD",
      message:
        "This session was held: its tutor ended it in the session room. It stays as the day's record and can no longer be cancelled, moved or marked as a no-show.",
    };
    const attempts: [string, string, unknown][] = [
      [siti.cookie, "cancel", { reason: "Ill" }],
      [alex.cookie, "cancel", {}],
      [siti.cookie, "propose", { startsAt: "2026-04-06T08:00:00.000Z" }],
      [alex.cookie, "proposal", { accept: true }],
    ];
    for (const [cookie, change, json] of attempts) {
      const response = await request(`/api/bookings/${session.id}/${change}`, { method: "POST", cookie, json });
      expect([change, response.status]).toEqual([change, 409]);
      expect(await errorOf(response)).toEqual(held);
    }
    clock = new Date("2026-03-23T09:20:00.000Z");
    const noShow = await request(`/api/bookings/${session.id}/no-show`, {
      method: "POST",
      cookie: alex.cookie,
      json: {},
    });
    expect(noShow.status).toBe(409);
    expect((await errorOf(noShow)).code).toBe("SESSION_ENDED");

    const [row] = await t.db.select().from(booking).where(eq(booking.id, session.id));
    expect(row).toMatchObject({ status: "confirmed", noShow: null, startsAt: new Date(session.startsAt) });
    expect(await t.db.select().from(bookingChange).where(eq(bookingChange.bookingId, session.id))).toEqual(
      changesBefore,
    );
    const view = (await mine(alex.cookie)).find((each) => each.id === session.id)!;
    expect(view.proposal?.startsAt).toBe("2026-03-30T08:00:00.000Z");
    expect(view.held?.endedAt).toBe("2026-03-23T08:57:00.000Z");
  });

  it("counts on its tutor's card: the sessions they held", async () => {
    clock = new Date("2026-03-20T00:00:00.000Z");
    const { siti } = await bookedMonday(t, request);
    const cards = async () =>
      ((await (await request("/api/bookings/tutors", { cookie: siti.cookie })).json()) as { tutors: TutorCard[] })
        .tutors;
    expect((await cards()).find((card) => card.id === siti.id)?.sessionsHeld).toBe(0);
    const daySlots = (await (
      await request("/api/bookings/days/chapter-1/day-2/slots", { cookie: siti.cookie })
    ).json()) as {
      tutors: TutorCard[];
    };
    expect(daySlots.tutors.every((card) => typeof card.sessionsHeld === "number")).toBe(true);

    const other = await heldAt("2026-03-23T09:20:00.000Z");
    expect((await cards()).find((card) => card.id === other.siti.id)?.sessionsHeld).toBe(1);
    expect((await cards()).find((card) => card.id === siti.id)?.sessionsHeld).toBe(0);
  });
});

describe("the tutor's week, after a session held", () => {
  /** The day's role-plays (its live-session tasks) as the course names them. */
  function liveTasks() {
    const day = findDay(t.course, "chapter-1", "day-1")!.day;
    return dayBlocks(day).flatMap(({ page, block }) =>
      page === "liveSession" && "task" in block && block.task ? [{ taskId: block.task.id, title: block.title! }] : [],
    );
  }

  it("leaves out a learner who held that day's session, and says what is left for those still waiting", async () => {
    const live = liveTasks();
    expect(live.length).toBeGreaterThanOrEqual(2);
    const { siti, alex, session } = await heldAt("2026-03-23T09:20:00.000Z");
    // Alex finished the self-study (the session did not complete the day: one role-play rated in part).
    const alexDone = await completeDayTasks(sendAs(t, alex.cookie), t.course, "chapter-1", "day-1", {
      except: live.map((task) => task.taskId),
    });
    expect(Object.values(alexDone).every((outcome) => outcome === "done")).toBe(true);
    // Nur finished it too, and did the first role-play alone; Ana did none.
    const nur = await personAs(t, "Student", { firstName: "Nur", lastName: "Tan" });
    const ana = await personAs(t, "Student", { firstName: "Ana", lastName: "Lim" });
    for (const learner of [nur, ana]) {
      const done = await completeDayTasks(sendAs(t, learner.cookie), t.course, "chapter-1", "day-1", {
        except: live.map((task) => task.taskId),
      });
      expect(Object.values(done).every((outcome) => outcome === "done")).toBe(true);
    }
    const alone = { chapterId: "chapter-1", dayId: "day-1", taskId: live[0]!.taskId };
    expect(await completeTask(sendAs(t, nur.cookie), t.course, alone)).toBe("done");

    clock = new Date("2026-03-23T10:00:00.000Z");
    const { waiting } = await week(siti.cookie);
    expect(waiting.find((entry) => entry.learner.id === alex.id)).toBeUndefined();
    expect(waiting.find((entry) => entry.learner.id === nur.id)).toMatchObject({
      chapterId: "chapter-1",
      dayId: "day-1",
      left: live.slice(1),
    });
    expect(waiting.find((entry) => entry.learner.id === ana.id)?.left).toEqual(live);
    expect((await mine(alex.cookie)).find((each) => each.id === session.id)?.held).not.toBeNull();
  });
});
