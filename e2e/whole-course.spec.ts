import { expect, type Page } from "@playwright/test";
import { type Chapter, type Day, storySections } from "#course/course";
import { completeTask } from "#tests/complete-day";
import {
  COURSE_DAYS,
  completeDayByApi,
  dayPath,
  expectToast,
  FAST,
  playToEnd,
  recallCard,
  region,
  sayEachLineAloud,
  sendFrom,
  signUpAndIn,
} from "./learner";
import { answerPracticeSet, COURSE, practiceItems } from "./practice";
import { test } from "./test";

type CourseDay = { chapter: Chapter; day: Day };

/** The story's sections with their completion buttons, each completed as a learner does. */
async function completeStory(page: Page, { chapter, day }: CourseDay) {
  for (const section of storySections(day)) {
    if (!section.task) continue;
    await page.goto(`${dayPath({ chapter, day })}${FAST}`);
    await expect(page.locator("main [aria-busy='true']")).toHaveCount(0);
    const button = region(page, section.title).getByRole("button", { name: section.completeLabel });
    await button.click();
    if (day.story?.next === "codebook") {
      await expectToast(page, "Section Completed!");
      await expect(region(page, section.title).getByRole("button", { name: "Completed" })).toBeDisabled();
    } else {
      // A story that ends on My Journey (chapter 2's days): Mark as Complete goes back there.
      await expect(page).toHaveURL(/\/progress$/);
    }
  }
}

/** The Codebook at high speed: listen to the end, watch to the end, flip every card, answer the practice set. */
async function studyCodebook(page: Page, { chapter, day }: CourseDay) {
  await doMissions(page, { chapter, day });
  await page.getByRole("button", { name: "Proceed to Tutor Hour" }).click();
  await expect(page).toHaveURL(new RegExp(`${dayPath({ chapter, day })}/live-session$`));
  for (const rolePlay of day.liveSession?.blocks ?? []) {
    await expect(page.getByRole("heading", { name: rolePlay.title, exact: true })).toBeVisible();
  }
}

/** Every mission of a day's Codebook, in order (a review day's Codebook is its phrase cards alone). */
async function doMissions(page: Page, { chapter, day }: CourseDay) {
  await page.goto(`${dayPath({ chapter, day })}/codebook${FAST}`);
  await expect(page.locator("main [aria-busy='true']")).toHaveCount(0);
  for (const mission of day.codebook?.blocks ?? []) {
    const card = region(page, mission.title);
    await expect(card).not.toContainText("Completed");
    switch (mission.type) {
      case "listen-shadow":
        // Heard to the end, then each line said: aloud, as a learner without a microphone does.
        await playToEnd(page, "audio");
        await sayEachLineAloud(card.getByRole("region", { name: "Say each line" }));
        break;
      case "video":
        await expect(page.locator("video track")).toHaveAttribute("kind", "captions");
        await playToEnd(page, "video");
        break;
      case "vocabulary-cards": {
        const cards = card.getByRole("button", { name: /^Flip card/ });
        await expect(cards).toHaveCount(day.vocabulary.length);
        for (let index = 0; index < day.vocabulary.length; index += 1) await recallCard(card, cards.nth(index));
        await expect(card).toContainText(`${day.vocabulary.length} of ${day.vocabulary.length} checked`);
        break;
      }
      case "practice":
        await answerPracticeSet(page, practiceItems(chapter.id, day.id, mission.task.id));
        break;
    }
    await expect(card).toContainText("Completed", { timeout: 20_000 });
  }
}

/** A review day: its conversation at natural speed to the end, its Culture Corner, and its quiz. */
async function studyReviewDay(page: Page, { chapter, day }: CourseDay) {
  await page.goto(`${dayPath({ chapter, day })}${FAST}`);
  await expect(page.locator("main [aria-busy='true']")).toHaveCount(0);
  await playToEnd(page, "audio");
  for (const block of day.story?.blocks ?? []) {
    if (block.type === "culture-note") await expect(page.getByRole("heading", { name: block.title })).toBeVisible();
    if (block.type === "practice") {
      await answerPracticeSet(page, practiceItems(chapter.id, day.id, block.task.id));
      await expect(region(page, block.title)).toContainText("Practice complete");
    }
  }
}

/** The vocabulary bar of a chapter on My Journey. */
async function expectVocabulary(page: Page, chapter: Chapter, learned: number) {
  const total = chapter.days.reduce((sum, day) => sum + day.vocabulary.length, 0);
  await page.goto("/progress");
  const bar = page.getByRole("progressbar", { name: `Vocabulary learned: ${learned} / ${total}` });
  await expect(bar).toHaveAttribute("aria-valuenow", String(learned));
  await expect(bar).toHaveAttribute("aria-valuemax", String(total));
}

async function expectLocked(page: Page, next: CourseDay, blockedBy: Day) {
  await page.goto(dayPath(next));
  await expect(page.getByRole("heading", { level: 1 })).toContainText(`Day ${next.day.number} is locked`);
  await expect(page.getByText(`Finish Day ${blockedBy.number} first.`)).toBeVisible();
}

/** The phrases a chapter's days before `index` (in COURSE_DAYS) taught: what its vocabulary bar holds as that day starts. */
const learnedBefore = (chapter: Chapter, index: number) =>
  COURSE_DAYS.slice(0, index)
    .filter((entry) => entry.chapter === chapter)
    .reduce((sum, entry) => sum + entry.day.vocabulary.length, 0);

/**
 * A teaching day in the browser: its story, then its Codebook. Everything but the live session is
 * done, so the next day waits for its role-plays, done here alone through the API (e2e/course.spec.ts
 * and e2e/speak.spec.ts do them in the page). Answers the chapter's phrases learned after it.
 */
async function studyTeachingDay(page: Page, current: CourseDay, next: CourseDay | undefined, learned: number) {
  const { chapter, day } = current;
  await completeStory(page, current);
  await studyCodebook(page, current);
  if (next) await expectLocked(page, next, day);
  for (const rolePlay of day.liveSession?.blocks ?? []) {
    const taskId = rolePlay.task.id;
    expect(await completeTask(sendFrom(page), COURSE, { chapterId: chapter.id, dayId: day.id, taskId })).toBe("done");
  }
  await expectVocabulary(page, chapter, learned + day.vocabulary.length);
  return learned + day.vocabulary.length;
}

/**
 * A review day in the browser: until its quiz is answered it holds the next day back; then its own
 * new words, if it has any, are the last thing holding it back. It leads on to the next chapter, or
 * back to My Journey after the last. Answers the chapter's phrases learned after it.
 */
async function studyReview(page: Page, current: CourseDay, next: CourseDay | undefined, learned: number) {
  const { day } = current;
  if (next) await expectLocked(page, next, day);
  await studyReviewDay(page, current);
  if (day.codebook) {
    // The review day's story leads on to their phrase cards; the Codebook then leads on to the next chapter.
    await page.getByRole("link", { name: "Continue to Codebook" }).click();
    await expect(page).toHaveURL(new RegExp(`${dayPath(current)}/codebook$`));
    if (next) await expectLocked(page, next, day);
    await doMissions(page, current);
    learned += day.vocabulary.length;
    await expectVocabulary(page, current.chapter, learned);
    await page.goto(`${dayPath(current)}/codebook${FAST}`);
    await expect(page.locator("main [aria-busy='true']")).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Proceed to Tutor Hour" })).toHaveCount(0);
  }
  if (next) {
    await page.getByRole("link", { name: `Go to Chapter ${next.chapter.number}` }).click();
    await expect(page).toHaveURL(new RegExp(`/${next.chapter.id}$`));
  } else {
    await page.getByRole("link", { name: "Back to My Journey" }).click();
    await expect(page).toHaveURL(/\/progress$/);
  }
  return learned;
}

// The course day by day, each day its own test so that the days share out among the workers: a
// learner has every earlier day done through the API (tests/complete-day.ts, as a learner's
// requests do it), then goes through the day in the browser, and the next day opens only once it is
// done. The last day of a chapter has taught every phrase of the chapter.
for (const [index, current] of COURSE_DAYS.entries()) {
  const { chapter, day } = current;
  const next = COURSE_DAYS[index + 1];
  test(`chapter ${chapter.number}, day ${day.number} (${day.subtopic}): a learner goes through it after the days before, and the next day opens only once it is done`, async ({
    page,
  }) => {
    test.setTimeout(4 * 60_000);
    await page.goto("/");
    await signUpAndIn(page, `day-${day.number}`);
    for (const earlier of COURSE_DAYS.slice(0, index)) await completeDayByApi(page, earlier.chapter.id, earlier.day.id);
    const before = learnedBefore(chapter, index);
    const learned = day.liveSession
      ? await studyTeachingDay(page, current, next, before)
      : await studyReview(page, current, next, before);
    if (next) {
      await page.goto(dayPath(next));
      await expect(page.getByRole("heading", { level: 1 })).toContainText(
        `Day ${next.day.number}: ${next.day.subtopic}`,
      );
    }
    if (next?.chapter !== chapter) {
      // Every phrase of the chapter is learned: the bar stands at the chapter's total.
      expect(learned).toBe(chapter.days.reduce((sum, entry) => sum + entry.vocabulary.length, 0));
      await expectVocabulary(page, chapter, learned);
    }
  });
}
