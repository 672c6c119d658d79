import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import type { RolePlay } from "#course/course";
import { connectApp } from "#tests/web/app-in-process";
import { fixtureDay, signInWithProgress } from "#tests/web/course-db-test-kit";
import { dayProgress, openDayPage } from "#tests/web/course-page-test-kit";
import { stubAudio } from "#tests/web/screen";
import { sendGreetingsAlone, uploadTake } from "#tests/web/speaking-test-kit";
import { ALWAYS_OPEN } from "#tests/web/tutor-hours";

const app = await connectApp();

const DAY_1 = fixtureDay("chapter-1", "day-1");
const ROLE_PLAYS = DAY_1.liveSession!.blocks.filter((block): block is RolePlay => block.type === "role-play");
const LIVE_TASKS = new Set(ROLE_PLAYS.map((rolePlay) => rolePlay.task.id));
/** Every task of day 1 but its two role-plays. */
const ALL_BUT_LIVE = dayProgress(
  "chapter-1",
  "day-1",
  DAY_1.tasks.map((task) => task.id).filter((id) => !LIVE_TASKS.has(id)),
);

beforeEach(() => {
  stubAudio();
});

describe("a role-play done alone", () => {
  it("lets a learner without a microphone say each line aloud, send each role-play, and finish day 1 with no tutor", async () => {
    const learner = await signInWithProgress(app, ALL_BUT_LIVE);
    await openDayPage("/chapter-1/day-1/live-session");
    expect(screen.getByText(/No tutor yet\? Practise without a tutor/)).toBeInTheDocument();

    for (const rolePlay of ROLE_PLAYS) {
      const block = screen.getByRole("region", { name: rolePlay.title });
      fireEvent.click(within(block).getByRole("button", { name: "Practise without a tutor" }));
      await within(block).findByText(`Turn 1 of ${rolePlay.phrases.length}`);
      for (const phrase of rolePlay.phrases) {
        // The cue card keeps the Malay hidden until asked.
        expect(within(block).queryByText(phrase.malay, { selector: "p" })).toBeNull();
        fireEvent.click(within(block).getByRole("button", { name: "Show the Malay" }));
        expect(within(block).getByText(phrase.malay, { selector: "p" })).toBeInTheDocument();
        const next = within(block).getByRole("button", { name: "Next" });
        expect(next).toBeDisabled();
        fireEvent.click(await within(block).findByRole("button", { name: "I said it aloud" }));
        await waitFor(() => expect(next).toBeEnabled());
        fireEvent.click(next);
      }
      fireEvent.click(await within(block).findByRole("button", { name: "Send and complete" }));
      expect((await screen.findAllByText("This practice is complete.")).length).toBeGreaterThan(0);
      await within(block).findByText("Completed");
      // The panel says so too, and asks for nothing more.
      expect(within(block).getByText("Sent, and this practice is complete.")).toBeInTheDocument();
      expect(within(block).getByText(/You said every line aloud, so there are no takes/)).toBeInTheDocument();
      expect(within(block).queryByText(/Say every line before you send it/)).not.toBeInTheDocument();
    }
    const { progress, completedDays } = await app.progressOf(learner.id);
    for (const rolePlay of ROLE_PLAYS) expect(progress["chapter-1"]?.["day-1"]?.[rolePlay.task.id]).toBe("completed");
    expect(completedDays).toContainEqual(expect.objectContaining({ chapterId: "chapter-1", dayId: "day-1" }));
  });

  it("says who will listen to recorded takes: nobody yet, then a tutor's next open hours; once sent, that it was sent and completed", async () => {
    const learner = await signInWithProgress(app, ALL_BUT_LIVE);
    const [greeting] = ROLE_PLAYS;
    for (const phrase of greeting!.phrases) await uploadTake(app, "chapter-1", "day-1", phrase.id);
    const walkToTheEnd = async () => {
      await openDayPage("/chapter-1/day-1/live-session");
      const block = screen.getByRole("region", { name: greeting!.title });
      fireEvent.click(within(block).getByRole("button", { name: "Practise without a tutor" }));
      for (const _ of greeting!.phrases) {
        const next = await within(block).findByRole("button", { name: "Next" });
        await waitFor(() => expect(next).toBeEnabled());
        fireEvent.click(next);
      }
      return block;
    };
    let block = await walkToTheEnd();
    expect(within(block).getByText("Send it to complete this practice.")).toBeInTheDocument();
    expect(
      await within(block).findByText(/^No tutor is taking learners yet, so nobody will rate your takes/),
    ).toBeInTheDocument();
    expect(within(block).queryByText(/A tutor will listen/)).not.toBeInTheDocument();
    cleanup();

    // A tutor publishes hours: the learner is told from when one will listen.
    await app.signOut();
    await app.signInAs("Tutor", { firstName: "Siti", lastName: "Aminah" });
    expect((await app.send("PUT", "/api/bookings/hours", ALWAYS_OPEN)).status).toBe(200);
    await app.signOut();
    await app.signIn(learner);
    block = await walkToTheEnd();
    expect(
      await within(block).findByText(
        /^A tutor will listen and rate each line\. The tutors' next open hours start \w{3} \d{1,2} \w{3}, \d{2}:\d{2}\.$/,
      ),
    ).toBeInTheDocument();
    fireEvent.click(within(block).getByRole("button", { name: "Send and complete" }));
    expect(await within(block).findByText("Sent, and this practice is complete.")).toBeInTheDocument();
    expect(within(block).getByText(/^A tutor will listen and rate each line/)).toBeInTheDocument();
    expect(within(block).queryByText(/Say every line before you send it/)).not.toBeInTheDocument();
    expect((await app.progressOf(learner.id)).progress["chapter-1"]?.["day-1"]?.[greeting!.task.id]).toBe("completed");
    // Practise again starts the turns over.
    fireEvent.click(within(block).getByRole("button", { name: "Practise again" }));
    expect(await within(block).findByText(`Turn 1 of ${greeting!.phrases.length}`)).toBeInTheDocument();
  });

  it("shows the learner what their tutor said of each line they sent, and what still waits", async () => {
    const learner = await signInWithProgress(app);
    const { take, submissionId } = await sendGreetingsAlone(app);
    await openDayPage("/chapter-1/day-1/live-session");
    const waiting = await screen.findByRole("region", { name: "What your tutor heard" });
    expect(within(waiting).getByText("One set of recordings is waiting for a tutor to listen.")).toBeInTheDocument();
    cleanup();

    await app.signOut();
    await app.signInAs("Tutor");
    await app.send("POST", `/api/speaking/submissions/${submissionId}/review`, {
      ratings: [{ takeId: take.id, rating: 2, comment: "Let your voice rise at the end." }],
    });
    await app.signOut();
    await app.signIn(learner);
    await openDayPage("/chapter-1/day-1/live-session");
    const heard = await screen.findByRole("region", { name: "What your tutor heard" });
    const line = within(heard).getByText("Apa khabar?").closest("li")!;
    expect(line).toHaveTextContent("2 of 5 — Let your voice rise at the end.");
    expect(within(line).getByLabelText("You: Apa khabar?")).toHaveAttribute("src", take.audio);
  });

  it("lists what the tutor heard weakest line first, across the role-plays sent", async () => {
    const learner = await signInWithProgress(app);
    const [greeting, ordering] = ROLE_PLAYS.map((rolePlay) => ({ rolePlay, phrase: rolePlay.phrases[0]! }));
    const sendAlone = async ({ rolePlay, phrase }: { rolePlay: RolePlay; phrase: { id: string } }) => {
      const take = await uploadTake(app, "chapter-1", "day-1", phrase.id);
      const sent = await app.send("POST", `/api/speaking/days/chapter-1/day-1/role-plays/${rolePlay.task.id}`);
      return { take, submissionId: ((await sent.json()) as { submission: { id: string } }).submission.id };
    };
    // The weak line is sent first: the list goes by rating, not by when each was sent.
    const weak = await sendAlone(ordering!);
    const good = await sendAlone(greeting!);
    await app.signOut();
    await app.signInAs("Tutor");
    for (const [sent, rating, comment] of [
      [good, 5, "Clear."],
      [weak, 2, "Say tarik with a tapped r."],
    ] as const) {
      const reviewed = await app.send("POST", `/api/speaking/submissions/${sent.submissionId}/review`, {
        ratings: [{ takeId: sent.take.id, rating, comment }],
      });
      expect(reviewed.status).toBe(201);
    }
    await app.signOut();
    await app.signIn(learner);
    await openDayPage("/chapter-1/day-1/live-session");
    const heard = await screen.findByRole("region", { name: "What your tutor heard" });
    const items = within(heard).getAllByRole("listitem");
    expect(items.map((item) => item.querySelector("[lang=ms]")!.textContent)).toEqual([
      ordering!.phrase.malay,
      greeting!.phrase.malay,
    ]);
    expect(items[0]).toHaveTextContent("2 of 5 — Say tarik with a tapped r.");
  });

  it("is not offered to a visitor, who is told what a tutor does", async () => {
    await openDayPage("/chapter-1/day-1/live-session");
    expect(screen.queryByRole("button", { name: "Practise without a tutor" })).not.toBeInTheDocument();
    expect(screen.getByText(/A tutor listens to what you send and rates each line/)).toBeInTheDocument();
  });
});
