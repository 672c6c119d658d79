import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import { keepPeerConnections, packetsOf } from "#tests/peer-connections";
import { bookSessionSoon, setRole } from "./database";
import { person } from "./learner";

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

async function joinRoom(page: Page, bookingId: string) {
  await page.goto(`/sessions/${bookingId}`);
  await expect(page.getByRole("heading", { name: "Check your camera and microphone" })).toBeVisible();
  await expect(page.getByRole("meter", { name: "Microphone level" })).toBeVisible();
  await expect(page.getByLabel("Your camera", { exact: true })).toBeVisible();
  expect((await new AxeBuilder({ page }).analyze()).violations.map((violation) => violation.id)).toEqual([]);
  await page.getByRole("button", { name: "Join the session" }).click();
}

test("a tutor and a learner meet in the session room: media both ways, chat, and a reload that resumes the call", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const tutor = await person(browser, "Siti");
  await setRole(tutor.email, "Tutor");
  const learner = await person(browser, "Alex");
  for (const side of [tutor, learner]) await keepPeerConnections(side.page.context());
  const bookingId = await bookSessionSoon(learner.email, tutor.email);

  await joinRoom(tutor.page, bookingId);
  await expect(tutor.page.getByRole("status").filter({ hasText: "Waiting for Alex E2e to join" })).toBeVisible();
  await joinRoom(learner.page, bookingId);
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

  // Muted, the learner's sound stops going out; the tutor leaves and the learner is told.
  await learner.page.getByRole("button", { name: "Mute" }).click();
  await expect(learner.page.getByRole("button", { name: "Unmute" })).toHaveAttribute("aria-pressed", "true");
  await tutor.page.getByRole("button", { name: "Leave" }).click();
  await expect(tutor.page.getByText("You left the session.")).toBeVisible();
  await expect(learner.page.getByText("Waiting for Siti E2e to join")).toBeVisible();
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
