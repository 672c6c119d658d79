import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";
import { chosenCandidates, keepPeerConnections, packetsOf } from "#tests/peer-connections";
import { startCoturn } from "./coturn";
import { bookSessionSoon, setRole } from "./database";
import { COURSE_DAYS, expectToast, person } from "./learner";
import { startSecondInstance } from "./second-instance";
import { test } from "./test";

const GREETINGS = COURSE_DAYS[0]!.day.liveSession!.blocks.find(
  (block) => block.task.id === "live-session:greeting-practice",
)!;
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Media flows both ways: the page's packets sent and received both grow. */
async function expectMediaBothWays(page: Page) {
  const before = await packetsOf(page);
  await expect
    .poll(async () => {
      const now = await packetsOf(page);
      return now.sent > before.sent && now.received > before.received && now.received > 20;
    })
    .toBe(true);
}

async function joinRoom(page: Page, bookingId: string, origin = "") {
  await page.goto(`${origin}/sessions/${bookingId}`);
  await expect(page.getByRole("heading", { name: "Check your camera and microphone" })).toBeVisible();
  await expect(page.getByRole("meter", { name: "Microphone level" })).toBeVisible();
  await expect(page.getByLabel("Your camera", { exact: true })).toBeVisible();
  expect((await new AxeBuilder({ page }).analyze()).violations.map((violation) => violation.id)).toEqual([]);
  await page.getByRole("button", { name: "Join the session" }).click();
}

/** The tutor's rating of a role-play line in the room. */
const rateLine = (page: Page, malay: string, rating: number) =>
  page
    .getByRole("radiogroup", { name: `Rating of “${malay}”` })
    .getByRole("radio", { name: String(rating) })
    .click();

test("a tutor and a learner on two instances meet in the session room: media both ways, chat, a reload that resumes the call, the tutor's ratings reaching the learner's review", async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const other = await startSecondInstance();
  try {
    await meetRateAndEnd(browser, other.origin);
  } finally {
    await other.stop();
  }
});

async function meetRateAndEnd(browser: Parameters<typeof person>[0], learnerOrigin: string) {
  const tutor = await person(browser, "Siti");
  await setRole(tutor.email, "Tutor");
  const learner = await person(browser, "Alex");
  for (const side of [tutor, learner]) await keepPeerConnections(side.page.context());
  const bookingId = await bookSessionSoon(learner.email, tutor.email);

  // The tutor on the first instance, the learner on the second: signalling passes through PostgreSQL.
  await joinRoom(tutor.page, bookingId);
  await expect(tutor.page.getByRole("status").filter({ hasText: "Waiting for Alex E2e to join" })).toBeVisible();
  await joinRoom(learner.page, bookingId, learnerOrigin);
  await expect(learner.page.getByText("Connected with Siti E2e")).toBeVisible({ timeout: 30_000 });
  await expect(tutor.page.getByText("Connected with Alex E2e")).toBeVisible({ timeout: 30_000 });
  await expectMediaBothWays(learner.page);
  await expectMediaBothWays(tutor.page);
  expect((await new AxeBuilder({ page: learner.page }).analyze()).violations.map((violation) => violation.id)).toEqual(
    [],
  );

  await tutor.page.getByLabel("Message").fill("Selamat pagi! Kita mula?");
  await tutor.page.getByRole("button", { name: "Send" }).click();
  await expect(
    learner.page.getByRole("listitem").filter({ hasText: "Siti E2e: Selamat pagi! Kita mula?" }),
  ).toBeVisible();

  // The learner reloads mid-call: the room opens again, the chat is still there, the call resumes.
  await learner.page.reload();
  await learner.page.getByRole("button", { name: "Join the session" }).click();
  await expect(learner.page.getByRole("listitem").filter({ hasText: "Selamat pagi! Kita mula?" })).toBeVisible();
  await expect(learner.page.getByText("Connected with Siti E2e")).toBeVisible({ timeout: 30_000 });
  await expect(tutor.page.getByText("Connected with Alex E2e")).toBeVisible({ timeout: 30_000 });
  await expectMediaBothWays(learner.page);
  await expectMediaBothWays(tutor.page);

  // The learner reads their cue cards; the tutor rates each greeting, "How are you?" a 2, and writes notes.
  await expect(learner.page.getByRole("heading", { name: "Your cue cards" })).toBeVisible();
  const asked = GREETINGS.phrases.find((phrase) => phrase.id === "greeting-ask")!;
  for (const phrase of GREETINGS.phrases) await rateLine(tutor.page, phrase.malay, phrase === asked ? 2 : 4);
  await tutor.page.getByLabel("Notes for Alex E2e").fill("Lovely greetings. Lift the end of a question.");
  await expect(tutor.page.getByText(/^Saved at /)).toBeVisible();
  // Ratings and notes are kept: a reload of the tutor's page finds them.
  await tutor.page.reload();
  await tutor.page.getByRole("button", { name: "Join the session" }).click();
  await expect(tutor.page.getByLabel("Notes for Alex E2e")).toHaveValue(
    "Lovely greetings. Lift the end of a question.",
  );
  await expect(
    tutor.page.getByRole("radiogroup", { name: `Rating of “${asked.malay}”` }).getByRole("radio", { name: "2" }),
  ).toBeChecked();
  await expect(tutor.page.getByText("Connected with Alex E2e")).toBeVisible({ timeout: 30_000 });

  await tutor.page.getByRole("button", { name: "End session" }).click();
  await tutor.page.getByRole("alertdialog").getByRole("button", { name: "End session" }).click();
  await expectToast(tutor.page, "Session ended", "Alex E2e has been told.");
  await expect(tutor.page.getByText(/1 role-play is complete/)).toBeVisible();

  // The learner, on the other instance, is told at once and sees the ratings and notes.
  await expect(learner.page.getByRole("heading", { name: "Your session with Siti E2e" })).toBeVisible();
  const askedRow = learner.page.getByRole("listitem").filter({ hasText: asked.malay });
  await expect(askedRow).toContainText("Rated 2 of 5");
  await expect(learner.page.getByText("Lovely greetings. Lift the end of a question.")).toBeVisible();
  await expect(learner.page.getByText("Completed")).toBeVisible();

  // Muted, the learner's sound stops going out; the tutor leaves and the learner is told.
  await learner.page.getByRole("button", { name: "Mute" }).click();
  await expect(learner.page.getByRole("button", { name: "Unmute" })).toHaveAttribute("aria-pressed", "true");
  await tutor.page.getByRole("button", { name: "Leave" }).click();
  await expect(tutor.page.getByText("You left the session.")).toBeVisible();
  await expect(learner.page.getByText("Waiting for Siti E2e to join")).toBeVisible();

  // The learner's next review starts with the line the tutor rated 2.
  await learner.page.goto("/review");
  await expect(learner.page.getByText("From your tutor")).toBeVisible();
  await expect(learner.page.locator("form[data-item]")).toContainText(
    new RegExp(`${escaped(asked.malay)}|${escaped(asked.english)}`),
  );
}

test("behind a network that lets only a TURN server through, the call goes through the operator's coturn, and comes back when the relay does", async ({
  browser,
}) => {
  test.setTimeout(300_000);
  const coturn = await startCoturn();
  let relay = coturn;
  const instance = await startSecondInstance(coturn.env);
  try {
    const tutor = await person(browser, "Farid");
    await setRole(tutor.email, "Tutor");
    const learner = await person(browser, "Dana");
    for (const side of [tutor, learner]) await keepPeerConnections(side.page.context(), { relayOnly: true });
    const bookingId = await bookSessionSoon(learner.email, tutor.email);
    await joinRoom(tutor.page, bookingId, instance.origin);
    await joinRoom(learner.page, bookingId, instance.origin);
    await expect(learner.page.getByText("Connected with Farid E2e")).toBeVisible({ timeout: 30_000 });
    await expect(tutor.page.getByText("Connected with Dana E2e")).toBeVisible({ timeout: 30_000 });
    await expectMediaBothWays(learner.page);
    await expectMediaBothWays(tutor.page);
    for (const page of [tutor.page, learner.page]) {
      expect(await chosenCandidates(page)).toEqual({ local: "relay", remote: "relay" });
    }

    // The tutor rates a line and writes a note; then the relay goes down and comes back.
    const first = GREETINGS.phrases[0]!;
    await rateLine(tutor.page, first.malay, 3);
    await tutor.page.getByLabel("Notes for Dana E2e").fill("Clear vowels.");
    await expect(tutor.page.getByText(/^Saved at /)).toBeVisible();
    await coturn.stop();
    for (const page of [tutor.page, learner.page]) {
      await expect(page.getByText("Connection lost: reconnecting…")).toBeVisible({ timeout: 60_000 });
    }
    relay = await startCoturn({ port: coturn.port, secret: coturn.secret });
    await expect(learner.page.getByText("Connected with Farid E2e")).toBeVisible({ timeout: 90_000 });
    await expect(tutor.page.getByText("Connected with Dana E2e")).toBeVisible({ timeout: 90_000 });
    await expectMediaBothWays(learner.page);
    await expectMediaBothWays(tutor.page);
    // Nothing the tutor did was lost.
    await expect(tutor.page.getByLabel("Notes for Dana E2e")).toHaveValue("Clear vowels.");
    await expect(
      tutor.page.getByRole("radiogroup", { name: `Rating of “${first.malay}”` }).getByRole("radio", { name: "3" }),
    ).toBeChecked();
  } finally {
    await instance.stop();
    await relay.stop();
  }
});

test("a session's room is closed before its time and to anyone but its two sides", async ({ browser }) => {
  const tutor = await person(browser, "Nurul");
  await setRole(tutor.email, "Tutor");
  const learner = await person(browser, "Ben");
  const later = await bookSessionSoon(learner.email, tutor.email, 3 * 60 * 60_000);
  await learner.page.goto(`/sessions/${later}`);
  await expect(learner.page.getByText(/^The room opens 5 minutes before the session, at /)).toBeVisible();

  const stranger = await person(browser, "Chong");
  await stranger.page.goto(`/sessions/${later}`);
  await expect(stranger.page.getByText("There is no such session among yours.")).toBeVisible();
});
