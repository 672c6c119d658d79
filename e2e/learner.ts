import { type Browser, expect, type Page } from "@playwright/test";
import { type Chapter, type Day, findDay, practiceSetOf } from "#course/course";
import { rightAnswer } from "#course/grading";
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

/**
 * Completes tasks of a day through the API as a learner does: each practice set answered right item
 * by item (a status write is refused), every other task by a status write. `except` leaves tasks out.
 */
export async function completeDayByApi(
  page: Page,
  chapterId: string,
  dayId: string,
  { except = [] }: { except?: readonly string[] } = {},
) {
  const day = findDay(COURSE, chapterId, dayId)!.day;
  const origin = new URL(page.url()).origin;
  for (const { id: taskId } of day.tasks) {
    if (except.includes(taskId)) continue;
    const practice = practiceSetOf(day, taskId);
    if (!practice) {
      const saved = await page.request.put(`/api/progress/${chapterId}/${dayId}/${taskId}`, {
        data: { status: "completed" },
        headers: { origin },
      });
      expect(saved.status(), `${dayId} ${taskId}`).toBe(200);
      continue;
    }
    for (const item of practice.items) {
      const answered = await page.request.post("/api/answers", {
        data: {
          clientId: crypto.randomUUID(),
          chapterId,
          dayId,
          taskId,
          itemId: item.id,
          given: rightAnswer(item).answer,
        },
        headers: { origin },
      });
      expect(answered.status(), `${dayId} ${taskId} ${item.id}`).toBe(200);
    }
  }
}
