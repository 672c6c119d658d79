import { expect, type Locator, type Page, test } from "@playwright/test";
import { sectionLines, storySections } from "#course/course";
import { COURSE_DAYS, expectToast, region, signUpAndIn } from "./learner";

// Chromium records from a fake microphone playing tests/fixtures/takes/selamat-pagi.wav (the "speak"
// project of playwright.config.ts), and grants it without asking.
const DAY_ONE = COURSE_DAYS[0]!.day;
const LISTEN = DAY_ONE.codebook!.blocks.find((block) => block.type === "listen-shadow")!;
const LINES = sectionLines(storySections(DAY_ONE).find((section) => section.id === LISTEN.sectionId)!);
const GREETING = DAY_ONE.liveSession!.blocks.find((block) => block.task.id === "live-session:greeting-practice")!;

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
  await panel.getByRole("button", { name: `Compare with the model: ${line.malay}` }).click();
  await panel.getByRole("button", { name: "Good" }).first().click();
  await expect(panel.getByRole("button", { name: "Good" }).first()).toHaveAttribute("aria-pressed", "true");

  // Sent to a tutor: it waits in their queue.
  await panel.getByRole("button", { name: "Send my takes to a tutor" }).click();
  await expectToast(page, "Sent to a tutor", "A tutor will listen and rate each line.");
  await expect(panel.getByRole("button", { name: "Send my takes to a tutor" })).toBeHidden();

  await page.reload();
  await region(page, LISTEN.title).getByRole("button", { name: "Say each line yourself" }).click();
  await expect(
    page.getByRole("region", { name: "Say each line" }).getByRole("button", { name: `Record again: ${line.malay}` }),
  ).toBeVisible();
});

test("a learner does the greetings role-play alone with their microphone and sends it", async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto("/");
  await signUpAndIn(page, "solo");
  await page.goto("/chapter-1/day-1/live-session");
  const block = region(page, GREETING.title);
  await block.getByRole("button", { name: "Practise without a tutor" }).click();
  const send = block.getByRole("button", { name: "Send and complete" });
  const yourTurn = block.getByRole("button", { name: "Your turn" });
  const recordLine = block.getByRole("button", { name: "Record your line" });
  for (let turn = 0; !(await send.isVisible()); turn++) {
    expect(turn).toBeLessThan(40);
    await expect(yourTurn.or(recordLine)).toBeVisible();
    if (await yourTurn.isVisible()) {
      await yourTurn.click();
      continue;
    }
    await record(page, recordLine, block.getByRole("button", { name: "Stop" }));
    await expect(block.getByRole("button", { name: "Model, then you" })).toBeVisible();
    await block.getByRole("button", { name: "Next" }).click();
  }
  await send.click();
  await expectToast(page, "Role-play sent", "A tutor will listen to your takes.");
  await expect(block.getByText("Completed")).toBeVisible();
});
