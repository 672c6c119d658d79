import { expect, type Locator, type Page } from "@playwright/test";
import { sectionLines, storySections } from "#course/course";
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from "#scripts/chromium";
import { setRole } from "./database";
import { COURSE_DAYS, expectToast, FAST, person, playToEnd, recallCard, region, signUpAndIn } from "./learner";
import { answerPracticeSet, practiceItems } from "./practice";
import { test } from "./test";

// Chromium records from a fake microphone playing tests/fixtures/takes/selamat-pagi.wav (the "speak"
// project of playwright.config.ts), and grants it without asking.
const DAY_ONE = COURSE_DAYS[0]!.day;
const LISTEN = DAY_ONE.codebook!.blocks.find((block) => block.type === "listen-shadow")!;
const LINES = sectionLines(storySections(DAY_ONE).find((section) => section.id === LISTEN.sectionId)!);
const GREETING = DAY_ONE.liveSession!.blocks.find((block) => block.task.id === "live-session:greeting-practice")!;
const mission = <Type extends string>(type: Type) => DAY_ONE.codebook!.blocks.find((block) => block.type === type)!;
const NOTES = mission("video");
const CARDS = mission("vocabulary-cards");
const PRACTICE = mission("practice");

/** Records a take: one tap starts, a second stops, once the take has had time to hold some sound. */
async function record(page: Page, start: Locator, stop: Locator) {
  await start.click();
  await expect(stop).toBeVisible();
  await page.waitForTimeout(1500);
  await stop.click();
}

test("a learner records a line of the dialogue, hears it beside the model, rates it, sends it to a tutor, and finds it again", async ({
  page,
}) => {
  await page.goto("/");
  await signUpAndIn(page, "speaker");
  await page.goto("/chapter-1/day-1/codebook");
  const listen = region(page, LISTEN.title);
  await listen.getByRole("button", { name: "Say each line yourself" }).click();
  const panel = page.getByRole("region", { name: "Say each line" });
  const line = LINES[0]!;
  await expect(panel.getByText(`0 of ${LINES.length} lines said.`, { exact: false })).toBeVisible();

  await panel.getByRole("button", { name: `Listen: ${line.malay}` }).click();
  await expect(panel.getByRole("button", { name: `Listen: ${line.malay}` })).toHaveAttribute("aria-pressed", "false", {
    timeout: 20_000,
  });
  const uploaded = page.waitForResponse((response) => response.url().endsWith("/api/speaking/takes"));
  await record(
    page,
    panel.getByRole("button", { name: `Record: ${line.malay}` }),
    panel.getByRole("button", { name: `Stop recording: ${line.malay}` }),
  );
  const upload = await uploaded;
  expect(upload.status()).toBe(201);
  const { take } = await upload.json();
  expect(take.durationMs).toBeGreaterThan(1000);
  await expect(panel.getByText(`1 of ${LINES.length} lines said.`, { exact: false })).toBeVisible();

  // The take plays back from the server, after the model.
  const audio = await page.request.get(take.audio);
  expect(audio.status()).toBe(200);
  expect(audio.headers()["content-type"]).toMatch(/^audio\/(webm|mp4)$/);
  // The model's shape and the take's, drawn one above the other.
  await expect
    .poll(() =>
      panel.evaluate(
        (element) =>
          [...element.querySelectorAll("div.h-10")].filter((box) =>
            box.firstElementChild?.shadowRoot?.querySelector("canvas"),
          ).length,
      ),
    )
    .toBe(2);
  await panel.getByRole("button", { name: `Model, then you: ${line.malay}` }).click();
  await panel.getByRole("button", { name: "Good" }).first().click();
  await expect(panel.getByRole("button", { name: "Good" }).first()).toHaveAttribute("aria-pressed", "true");

  // Sent to a tutor: it waits in their queue.
  await panel.getByRole("button", { name: "Send my takes to a tutor" }).click();
  // Who will listen, as it is: this run's tutors may or may not have open hours yet.
  await expectToast(
    page,
    "Sent to a tutor",
    /A tutor will listen and rate each line\.|No tutor is taking learners yet|No tutor has open hours/,
  );
  await expect(panel.getByRole("button", { name: "Send my takes to a tutor" })).toBeHidden();

  await page.reload();
  await region(page, LISTEN.title).getByRole("button", { name: "Say each line yourself" }).click();
  await expect(
    page.getByRole("region", { name: "Say each line" }).getByRole("button", { name: `Record again: ${line.malay}` }),
  ).toBeVisible();
});

/**
 * A role-play done alone with the microphone, in the page's region for it: each of the other
 * character's lines heard, each of the learner's turns recorded and compared with the model, then sent.
 */
async function doRolePlayRecorded(page: Page, block: Locator) {
  await block.getByRole("button", { name: "Practise without a tutor" }).click();
  const send = block.getByRole("button", { name: "Send and complete" });
  const yourTurn = block.getByRole("button", { name: "Your turn", exact: true });
  const recordLine = block.getByRole("button", { name: /^Record (your line|again)$/ });
  for (let turn = 0; !(await send.isVisible()); turn++) {
    expect(turn).toBeLessThan(40);
    await expect(yourTurn.or(recordLine)).toBeVisible();
    if (await yourTurn.isVisible()) {
      await yourTurn.click();
      continue;
    }
    const uploaded = page.waitForResponse((response) => response.url().endsWith("/api/speaking/takes"));
    await record(page, recordLine, block.getByRole("button", { name: "Stop", exact: true }));
    expect((await uploaded).status()).toBe(201);
    await expect(block.getByRole("button", { name: "Model, then you" })).toBeVisible();
    await block.getByRole("button", { name: "Next" }).click();
  }
  await send.click();
  await expectToast(page, "Role-play sent", "This practice is complete, and your takes wait for a tutor.");
  await expect(block.getByText("Completed")).toBeVisible();
  // The panel says it was sent, and nothing is left to say.
  await expect(block.getByText("Sent, and this practice is complete.")).toBeVisible();
  await expect(block.getByText(/Say every line before you send it/)).toHaveCount(0);
}

test("a new learner finishes day 1 alone with their microphone and day 2 opens; a tutor rates a line 2 from the queue, and the learner sees it and gets it in review", async ({
  browser,
}) => {
  test.setTimeout(360_000);
  const learner = await person(browser, "Suria", { lastName: "Speak" });
  const { page } = learner;

  // The story: both sections completed.
  await page.goto(`/chapter-1/day-1${FAST}`);
  for (let left = storySections(DAY_ONE).length; left > 0; left -= 1) {
    await page.getByRole("button", { name: "Complete Section" }).first().click();
    await expect(page.getByRole("button", { name: "Completed" })).toHaveCount(storySections(DAY_ONE).length - left + 1);
  }
  await page.getByRole("link", { name: "Continue to Codebook" }).click();
  await expect(page).toHaveURL(/\/chapter-1\/day-1\/codebook$/);

  // Listen and shadow: the dialogue heard to its end, then each of its lines recorded.
  await page.goto(`/chapter-1/day-1/codebook${FAST}`);
  await expect(page.locator("main [aria-busy='true']")).toHaveCount(0);
  const listen = region(page, LISTEN.title);
  await playToEnd(page, "audio");
  const panel = listen.getByRole("region", { name: "Say each line" });
  const lines = panel.getByRole("listitem");
  await expect(lines).toHaveCount(LINES.length);
  for (let index = 0; index < LINES.length; index += 1) {
    const line = lines.nth(index);
    const uploaded = page.waitForResponse((response) => response.url().endsWith("/api/speaking/takes"));
    await record(
      page,
      line.getByRole("button", { name: /^Record: / }),
      line.getByRole("button", { name: /^Stop recording: / }),
    );
    expect((await uploaded).status()).toBe(201);
    await expect(panel.getByText(`${index + 1} of ${LINES.length} lines said.`, { exact: false })).toBeVisible();
  }
  await expect(listen).toContainText("Completed");

  // The rest of the Codebook: the notes watched, every card checked, the practice answered.
  await playToEnd(page, "video");
  await expect(region(page, NOTES.title)).toContainText("Completed", { timeout: 20_000 });
  const cards = page.getByRole("button", { name: /^Flip card/ });
  for (let index = 0; index < DAY_ONE.vocabulary.length; index += 1) await recallCard(page, cards.nth(index));
  await expect(region(page, CARDS.title)).toContainText("Completed");
  await answerPracticeSet(page, practiceItems("chapter-1", "day-1", PRACTICE.task.id));
  await expect(region(page, PRACTICE.title)).toContainText("Completed");
  await page.getByRole("button", { name: "Proceed to Tutor Hour" }).click();
  await expect(page).toHaveURL(/\/chapter-1\/day-1\/live-session$/);

  // Both role-plays done alone, each line recorded: day 1 is complete and day 2 opens, with no staff action.
  for (const rolePlay of DAY_ONE.liveSession!.blocks) await doRolePlayRecorded(page, region(page, rolePlay.title));
  // The page where the day was finished says so, and one tap goes on to day 2.
  const finished = page.getByRole("dialog", { name: "Day 1 complete" });
  await expect(finished).toBeVisible();
  await finished.getByRole("link", { name: "Go to Day 2" }).click();
  await expect(page).toHaveURL(/\/chapter-1\/day-2$/);
  await expect(page.getByRole("heading", { level: 1 })).toContainText(`Day 2: ${COURSE_DAYS[1]!.day.subtopic}`);
  await page.goto("/chapter-1/day-1/live-session");
  await expect(page.getByText("2 sets of recordings are waiting for a tutor to listen.")).toBeVisible();

  // A tutor finds the greetings in the queue and rates its first line 2, the others 5.
  const tutor = await person(browser, "Farid", { lastName: "Listens" });
  await setRole(tutor.email, "Tutor");
  await tutor.page.goto("/tutor");
  const queue = tutor.page.getByRole("region", { name: "Waiting to be heard" });
  const entry = queue.getByRole("listitem").filter({ hasText: learner.name }).filter({ hasText: GREETING.title });
  await expect(entry).toContainText(/Day 1 — Greetings · \d+ lines? · waiting \d+ minutes?/);
  await entry.getByRole("button", { name: "Listen and rate" }).click();
  const rated = entry.getByRole("group", { name: /^Line \d+:/ });
  await expect(rated.first()).toBeVisible();
  const firstLine = (await rated.first().locator("legend span").textContent())!;
  for (let index = 0; index < (await rated.count()); index += 1) {
    await rated
      .nth(index)
      .getByRole("radio", { name: index === 0 ? "2" : "5", exact: true })
      .click();
  }
  await rated.first().getByLabel("Comment on line 1").fill("Hold the last vowel a little longer.");
  await entry.getByRole("button", { name: "Send ratings" }).click();
  await expectToast(tutor.page, "Ratings sent", "The learner has been told.");

  // The learner is told, sees the rating on the day, and the line comes first in their review, from the tutor.
  await page.goto("/progress");
  await expect(page.getByRole("button", { name: "Notices, 1 unread" }).first()).toBeVisible();
  await page.goto("/chapter-1/day-1/live-session");
  const heard = page.getByRole("region", { name: "What your tutor heard" });
  const ratedLine = heard.getByRole("listitem").filter({ hasText: firstLine });
  await expect(ratedLine).toContainText("2 of 5 — Hold the last vowel a little longer.");
  await page.goto("/review");
  await expect(page.getByText("From your tutor")).toBeVisible();
  const phrase = GREETING.phrases.find((each) => each.malay === firstLine)!;
  await expect(page.locator("form[data-item]")).toContainText(
    new RegExp(`${escaped(phrase.malay)}|${escaped(phrase.english)}`),
  );
});

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

test("a learner with no microphone, and one who refused it, are told what is wrong and can say the lines aloud", async ({
  playwright,
}) => {
  // Chromium without a microphone; and with one whose use nobody granted (no fake prompt to accept).
  const cases = [
    {
      flags: [],
      told: "No microphone was found. Connect one, or turn on “I can't speak now” and say the lines aloud.",
    },
    {
      flags: ["--use-fake-device-for-media-stream"],
      told: "Jalan may not use your microphone. Allow it in your browser's site settings, or turn on “I can't speak now” and say the lines aloud.",
    },
  ];
  for (const { flags, told } of cases) {
    const browser = await playwright.chromium.launch({
      executablePath: CHROMIUM_PATH,
      args: [...CHROMIUM_FLAGS, ...flags],
    });
    try {
      const page = await (await browser.newContext({ baseURL: test.info().project.use.baseURL })).newPage();
      await page.goto("/");
      await signUpAndIn(page, "no-microphone");
      await page.goto("/chapter-1/day-1/codebook");
      await region(page, LISTEN.title).getByRole("button", { name: "Say each line yourself" }).click();
      const panel = page.getByRole("region", { name: "Say each line" });
      await panel.getByRole("button", { name: `Record: ${LINES[0]!.malay}` }).click();
      await expect(panel.getByRole("alert")).toHaveText(told);
      // Nothing was recorded or sent; the lines can be said aloud instead.
      await panel.getByRole("switch", { name: "I can't speak now" }).click();
      // Switched to saying the lines aloud, the alert has done its work and goes.
      await expect(panel.getByRole("alert")).toHaveCount(0);
      await panel.getByRole("button", { name: `I said it aloud: ${LINES[0]!.malay}` }).click();
      await expect(panel.getByText(`0 of ${LINES.length} lines said.`, { exact: false })).toBeVisible();
    } finally {
      await browser.close();
    }
  }
});

test("a take recorded offline waits in the page and goes by itself once back online; one that could not be sent is sent again; one the server refuses says why and the line keeps its earlier take", async ({
  page,
  context,
}) => {
  await page.goto("/");
  await signUpAndIn(page, "offline");
  await page.goto("/chapter-1/day-1/codebook");
  await region(page, LISTEN.title).getByRole("button", { name: "Say each line yourself" }).click();
  const panel = page.getByRole("region", { name: "Say each line" });
  const line = LINES[0]!;
  await expect(panel.getByRole("switch", { name: "I can't speak now" })).toBeEnabled();

  // Offline: the take waits in the page, saying so, and goes by itself once the browser is back online.
  await context.setOffline(true);
  await record(
    page,
    panel.getByRole("button", { name: `Record: ${line.malay}` }),
    panel.getByRole("button", { name: `Stop recording: ${line.malay}` }),
  );
  const waits = panel.getByText("You are offline: this take waits here and goes once you are back online.");
  await expect(waits).toBeVisible();
  let uploaded = page.waitForResponse((response) => response.url().endsWith("/api/speaking/takes"));
  await context.setOffline(false);
  expect((await uploaded).status()).toBe(201);
  await expect(waits).toBeHidden();
  const again = panel.getByRole("button", { name: `Record again: ${line.malay}` });
  await expect(again).toBeVisible();

  // A take that could not reach the server is kept in the page, to send again.
  await page.route("**/api/speaking/takes", (route) => route.abort("connectionfailed"), { times: 1 });
  await record(page, again, panel.getByRole("button", { name: `Stop recording: ${line.malay}` }));
  await expectToast(
    page,
    "Your take was not saved",
    "Jalan could not reach the server. It is kept here: send it again.",
  );
  uploaded = page.waitForResponse((response) => response.url().endsWith("/api/speaking/takes"));
  await panel.getByRole("button", { name: "Send the take again" }).click();
  expect((await uploaded).status()).toBe(201);
  await expect(panel.getByRole("button", { name: "Send the take again" })).toBeHidden();
  const sendAgain = panel.getByRole("button", { name: "Send the take again" });
  const { take: kept } = (await (await page.request.get("/api/speaking/days/chapter-1/day-1")).json()).lines.find(
    (each: { lineId: string }) => each.lineId === line.id,
  );

  // The next take reaches the server larger than 1 MB (padded on its way): refused, and not kept to send again.
  await page.route("**/api/speaking/takes", async (route) => {
    const boundary = "----oversized-take";
    const part = (name: string, value: string) =>
      `--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    const body = Buffer.concat([
      Buffer.from(
        part("chapterId", "chapter-1") +
          part("dayId", "day-1") +
          part("lineId", line.id) +
          `--${boundary}\r\ncontent-disposition: form-data; name="take"; filename="take.webm"\r\ncontent-type: audio/webm\r\n\r\n`,
      ),
      Buffer.alloc(1024 * 1024 + 1, 1),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    await route.continue({
      postData: body,
      headers: { ...route.request().headers(), "content-type": `multipart/form-data; boundary=${boundary}` },
    });
  });
  const refused = page.waitForResponse((response) => response.url().endsWith("/api/speaking/takes"));
  await record(page, again, panel.getByRole("button", { name: `Stop recording: ${line.malay}` }));
  expect((await refused).status()).toBe(413);
  await expectToast(
    page,
    "Your take was not saved",
    "The recording is larger than 1 MB. Please record a shorter take. Your earlier take of the line is kept.",
  );
  await expect(sendAgain).toBeHidden();
  const { take: after } = (await (await page.request.get("/api/speaking/days/chapter-1/day-1")).json()).lines.find(
    (each: { lineId: string }) => each.lineId === line.id,
  );
  expect(after.id).toBe(kept.id);
  expect((await page.request.get(kept.audio)).status()).toBe(200);
});
