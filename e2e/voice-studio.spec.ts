import { expect, type Locator, type Page } from "@playwright/test";
import { courseAudioPath, daySpokenItems } from "#course/course";
import type { PublishedClips } from "#server/modules/studio/studio.contract";
import { onlyReviewCardDue, setRole } from "./database";
import { COURSE_DAYS, completeDayByApi, expectToast, person } from "./learner";
import { test } from "./test";

// Chromium records from a fake microphone saying "Selamat pagi, pak cik." over and over (the "speak"
// project of playwright.config.ts). A page can ask for a silent microphone instead (see silentOnAsk).
const { chapter, day } = COURSE_DAYS[0]!;
const CHARACTER = "Pak Cik Ali";
const SPOKEN = daySpokenItems(chapter, day).filter(
  (item, index, all) => all.findIndex((each) => each.id === item.id) === index,
);
const CHARACTER_LINES = SPOKEN.filter((item) => item.speaker === CHARACTER);
const CARD = day.vocabulary.find((entry) => entry.id === "selamat-pagi")!;
const STORY_LINE = CHARACTER_LINES[0]!;
const PARTNER_TURN = CHARACTER_LINES.find((line) => line.id.startsWith("rp-greet-"))!;
const pathOf = (id: string) => courseAudioPath(chapter.id, day.id, id);

/** The page's microphone answers silence while `window.jalanSilentMicrophone` is true. */
async function silentOnAsk(page: Page) {
  await page.addInitScript(() => {
    const devices = navigator.mediaDevices;
    const real = devices.getUserMedia.bind(devices);
    devices.getUserMedia = async (constraints) => {
      if (!(window as { jalanSilentMicrophone?: boolean }).jalanSilentMicrophone) return real(constraints);
      // Digital silence, sent as frames like a microphone's: a muted tone into a stream.
      const context = new AudioContext();
      const muted = context.createGain();
      muted.gain.value = 0;
      const tone = context.createOscillator();
      const stream = context.createMediaStreamDestination();
      tone.connect(muted).connect(stream);
      tone.start();
      await context.resume();
      return stream.stream;
    };
  });
}
const silentMicrophone = (page: Page, on: boolean) =>
  page.evaluate((value) => {
    (window as { jalanSilentMicrophone?: boolean }).jalanSilentMicrophone = value;
  }, on);

/** A line's row in the studio, by its Malay. */
const lineRow = (page: Page, malay: string) =>
  page.getByRole("list", { name: "Lines" }).getByRole("article", { name: malay, exact: true });

/**
 * How long to record a line for: the fake voice says its phrase with short pauses, so a longer line
 * takes a longer recording to be as long as the line takes to say (the take's "short" check).
 */
const recordingMs = (malay: string) => Math.min(5000, Math.max(2400, malay.split(/\s+/).length * 550));

/** Records the selected line with the R key for as long as it takes to say, then saves the take. */
async function recordWithKey(page: Page, row: Locator, malay: string) {
  await page.keyboard.press("r");
  await expect(row.getByRole("button", { name: "Stop recording" })).toBeVisible();
  await expect(page.getByRole("meter", { name: "Input level" })).toBeVisible();
  await page.waitForTimeout(recordingMs(malay));
  await page.keyboard.press("r");
  await row.getByRole("button", { name: "Save take" }).click();
}

const inReview = (row: Locator) =>
  expect(row.getByText(/^In review: it passed its checks/)).toBeVisible({ timeout: 30_000 });

async function published(page: Page): Promise<PublishedClips> {
  return (await page.request.get("/api/studio/published")).json();
}

/** Waits until the published list holds every path in `paths` (or, `none`, none of them). */
async function untilPublished(page: Page, paths: string[], none = false) {
  await expect
    .poll(
      async () => {
        const clips = (await published(page)).clips;
        // The paths not yet as asked: missing from the list, or (none) still in it.
        return paths.filter((path) => (clips[path] !== undefined) === none).length;
      },
      { timeout: 60_000 },
    )
    .toBe(0);
}

/** The URL the page fetched while `act` ran that matches `pattern`. */
async function fetchedWhile(page: Page, pattern: RegExp, act: () => Promise<unknown>) {
  const request = page.waitForRequest((each) => pattern.test(new URL(each.url()).pathname));
  await act();
  return new URL((await request).url()).pathname;
}

test("a voice records a day of Pak Cik Ali's lines, fixes a silent take, another voice approves them, and the learner hears them on the story, in review and in a role-play until the voice withdraws", async ({
  browser,
}) => {
  test.setTimeout(8 * 60_000);
  const admin = await person(browser, "Siti", { lastName: "Admin" });
  await setRole(admin.email, "Admin");
  const aina = await person(browser, "Aina", { lastName: "Voice" });
  const hafiz = await person(browser, "Hafiz", { lastName: "Voice" });
  for (const voice of [aina, hafiz]) await setRole(voice.email, "Tutor");

  // The Admin names both voices; each gives consent in Settings.
  for (const [voice, accent] of [
    [aina, "kuala-lumpur"],
    [hafiz, "johor"],
  ] as const) {
    const found = await (await admin.page.request.get(`/api/users?search=${encodeURIComponent(voice.email)}`)).json();
    const granted = await admin.page.request.post("/api/voices", {
      headers: { origin: admin.origin },
      data: { userId: found.users[0].id, creditedName: voice.name.split(" ")[0], accent },
    });
    expect(granted.status()).toBe(201);
    await voice.page.goto("/settings");
    await voice.page.getByRole("button", { name: "Give consent" }).click();
    await expect(voice.page.getByRole("button", { name: "Withdraw consent" })).toBeVisible();
  }

  // Aina records Pak Cik Ali's lines of day 1. The first take is silent and fails its check.
  const { page } = aina;
  await silentOnAsk(page);
  await page.goto("/studio");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await page.getByLabel("Speaker").selectOption(CHARACTER);
  await expect(page.getByRole("list", { name: "Lines" }).getByRole("article")).toHaveCount(CHARACTER_LINES.length);
  const first = lineRow(page, CHARACTER_LINES[0]!.malay);
  await expect(first).toHaveAttribute("aria-current", "true");
  await page.getByRole("heading", { level: 1 }).click();
  await silentMicrophone(page, true);
  await recordWithKey(page, first, CHARACTER_LINES[0]!.malay);
  await expect(first.getByRole("list", { name: "Failed checks" })).toContainText(/silence/i, { timeout: 30_000 });
  await silentMicrophone(page, false);
  await first.getByRole("button", { name: "Record again" }).click();
  await page.waitForTimeout(recordingMs(CHARACTER_LINES[0]!.malay));
  await page.keyboard.press("r");
  await first.getByRole("button", { name: "Save take" }).click();
  await inReview(first);

  // The rest in a row: each saved take selects the next line.
  await page.getByRole("button", { name: `Record all of ${CHARACTER}'s lines` }).click();
  await lineRow(page, CHARACTER_LINES[1]!.malay).click();
  for (const line of CHARACTER_LINES.slice(1)) {
    const row = lineRow(page, line.malay);
    await expect(row).toHaveAttribute("aria-current", "true");
    await recordWithKey(page, row, line.malay);
    await inReview(row);
  }
  await expectToast(page, "All lines recorded");
  // And one phrase card, which the learner's review plays.
  await page.getByLabel("Speaker").selectOption({ index: 0 });
  const card = page
    .getByRole("list", { name: "Lines" })
    .getByRole("article", { name: CARD.malay, exact: true })
    .filter({ hasText: CARD.english })
    .first();
  await card.getByRole("button", { name: "Record" }).click();
  await page.waitForTimeout(recordingMs(CARD.malay));
  await card.getByRole("button", { name: "Stop recording" }).click();
  await card.getByRole("button", { name: "Save take" }).click();
  await inReview(card);

  // Hafiz approves every take waiting; Aina never could approve her own.
  const recorded = CHARACTER_LINES.length + 1;
  await page.getByRole("tab", { name: /Review/ }).click();
  const ownList = page.getByRole("list", { name: "Takes waiting for review" });
  await expect(ownList.getByRole("article")).toHaveCount(recorded);
  await expect(ownList.getByRole("button", { name: "Approve" })).toHaveCount(0);
  await hafiz.page.goto("/studio");
  await hafiz.page.getByRole("tab", { name: /Review/ }).click();
  const waiting = hafiz.page.getByRole("list", { name: "Takes waiting for review" });
  for (let left = recorded; left > 0; left -= 1) {
    await expect(waiting.getByRole("article")).toHaveCount(left);
    await waiting.getByRole("article").first().getByRole("button", { name: "Approve" }).click();
  }
  await expect(waiting.getByRole("article")).toHaveCount(0);
  const linePaths = [...CHARACTER_LINES.map((line) => pathOf(line.id)), pathOf(CARD.id)];
  await untilPublished(hafiz.page, linePaths);

  // The learner hears the native clips: its URL is the take's, its bytes the clip the reviewer heard.
  const learner = await person(browser, "Alex", { lastName: "Learner" });
  const clips = (await published(learner.page)).clips;
  const sameBytes = async (url: string) => {
    const takeId = url.split("/").at(-1)!;
    const heard = await hafiz.page.request.get(`/api/studio/takes/${takeId}/audio?form=clip`);
    const played = await learner.page.request.get(url);
    expect(played.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(Buffer.from(await played.body())).toEqual(Buffer.from(await heard.body()));
  };

  await learner.page.goto(`/${chapter.id}/${day.id}`);
  const storyClip = await fetchedWhile(learner.page, /^\/api\/studio\/clips\//, () =>
    learner.page
      .getByRole("button", { name: `Play: ${STORY_LINE.malay}` })
      .first()
      .click(),
  );
  expect(storyClip).toBe(clips[pathOf(STORY_LINE.id)]!.url);
  await sameBytes(storyClip);
  await expect(learner.page.getByText(/Voices: Aina \(Kuala Lumpur/)).toBeVisible();

  await learner.page.goto(`/${chapter.id}/${day.id}/live-session`);
  const rolePlay = learner.page.getByRole("region", { name: "Greetings", exact: true });
  const turnClip = await fetchedWhile(learner.page, /^\/api\/studio\/clips\//, () =>
    rolePlay.getByRole("button", { name: "Practise without a tutor" }).click(),
  );
  expect(turnClip).toBe(clips[pathOf(PARTNER_TURN.id)]!.url);
  await sameBytes(turnClip);

  // Day 1 done: its phrases' cards are made as the review is first read; one of them, heard, is due.
  await completeDayByApi(learner.page, chapter.id, day.id);
  expect((await learner.page.request.get("/api/review")).status()).toBe(200);
  await onlyReviewCardDue(learner.email, CARD.id, "listen");
  await learner.page.goto("/review");
  const reviewClip = await fetchedWhile(learner.page, /^\/api\/studio\/clips\//, () =>
    learner.page.getByRole("button", { name: "Play: the recording" }).click(),
  );
  expect(reviewClip).toBe(clips[pathOf(CARD.id)]!.url);
  await sameBytes(reviewClip);

  // Aina withdraws her consent: her clips come down, and the learner hears espeak again.
  await aina.page.goto("/settings");
  await aina.page.getByRole("button", { name: "Withdraw consent" }).click();
  await aina.page.getByRole("alertdialog").getByRole("button", { name: "Withdraw consent" }).click();
  await expect(aina.page.getByRole("button", { name: "Give consent" })).toBeVisible();
  await untilPublished(learner.page, linePaths, true);
  await learner.page.goto(`/${chapter.id}/${day.id}`);
  const espeak = await fetchedWhile(learner.page, /^\/media\/course\//, () =>
    learner.page
      .getByRole("button", { name: `Play: ${STORY_LINE.malay}` })
      .first()
      .click(),
  );
  expect(espeak).toBe(pathOf(STORY_LINE.id));
  await expect(learner.page.getByText(/Voices: espeak/)).toBeVisible();
});
