import { type Browser, expect, type Locator, type Page } from "@playwright/test";
import type { Chapter, Day } from "#course/course";
import { allAnswered, completeDayTasks, type SendRequest } from "#tests/complete-day";
import { COURSE } from "./practice";

// Media play at 16x through the real players (src/web/features/course/use-single-audio.ts reads
// ?playbackRate=), so every `ended` event is the real end of a real file.
export const FAST = "?playbackRate=16";
const password = "kopi-o-kosong";

/** An address no other test uses. */
export function uniqueEmail(label: string) {
  return `${label.toLowerCase()}-${Date.now()}-${Math.random().toString(36).slice(2, 6)}@example.com`;
}

/** Signs a new learner up and in through the API; the cookie lands in the page's context. */
export async function signUpAndIn(
  page: Page,
  prefix = "journey",
  { email = uniqueEmail(prefix), firstName = "Alex", lastName = "Tan" } = {},
) {
  const origin = new URL(page.url()).origin;
  const response = await page.request.post("/api/auth/sign-up/email", {
    data: { email, password, firstName, lastName, name: `${firstName} ${lastName}` },
    headers: { origin },
  });
  expect(response.status()).toBe(200);
  // Signing up does not sign in (the spec sends new accounts to /login).
  const signIn = await page.request.post("/api/auth/sign-in/email", { data: { email, password }, headers: { origin } });
  expect(signIn.status()).toBe(200);
  return email;
}

/** A browser of its own, signed in as a new account, and the name the app shows for it. */
export async function person(
  browser: Browser,
  firstName: string,
  { email = uniqueEmail(firstName), lastName = "E2e" } = {},
) {
  const page = await (await browser.newContext()).newPage();
  await page.goto("/");
  await signUpAndIn(page, firstName, { email, firstName, lastName });
  return { page, email, name: `${firstName} ${lastName}`, origin: new URL(page.url()).origin };
}

/**
 * The toast titled `title` is on screen, saying `description` too when given. Title and description
 * are matched on the toast itself, in one assertion: Radix's role="status" element is only its
 * screen-reader announcement, which it removes about a second later, so a second look there fails
 * on a slow machine although the toast is still shown.
 */
export async function expectToast(page: Page, title: string, description?: string | RegExp) {
  let toast = page
    .getByRole("region", { name: /Notifications/ })
    .getByRole("listitem")
    .filter({ hasText: title });
  if (description) toast = toast.filter({ hasText: description });
  await expect(toast).toBeVisible();
}

/** A region of the page named by its heading: a Codebook mission, a story section, a role-play. */
export const region = (page: Page, title: string) => page.getByRole("region", { name: title, exact: true });

/** Plays a media element from the start through its real player and resolves at its real `ended`. */
export async function playToEnd(page: Page, selector: string) {
  await page.locator(selector).evaluate(
    (element: HTMLMediaElement) =>
      new Promise<void>((resolve, reject) => {
        element.addEventListener("ended", () => resolve(), { once: true });
        element.addEventListener("error", () => reject(new Error(`cannot play ${element.currentSrc}`)), { once: true });
        element.currentTime = 0;
        element.play().catch(reject);
      }),
  );
}

/** Every day of the course the app serves, in course order. */
export const COURSE_DAYS: { chapter: Chapter; day: Day }[] = COURSE.flatMap((chapter) =>
  chapter.days.map((day) => ({ chapter, day })),
);

export const dayPath = ({ chapter, day }: { chapter: Chapter; day: Day }) => `/${chapter.id}/${day.id}`;

/** The page's requests as tests/complete-day.ts sends them, with the page's cookie and origin. */
export function sendFrom(page: Page, origin = new URL(page.url()).origin): SendRequest {
  return async (method, path, json) =>
    (
      await page.request.fetch(path, { method, headers: { origin }, ...(json === undefined ? {} : { data: json }) })
    ).status();
}

/** Turns the day's "I can't speak now" mode on with the switch inside `scope`, if it is not on already. */
async function quietMode(scope: Locator) {
  const quiet = scope.getByRole("switch", { name: "I can't speak now" });
  await expect(quiet).toBeEnabled();
  if ((await quiet.getAttribute("aria-checked")) !== "true") await quiet.click();
  await expect(quiet).toHaveAttribute("aria-checked", "true");
}

/**
 * A learner without a microphone says each line of a "Say each line" panel aloud: "I can't speak
 * now" on for the day, then each line marked said aloud.
 */
export async function sayEachLineAloud(panel: Locator) {
  await quietMode(panel);
  const marks = panel.getByRole("button", { name: /^(I said it aloud|Said aloud): / });
  const count = await marks.count();
  expect(count).toBeGreaterThan(0);
  for (let index = 0; index < count; index += 1) {
    await marks.nth(index).click();
    await expect(marks.nth(index)).toBeDisabled();
  }
}

/**
 * A role-play done alone by a learner without a microphone, in the page's region for it: each of the
 * other character's lines heard, each of their own turns said aloud, then sent, completing it.
 */
export async function doRolePlayAloud(page: Page, block: Locator) {
  await block.getByRole("button", { name: "Practise without a tutor" }).click();
  await quietMode(block);
  const send = block.getByRole("button", { name: "Send and complete" });
  const yourTurn = block.getByRole("button", { name: "Your turn", exact: true });
  const saidAloud = block.getByRole("button", { name: "I said it aloud" });
  for (let turn = 0; !(await send.isVisible()); turn++) {
    expect(turn).toBeLessThan(40);
    await expect(yourTurn.or(saidAloud)).toBeVisible();
    if (await yourTurn.isVisible()) {
      await yourTurn.click();
      continue;
    }
    await saidAloud.click();
    await expect(block.getByRole("button", { name: "Said aloud" })).toBeDisabled();
    await block.getByRole("button", { name: "Next" }).click();
  }
  await send.click();
  await expectToast(page, "Role-play sent", "This practice is complete.");
  await expect(block.getByText("Completed")).toBeVisible();
}

/**
 * Completes tasks of a day through the API as a learner does (tests/complete-day.ts): each practice
 * set answered right item by item and each spoken task spoken (its lines heard and said aloud, its
 * role-play sent), since they refuse a status write, every other task by a status write. `except`
 * leaves tasks out.
 */
export async function completeDayByApi(
  page: Page,
  chapterId: string,
  dayId: string,
  { except = [] }: { except?: readonly string[] } = {},
) {
  const outcomes = await completeDayTasks(sendFrom(page), COURSE, chapterId, dayId, { except });
  expect(outcomes, `${chapterId}/${dayId}`).toEqual(allAnswered(outcomes));
}

/**
 * A phrase card recalled: flipped to check the Malay, then "I knew it", which only the card just
 * flipped offers. `scope` is the page or the cards' mission.
 */
export async function recallCard(scope: Page | Locator, flip: Locator) {
  await flip.click();
  await scope.getByRole("button", { name: "I knew it" }).click();
}
