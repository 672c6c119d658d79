import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";
import { practiceSetOf } from "#course/course";
import {
  COURSE_DAYS,
  completeDayByApi,
  dayPath,
  doRolePlayAloud,
  expectToast,
  FAST,
  playToEnd,
  recallCard,
  region,
  sayEachLineAloud,
  signUpAndIn,
} from "./learner";
import { answerPracticeSet, practiceItems, showFeedback } from "./practice";
import { test } from "./test";

/** A Codebook mission: a region named by its title. */
const mission = region;
const DAY_ONE = COURSE_DAYS[0]!.day;

test("a new learner with no microphone completes day 1 alone (its lines said aloud, its practice with a wrong answer corrected, its role-plays done alone), keeps it after a reload, and day 2 opens", async ({
  page,
}) => {
  test.setTimeout(300_000);
  // The app keeps to its Content-Security-Policy: no page of the day tries eval or an inline script.
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener("securitypolicyviolation", (event) =>
      seen.push(`${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}`),
    );
  });
  const cspViolations = () => page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);
  await page.goto("/");
  await signUpAndIn(page);

  // Day 2 stays locked until day 1 is complete, by its URL too.
  await page.goto("/chapter-1/day-2");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Day 2 is locked");
  await expect(page.getByText("Finish Day 1 first.")).toBeVisible();
  await page.getByRole("link", { name: "Go to Day 1" }).click();
  await expect(page).toHaveURL(/\/chapter-1\/day-1$/);

  // The story: opening it marks the day started; every line plays on its own.
  await page.goto(`/chapter-1/day-1${FAST}`);
  await expect(page.getByRole("heading", { name: "The Setting" })).toBeVisible();
  const line = page.getByRole("button", { name: "Play: Selamat pagi, pak cik. Apa khabar?" });
  await line.click();
  await expect(page.getByRole("button", { name: "Stop: Selamat pagi, pak cik. Apa khabar?" })).toHaveAttribute(
    "aria-pressed",
    "true",
  );
  // It resets by itself when the clip ends.
  await expect(line).toHaveAttribute("aria-pressed", "false");

  const continueButton = page.getByRole("button", { name: "Continue to Codebook" });
  await expect(continueButton).toBeDisabled();
  await expect(page.getByText("You must complete all sections before proceeding.")).toBeVisible();
  const completeButtons = page.getByRole("button", { name: "Complete Section" });
  await completeButtons.first().click();
  await expectToast(page, "Section Completed!", "Great job, you're making progress!");
  await expect(page.getByRole("button", { name: "Completed" })).toHaveCount(1);
  await page.getByRole("button", { name: "Complete Section" }).click();
  await expect(page.getByRole("button", { name: "Completed" })).toHaveCount(2);
  await expect(page.getByRole("button", { name: "Completed" }).first()).toBeDisabled();
  await page.getByRole("link", { name: "Continue to Codebook" }).click();
  await expect(page).toHaveURL(/\/chapter-1\/day-1\/codebook$/);

  // The Codebook, at high speed: listen to the end, watch to the end, flip every card, practise.
  await page.goto(`/chapter-1/day-1/codebook${FAST}`);
  // The prerendered page shows a visitor's Codebook until the session is read.
  await expect(page.locator("main [aria-busy='true']")).toHaveCount(0);
  await page.getByRole("button", { name: "Proceed to Tutor Hour" }).click();
  await expectToast(page, "Not so fast!", "You haven't completed all tasks in the Day 1 Codebook.");
  await expect(page).toHaveURL(/\/codebook/);

  const cards = page.getByRole("button", { name: /^Flip card/ });
  await expect(cards).toHaveCount(DAY_ONE.vocabulary.length);
  await expect(cards.first()).toBeDisabled();
  await playToEnd(page, "audio");
  // Heard to its end, the dialogue's lines are still to be said, here aloud: no status write does it.
  const listen = mission(page, "Listen and Shadow");
  const lines = listen.getByRole("region", { name: "Say each line" });
  await expect(lines).toBeVisible();
  await expect(listen).not.toContainText("Completed");
  const origin = new URL(page.url()).origin;
  const bareListen = await page.request.put("/api/progress/chapter-1/day-1/codebook:listen-shadow", {
    data: { status: "completed" },
    headers: { origin },
  });
  expect(bareListen.status()).toBe(409);
  expect((await bareListen.json()).error.code).toBe("SPEAKING_REQUIRED");
  await sayEachLineAloud(lines);
  await expect(listen).toContainText("Completed");
  // The video carries English captions from our own server.
  const captions = await page.request.get(
    (await page.locator("video track").getAttribute("src")) ?? "missing-captions-track",
  );
  expect(await captions.text()).toMatch(/^WEBVTT/);
  await playToEnd(page, "video");
  await expect(mission(page, "Culture and Grammar Notes")).toContainText("Completed", { timeout: 20_000 });
  await expect(cards.first()).toBeEnabled();
  for (let index = 0; index < DAY_ONE.vocabulary.length; index += 1) await recallCard(page, cards.nth(index));
  await expect(mission(page, "Phrase Cards")).toContainText("Completed");

  // Practice, opened by the cards, is the fourth mission: the Codebook is not done without it, and
  // its task cannot be completed by a status write, only by answering every item right.
  await page.getByRole("button", { name: "Proceed to Tutor Hour" }).click();
  await expectToast(page, "Not so fast!", "You haven't completed all tasks in the Day 1 Codebook.");
  const bare = await page.request.put("/api/progress/chapter-1/day-1/codebook:practice", {
    data: { status: "completed" },
    headers: { origin },
  });
  expect(bare.status()).toBe(409);
  expect((await bare.json()).error.code).toBe("ANSWER_REQUIRED");
  const practice = mission(page, "Practice");
  await expect(practice).not.toContainText("Completed");
  await answerPracticeSet(page, practiceItems("chapter-1", "day-1", "codebook:practice"));
  await expect(practice).toContainText("Practice complete");
  await expect(practice).toContainText("Completed");
  expect(await cspViolations()).toEqual([]);

  // A reload keeps every state.
  await page.reload();
  await expect(page.locator("main [aria-busy='true']")).toHaveCount(0);
  await expect(mission(page, "Listen and Shadow")).toContainText("Completed");
  await expect(mission(page, "Culture and Grammar Notes")).toContainText("Completed");
  await expect(mission(page, "Phrase Cards")).toContainText("Completed");
  const cardCount = DAY_ONE.vocabulary.length;
  await expect(page.getByText(`${cardCount} of ${cardCount} checked`)).toBeVisible();
  await expect(mission(page, "Practice")).toContainText("You have completed this practice set.");
  await page.goto("/chapter-1/day-1");
  await expect(page.getByRole("button", { name: "Completed" })).toHaveCount(2);
  await expect(page.getByRole("link", { name: "Continue to Codebook" })).toBeVisible();

  await page.goto("/chapter-1/day-1/codebook");
  await page.getByRole("button", { name: "Proceed to Tutor Hour" }).click();
  await expect(page).toHaveURL(/\/chapter-1\/day-1\/live-session$/);
  await expect(page.getByRole("heading", { name: "Greetings" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Ordering a drink" })).toBeVisible();

  // Until the live session's role-plays are done, day 2 is still locked, on My Journey as well.
  await page.goto("/progress");
  await expect(page.getByRole("link", { name: /^Day 1 — / })).toBeVisible();
  await expect(page.getByRole("link", { name: /^Continue: Day 1 — / })).toBeVisible();
  await expect(page.getByRole("link", { name: /Day 2/ })).toHaveCount(0);
  await page.goto("/chapter-1/day-2");
  await expect(page.getByText("Finish Day 1 first.")).toBeVisible();
  const locked = await page.request.put("/api/progress/chapter-1/day-2/story:read-story", {
    data: { status: "completed" },
    headers: { origin },
  });
  expect(locked.status()).toBe(409);
  expect((await locked.json()).error.message).toBe("Day 2 is locked. Finish Day 1 first.");

  // No tutor and no microphone: each role-play done alone, said aloud, completes its practice (a
  // bare status write does not), and with the last, day 1 is complete and day 2 opens.
  const bareRolePlay = await page.request.put("/api/progress/chapter-1/day-1/live-session:greeting-practice", {
    data: { status: "completed" },
    headers: { origin },
  });
  expect(bareRolePlay.status()).toBe(409);
  expect((await bareRolePlay.json()).error.code).toBe("SPEAKING_REQUIRED");
  await page.goto("/chapter-1/day-1/live-session");
  for (const rolePlay of DAY_ONE.liveSession!.blocks) await doRolePlayAloud(page, region(page, rolePlay.title));
  await page.goto("/chapter-1");
  await expect(page.getByText("Day 1 Mission")).toBeVisible();
  await page.getByRole("link", { name: /Day 2/ }).first().click();
  await expect(page).toHaveURL(/\/chapter-1\/day-2$/);
  await expect(page.getByRole("button", { name: "Mark as Complete" })).toBeEnabled();
  await page.getByRole("button", { name: "Mark as Complete" }).click();
  // Like Day 1's, the story ends by continuing to the day's Codebook.
  await expectToast(page, "Section Completed!", "Great job, you're making progress!");
  await page.getByRole("link", { name: "Continue to Codebook" }).click();
  await expect(page).toHaveURL(/\/chapter-1\/day-2\/codebook$/);
});

test("a visitor browses day 1 without saving, and is asked to sign in", async ({ page }) => {
  await page.goto("/chapter-1");
  await expect(page.getByRole("link", { name: /Sign up/ }).first()).toBeVisible();
  await page.goto("/chapter-1/day-1");
  await page.getByRole("button", { name: "Complete Section" }).first().click();
  await expectToast(page, "Hold on! You need to be signed in to save your progress.");
  await expect(page.getByRole("button", { name: "Complete Section" })).toHaveCount(2);
  await page.goto("/chapter-2");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Chapter 2: Exploring the Market");
  await expect(page.getByRole("main")).not.toContainText(/coming soon|under construction/i);
  await page.goto("/chapter-2/day-6");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("locked");
});

test("one sound at a time: the Codebook's dialogue recording and its line-by-line shadowing stop each other", async ({
  page,
}) => {
  await page.goto("/chapter-1/day-1/codebook");
  await expect(page.locator("main [aria-busy='true']")).toHaveCount(0);
  const recording = page.getByLabel(/^Dialogue recording:/);
  const isPaused = () => recording.evaluate((element: HTMLAudioElement) => element.paused);
  await recording.evaluate((element: HTMLAudioElement) => element.play());
  expect(await isPaused()).toBe(false);

  await page.getByRole("button", { name: "Shadow line by line" }).click();
  await expect(page.getByRole("button", { name: "Stop shadowing" })).toBeVisible();
  await expect.poll(isPaused).toBe(true);

  await recording.evaluate((element: HTMLAudioElement) => element.play());
  await expect(page.getByRole("button", { name: "Shadow line by line" })).toBeVisible();
  expect(await isPaused()).toBe(false);
});

test("a visitor studies the day 1 story: slower lines, English hidden, a word's meaning by keyboard", async ({
  page,
}) => {
  // Records the speed of every clip the page plays: the line players are not in the document.
  await page.addInitScript(() => {
    const played: { src: string; rate: number }[] = [];
    Object.assign(window, { played });
    const play = HTMLMediaElement.prototype.play;
    HTMLMediaElement.prototype.play = function (this: HTMLMediaElement) {
      played.push({ src: this.src, rate: this.playbackRate });
      return play.call(this);
    };
  });
  await page.goto("/chapter-1/day-1");
  const line = "Saya nak kopi-O satu.";
  const playLine = page.getByRole("button", { name: `Play: ${line}` });
  await expect(playLine).toBeEnabled(); // hydrated

  // The speed, by keyboard: arrow keys move through the choices (Space chooses the one focused).
  await expect(page.getByRole("radio", { name: "1x" })).toBeChecked();
  await page.getByRole("radio", { name: "1x" }).focus();
  await page.keyboard.press("ArrowRight");
  await expect(page.getByRole("radio", { name: "0.75x" })).toBeFocused();
  await page.keyboard.press("Space");
  await expect(page.getByRole("radio", { name: "0.75x" })).toBeChecked();
  await playLine.click();
  await expect(page.getByRole("button", { name: `Stop: ${line}` })).toBeVisible();
  const lastPlayed = () =>
    page.evaluate(() => (window as unknown as { played: { src: string; rate: number }[] }).played.at(-1));
  expect(await lastPlayed()).toEqual({ src: expect.stringContaining("/dialogue-5.mp3"), rate: 0.75 });
  // It ends by itself and plays again, at the same speed.
  await expect(playLine).toHaveAttribute("aria-pressed", "false", { timeout: 10_000 });
  await playLine.click();
  await expect(page.getByRole("button", { name: `Stop: ${line}` })).toBeVisible();
  expect(await lastPlayed()).toEqual({ src: expect.stringContaining("/dialogue-5.mp3"), rate: 0.75 });

  // The English goes, for screen readers too, and comes back.
  const english = page.getByRole("switch", { name: "Show English" });
  await expect(page.getByText("How much is it?", { exact: true })).toBeVisible();
  await english.focus();
  await page.keyboard.press("Space");
  await expect(english).not.toBeChecked();
  await expect(page.getByText("How much is it?", { exact: true })).toHaveCount(0);
  await expect(page.getByRole("main")).not.toContainText("Good morning, uncle. How are you?");

  // A word's meaning, by keyboard.
  const word = page.getByRole("button", { name: "kopi-O", exact: true });
  await word.focus();
  await page.keyboard.press("Enter");
  const meaning = page.getByRole("dialog", { name: "Meaning of kopi-O" });
  await expect(meaning).toBeVisible();
  await expect(meaning).toContainText("black coffee with sugar");
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((violation) => `${violation.id} (${violation.nodes.length})`)).toEqual([]);
  await page.keyboard.press("Escape");
  await expect(meaning).toHaveCount(0);
  await expect(word).toBeFocused();

  // The speed is kept for the visit.
  await page.reload();
  await expect(page.getByRole("radio", { name: "0.75x" })).toBeChecked();
});

type Theme = "light" | "dark";
const LAST = COURSE_DAYS.at(-1)!;
/** The course's last quiz: the last day's last practice set (its phrase cards may come after it). */
const LAST_QUIZ = LAST.day.tasks.findLast((task) => practiceSetOf(LAST.day, task.id))!.id;
const CHAPTERS = [...new Set(COURSE_DAYS.map(({ chapter }) => chapter))];

/** A signed-in learner in the theme, every day done but the course's last quiz, so every page opens and that quiz is there to answer. */
async function learnerWithCourseOpen(page: Page, theme: Theme) {
  await page.addInitScript((value) => window.localStorage.setItem("jalan-theme", value), theme);
  await page.goto("/");
  await signUpAndIn(page);
  // The account's theme wins over the device's once the app has read it (useAdoptAccountTheme): a
  // new account's "light" would turn a dark page light part-way through the checks below.
  const settings = await page.request.patch("/api/settings", {
    data: { theme },
    headers: { origin: new URL(page.url()).origin },
  });
  expect(settings.status()).toBe(200);
  for (const { chapter, day } of COURSE_DAYS) {
    await completeDayByApi(page, chapter.id, day.id, { except: day === LAST.day ? [LAST_QUIZ] : [] });
  }
}

/** Opens the page once it has loaded, written in full, and runs axe on it in the theme. */
async function expectNoViolations(page: Page, path: string, theme: Theme) {
  await page.goto(path);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByText("Loading…")).toHaveCount(0);
  await expect(page.locator("main [aria-busy='true']")).toHaveCount(0);
  // The whole course is written: no page is a placeholder.
  await expect(page.getByRole("main")).not.toContainText(/coming soon|under construction|on its way/i);
  const results = await new AxeBuilder({ page }).analyze();
  expect(await page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(theme === "dark");
  expect(results.violations.map((violation) => `${path}: ${violation.id} (${violation.nodes.length})`)).toEqual([]);
}

// Every course page, a test per chapter and theme: each has its own budget, a failure names its chapter,
// and the tests, each with its own learner, spread over the workers.
test.describe("accessibility", () => {
  test.describe.configure({ mode: "parallel" });
  for (const theme of ["light", "dark"] as const) {
    for (const chapter of CHAPTERS) {
      test(`axe finds no violations on chapter ${chapter.number}'s pages in the ${theme} theme`, async ({ page }) => {
        test.setTimeout(180_000);
        await learnerWithCourseOpen(page, theme);
        const pages = COURSE_DAYS.filter((entry) => entry.chapter === chapter).flatMap((entry) => [
          dayPath(entry),
          ...(entry.day.codebook ? [`${dayPath(entry)}/codebook`] : []),
          ...(entry.day.liveSession ? [`${dayPath(entry)}/live-session`] : []),
        ]);
        for (const path of [`/${chapter.id}`, ...pages]) await expectNoViolations(page, path, theme);
      });
    }

    test(`axe finds no violations on the learner's own pages and on an exercise's feedback in the ${theme} theme`, async ({
      page,
    }) => {
      test.setTimeout(180_000);
      await learnerWithCourseOpen(page, theme);
      // /review with every day's cards due, and the reminder email's unsubscribe page.
      for (const path of ["/progress", "/review", "/unsubscribe", "/settings", "/profile"]) {
        await expectNoViolations(page, path, theme);
      }
      // An exercise with its feedback shown: the answer, its clip and Continue.
      await page.goto(dayPath(LAST));
      await showFeedback(page, practiceItems(LAST.chapter.id, LAST.day.id, LAST_QUIZ));
      const feedback = await new AxeBuilder({ page }).analyze();
      expect(feedback.violations.map((violation) => `practice feedback: ${violation.id}`)).toEqual([]);
    });
  }
});
