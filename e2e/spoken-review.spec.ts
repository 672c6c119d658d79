import { readFile } from "node:fs/promises";
import AxeBuilder from "@axe-core/playwright";
import { expect, type Locator, type Page } from "@playwright/test";
import { sectionLines, storySections } from "#course/course";
import { setRole } from "./database";
import { COURSE_DAYS, expectToast, person } from "./learner";
import { test } from "./test";

// Chromium records from a fake microphone playing tests/fixtures/takes/selamat-pagi.wav (the "speak"
// project of playwright.config.ts), and grants it without asking. Everything the learner does on the
// spoken card is done by keyboard.
const DAY_ONE = COURSE_DAYS[0]!.day;
const LISTEN = DAY_ONE.codebook!.blocks.find((block) => block.type === "listen-shadow")!;
const LINE = sectionLines(storySections(DAY_ONE).find((section) => section.id === LISTEN.sectionId)!)[0]!;
const COMMENT = "Hold the last vowel a little longer.";

/** Tabs from wherever focus is until `target` has it. */
async function tabTo(page: Page, target: Locator) {
  for (let step = 0; step < 80; step += 1) {
    if (await target.evaluate((element) => element === document.activeElement).catch(() => false)) return;
    await page.keyboard.press("Tab");
  }
  throw new Error(`Tabbing never reached ${target}`);
}

/**
 * Axe finds nothing on the page in the light theme and in the dark one. The theme is changed as
 * another tab changing it would (the page follows the stored choice), so the page keeps its state.
 */
async function expectAccessibleInBothThemes(page: Page, state: string) {
  for (const colorScheme of ["light", "dark"] as const) {
    await page.evaluate((theme) => {
      localStorage.setItem("jalan-theme", theme);
      window.dispatchEvent(new StorageEvent("storage", { key: "jalan-theme" }));
    }, colorScheme);
    await expect(page.locator("html")).toHaveClass(colorScheme === "dark" ? /\bdark\b/ : /^(?!.*\bdark\b)/);
    const { violations } = await new AxeBuilder({ page }).analyze();
    expect(
      violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target).join(", ")}`),
      `${state}, ${colorScheme} theme`,
    ).toEqual([]);
  }
}

/** The learner records a take of a line of day 1 and sends it to a tutor, through the API. */
async function sendTakeOfLine(page: Page, origin: string): Promise<void> {
  const take = await readFile("tests/fixtures/takes/chromium-2s.webm");
  const uploaded = await page.request.post("/api/speaking/takes", {
    headers: { origin },
    multipart: {
      chapterId: "chapter-1",
      dayId: "day-1",
      lineId: LINE.id,
      take: { name: "take.webm", mimeType: "audio/webm", buffer: take },
    },
  });
  expect(uploaded.status(), await uploaded.text()).toBe(201);
  const sent = await page.request.post("/api/speaking/days/chapter-1/day-1/sent", {
    headers: { origin },
    data: { lineIds: [LINE.id] },
  });
  expect(sent.status(), await sent.text()).toBe(201);
}

test("a tutor rates a line 2 with a comment; the learner's review opens on it to say aloud, by keyboard: recorded, compared, rated, and sent back to the tutor", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const learner = await person(browser, "Nadia", { lastName: "Review" });
  const { page } = learner;
  await sendTakeOfLine(page, learner.origin);

  // A tutor hears the line in the queue and rates it 2, with a comment.
  const tutor = await person(browser, "Farid", { lastName: "Hears" });
  await setRole(tutor.email, "Tutor");
  await tutor.page.goto("/tutor");
  const queue = tutor.page.getByRole("region", { name: "Waiting to be heard" });
  const entry = queue.getByRole("listitem").filter({ hasText: learner.name });
  await entry.getByRole("button", { name: "Listen and rate" }).click();
  const rated = entry.getByRole("group", { name: /^Line 1:/ });
  await rated.getByRole("radio", { name: "2", exact: true }).click();
  await rated.getByLabel("Comment on line 1").fill(COMMENT);
  await entry.getByRole("button", { name: "Send ratings" }).click();
  await expectToast(tutor.page, "Ratings sent", "The learner has been told.");
  await expect(entry).toHaveCount(0);

  // The learner's review opens on the line's spoken card: the English to say, the tutor's rating,
  // comment and the take they heard; the Malay stays hidden until the learner has said it.
  await page.goto("/review");
  const card = page.locator("form[data-item]");
  await expect(page.getByText("Card 1 of 4")).toBeVisible();
  await expect(page.getByText("From your tutor")).toBeVisible();
  await expect(card.getByRole("group", { name: "Say it in Malay." })).toBeVisible();
  await expect(card.getByText(LINE.english, { exact: true })).toBeVisible();
  await expect(card.getByText(LINE.malay, { exact: true })).toHaveCount(0);
  const note = card.getByRole("region", { name: "Your tutor's note" });
  await expect(note).toContainText("Your tutor rated your take 2 of 5");
  await expect(note).toContainText(COMMENT);
  await expect(note.getByRole("button", { name: "Your earlier take" })).toBeVisible();
  await expectAccessibleInBothThemes(page, "before recording");

  // Enter on Record starts it, and the focus stays on the same button, now Stop; a second Enter stops it.
  const record = card.getByRole("button", { name: "Record", exact: true });
  await tabTo(page, record);
  await page.keyboard.press("Enter");
  const stop = card.getByRole("button", { name: "Stop", exact: true });
  await expect(stop).toBeFocused();
  await expect(card.getByText("Recording… say it in Malay, then pause or tap Stop.")).toBeVisible();
  await expectAccessibleInBothThemes(page, "recording");
  await page.waitForTimeout(1500);
  await page.keyboard.press("Enter");
  await expect(card.getByRole("button", { name: "Record again" })).toBeFocused();

  // Recorded: the Malay, and the model with the take after it.
  await expect(card.getByText(LINE.malay, { exact: true })).toBeVisible();
  const compare = card.getByRole("button", { name: "Model, then you" });
  await tabTo(page, compare);
  await page.keyboard.press("Enter");
  await expect(compare).toHaveAttribute("aria-pressed", "true");
  await expectAccessibleInBothThemes(page, "recorded");

  // How close? Close: the review is sent with that rating, and the focus moves on to Continue.
  const close = card.getByRole("button", { name: "Close", exact: true });
  await tabTo(page, close);
  const answered = page.waitForRequest(
    (request) => request.method() === "POST" && request.url().endsWith("/api/review/answers"),
  );
  await page.keyboard.press("Enter");
  expect((await answered).postDataJSON()).toMatchObject({ given: { selfRating: "close" } });
  await expect(close).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByRole("button", { name: "Continue" })).toBeFocused();
  await expectAccessibleInBothThemes(page, "rated");

  // The new take goes back to a tutor: it waits in their queue.
  const send = page.getByRole("button", { name: "Send this take to your tutor" });
  await tabTo(page, send);
  await page.keyboard.press("Enter");
  await expectToast(page, "Sent to your tutor", "Your new take waits in the tutors' queue.");
  await expect(page.getByRole("button", { name: "Sent to your tutor" })).toBeDisabled();
  const waiting = await tutor.page.request.get("/api/speaking/queue");
  const { waiting: entries } = (await waiting.json()) as { waiting: { learner: { name: string } }[] };
  expect(entries.filter((each) => each.learner.name === learner.name)).toHaveLength(1);
  // The tutor's queue, open all along, shows it with no reload: the server pushed the change.
  await expect(entry).toHaveCount(1);
  await expect(entry).toContainText("Day 1 — Lines · 1 line");
});

test("records and compares by keyboard alone in the Codebook's lines and in a role-play, axe clean in every state of the recorder, in both themes", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const { page } = await person(browser, "Keyboard", { lastName: "Only" });
  await page.goto("/chapter-1/day-1/codebook");
  await expect(page.locator("main [aria-busy='true']")).toHaveCount(0);

  // Say each line: opened by keyboard, its first line recorded, compared and rated.
  const open = page.getByRole("button", { name: "Say each line yourself" });
  await tabTo(page, open);
  await page.keyboard.press("Enter");
  const panel = page.getByRole("region", { name: "Say each line" });
  await expect(panel.getByRole("heading", { name: "Say each line" })).toBeFocused();
  await expectAccessibleInBothThemes(page, "lines, before recording");
  await tabTo(page, panel.getByRole("button", { name: `Record: ${LINE.malay}` }));
  await page.keyboard.press("Enter");
  await expect(panel.getByRole("button", { name: `Stop recording: ${LINE.malay}` })).toBeFocused();
  await expectAccessibleInBothThemes(page, "lines, recording");
  await page.waitForTimeout(1500);
  const uploaded = page.waitForResponse((response) => response.url().endsWith("/api/speaking/takes"));
  await page.keyboard.press("Enter");
  expect((await uploaded).status()).toBe(201);
  await expect(panel.getByRole("button", { name: `Record again: ${LINE.malay}` })).toBeFocused();
  const compare = panel.getByRole("button", { name: `Model, then you: ${LINE.malay}` });
  await tabTo(page, compare);
  await page.keyboard.press("Enter");
  await expect(compare).toHaveAttribute("aria-pressed", "true");
  await expectAccessibleInBothThemes(page, "lines, recorded");
  const good = panel.getByRole("listitem").first().getByRole("button", { name: "Good", exact: true });
  await tabTo(page, good);
  await page.keyboard.press("Enter");
  await expect(good).toHaveAttribute("aria-pressed", "true");
  await expectAccessibleInBothThemes(page, "lines, rated");

  // A role-play done alone: each of the learner's turns recorded by keyboard.
  await page.goto("/chapter-1/day-1/live-session");
  const rolePlay = page.getByRole("region", { name: DAY_ONE.liveSession!.blocks[0]!.title, exact: true });
  await tabTo(page, rolePlay.getByRole("button", { name: "Practise without a tutor" }));
  await page.keyboard.press("Enter");
  await expectAccessibleInBothThemes(page, "role-play, started");
  const yourTurn = rolePlay.getByRole("button", { name: "Your turn", exact: true });
  const recordLine = rolePlay.getByRole("button", { name: "Record your line" });
  await expect(yourTurn.or(recordLine)).toBeVisible();
  if (await yourTurn.isVisible()) {
    await tabTo(page, yourTurn);
    await page.keyboard.press("Enter");
  }
  await tabTo(page, recordLine);
  await page.keyboard.press("Enter");
  const stopLine = rolePlay.getByRole("button", { name: "Stop", exact: true });
  await expect(stopLine).toBeFocused();
  await expectAccessibleInBothThemes(page, "role-play, recording");
  await page.waitForTimeout(1500);
  await page.keyboard.press("Enter");
  const modelThenYou = rolePlay.getByRole("button", { name: "Model, then you" });
  await tabTo(page, modelThenYou);
  await page.keyboard.press("Enter");
  await expect(modelThenYou).toHaveAttribute("aria-pressed", "true");
  await expectAccessibleInBothThemes(page, "role-play, recorded");
});
