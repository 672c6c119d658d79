import AxeBuilder from "@axe-core/playwright";
import { type BrowserContext, expect, type Page, test } from "@playwright/test";
import { bookSessionSoon, setRole } from "./database";
import { person } from "./learner";

/**
 * Every RTCPeerConnection a page makes, kept where the test can ask it for its statistics: the
 * page's own code is untouched, the constructor is wrapped before it loads.
 */
async function keepPeerConnections(context: BrowserContext) {
  await context.addInitScript(() => {
    const Original = window.RTCPeerConnection;
    const kept: RTCPeerConnection[] = [];
    (window as unknown as { peerConnections: RTCPeerConnection[] }).peerConnections = kept;
    window.RTCPeerConnection = class extends Original {
      constructor(configuration?: RTCConfiguration) {
        super(configuration);
        kept.push(this);
      }
    } as typeof RTCPeerConnection;
  });
}

/** Packets the page's newest peer connection has sent and received, over all its RTP streams. */
function packets(page: Page) {
  return page.evaluate(async () => {
    const kept = (window as unknown as { peerConnections: RTCPeerConnection[] }).peerConnections;
    const pc = kept.at(-1);
    if (!pc) return { sent: 0, received: 0 };
    let sent = 0;
    let received = 0;
    (await pc.getStats()).forEach((report: { type: string; packetsSent?: number; packetsReceived?: number }) => {
      if (report.type === "outbound-rtp") sent += report.packetsSent ?? 0;
      if (report.type === "inbound-rtp") received += report.packetsReceived ?? 0;
    });
    return { sent, received };
  });
}

/** Media flows both ways: the page's packets sent and received both grow. */
async function expectMediaBothWays(page: Page) {
  const before = await packets(page);
  await expect
    .poll(async () => {
      const now = await packets(page);
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
