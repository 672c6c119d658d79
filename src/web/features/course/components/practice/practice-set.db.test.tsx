import { QueryClientProvider } from "@tanstack/react-query";
import { render, screen } from "@testing-library/react";
import { and, eq } from "drizzle-orm";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { answer } from "#server/db/schema";
import { DAY_ONE_PRACTICE } from "#tests/fixtures/course";
import { connectApp } from "#tests/web/app-in-process";
import {
  answerRight,
  checkByKeyboard,
  choose,
  continueByKeyboard,
  press,
  status,
  stubResizeObserver,
  tabTo,
  type,
} from "#tests/web/practice-test-kit";
import { stubAudio } from "#tests/web/screen";
import { createQueryClient } from "#web/lib/query-client";
import { progressQueryKey } from "#web/lib/query-keys";
import PracticeSet from "./practice-set";

const app = await connectApp();

const TASK = { chapterId: "chapter-1", dayId: "day-1", taskId: DAY_ONE_PRACTICE.task.id };
const ITEMS = DAY_ONE_PRACTICE.items;

beforeEach(() => {
  stubResizeObserver();
  // A listening item reached by Continue plays its clip as it arrives; jsdom cannot play one.
  stubAudio();
});

/** The practice set of day 1 for the signed-in learner, with cached progress to see it invalidated. */
async function openSet({ completed = false } = {}) {
  const queryClient = createQueryClient();
  queryClient.setQueryData(progressQueryKey, { progress: {}, completedDays: [] });
  const onCompleted = vi.fn();
  const view = render(
    <QueryClientProvider client={queryClient}>
      <PracticeSet {...TASK} items={ITEMS} signedIn completed={completed} onCompleted={onCompleted} />
    </QueryClientProvider>,
  );
  await screen.findByText(new RegExp(`^Item \\d+ of ${ITEMS.length}$`));
  return { queryClient, onCompleted, unmount: view.unmount };
}

const storedAnswers = (userId: string) =>
  app.t.db
    .select({ itemId: answer.itemId, clientId: answer.clientId, correct: answer.correct })
    .from(answer)
    .where(and(eq(answer.userId, userId), eq(answer.taskId, TASK.taskId)));

/** The item asked now, by its prompt. */
const askedItem = () => {
  const prompt = document.querySelector("form legend")?.textContent;
  return ITEMS.find((item) => item.prompt === prompt)!;
};

const posts = () => app.requests.filter((request) => request.method === "POST" && request.path === "/api/answers");

describe("PracticeSet for a signed-in learner", () => {
  it("sends each answer to the server, which grades and stores it and completes the task", async () => {
    const learner = await app.signInLearner();
    const { queryClient, onCompleted } = await openSet();

    // Wrong first: the server's feedback, with the right answer's versioned clip.
    await choose("Iced Milo");
    await checkByKeyboard();
    await screen.findByRole("heading", { name: "Not quite" });
    expect(status()).toHaveTextContent("Not quite. The answer is: Black coffee with sugar");
    expect(screen.getByRole("button", { name: "Play: Black coffee with sugar" })).toBeInTheDocument();
    // The server's right answer marks the choices, and its explanation says why.
    expect(screen.getByRole("radio", { name: "Iced Milo" })).toHaveAccessibleDescription("Your answer: wrong");
    expect(screen.getByRole("radio", { name: "Black coffee with sugar" })).toHaveAccessibleDescription("Right answer");
    expect(screen.getByText("Why: Kopi-O is black coffee with sugar: O means no milk.")).toBeInTheDocument();
    await continueByKeyboard();
    expect(screen.getByText(`Item 2 of ${ITEMS.length + 1}`)).toBeInTheDocument();

    // The missed item comes back after two others: answer in the order asked until the set is done.
    for (let asked = 0; screen.queryByRole("heading", { name: "Practice complete" }) === null; asked++) {
      expect(asked).toBeLessThan(ITEMS.length);
      await answerRight(askedItem());
      await screen.findByRole("heading", { name: "Right!" });
      await continueByKeyboard();
    }

    expect(posts()).toHaveLength(ITEMS.length + 1);
    const stored = await storedAnswers(learner.id);
    expect(stored).toHaveLength(ITEMS.length + 1);
    expect(new Set(stored.map((row) => row.clientId)).size).toBe(ITEMS.length + 1);
    expect(stored.filter((row) => !row.correct).map((row) => row.itemId)).toEqual(["what-alex-ordered"]);
    const { progress } = await app.progressOf(learner.id);
    expect(progress["chapter-1"]?.["day-1"]?.[TASK.taskId]).toBe("completed");
    expect(onCompleted).toHaveBeenCalledTimes(1);
    // The Codebook reads progress again, and shows the mission completed.
    expect(queryClient.getQueryState(progressQueryKey)?.isInvalidated).toBe(true);
  });

  it("resumes a set left half done, skipping the items already answered right", async () => {
    await app.signInLearner();
    const first = await openSet();
    expect(screen.getByText(`Item 1 of ${ITEMS.length}`)).toBeInTheDocument();
    for (const item of ITEMS.slice(0, 2)) {
      await answerRight(item);
      await screen.findByRole("heading", { name: "Right!" });
      await continueByKeyboard();
    }
    first.unmount();

    const again = await openSet();
    expect(screen.getByText(`Item 3 of ${ITEMS.length}`)).toBeInTheDocument();
    expect(screen.getByRole("group", { name: ITEMS[2]!.prompt })).toBeInTheDocument();
    expect(screen.getByRole("progressbar", { name: "Items answered right" })).toHaveAttribute("aria-valuenow", "2");
    expect(again.onCompleted).not.toHaveBeenCalled();
  });

  it("tells a failed send and sends the same answer again with the same clientId, stored once", async () => {
    const learner = await app.signInLearner();
    await openSet();
    // The first send reaches the server, but its answer is lost on the way back.
    const bridge = app.fetch;
    const bodies: string[] = [];
    vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
      const response = await bridge(input, init);
      if (init?.method !== "POST") return response;
      bodies.push(String(init.body));
      if (bodies.length === 1) throw new TypeError("Failed to fetch");
      return response;
    });

    await choose("Black coffee with sugar");
    await checkByKeyboard();
    await screen.findByText("We could not reach the server. Check your connection and try again.", {
      selector: "p:not([role='status'])",
    });
    expect(screen.queryByRole("button", { name: "Continue" })).toBeNull();

    await checkByKeyboard();
    await screen.findByRole("heading", { name: "Right!" });
    const [firstSend, resend] = bodies.map((body) => JSON.parse(body) as { clientId: string; itemId: string });
    expect(resend!.clientId).toBe(firstSend!.clientId);
    expect(await storedAnswers(learner.id)).toEqual([
      { itemId: ITEMS[0]!.id, clientId: firstSend!.clientId, correct: true },
    ]);
  });

  it("refuses an empty typed answer without sending it", async () => {
    await app.signInLearner();
    await openSet();
    const typed = ITEMS.findIndex((item) => item.kind === "type-malay");
    for (const item of ITEMS.slice(0, typed)) {
      await answerRight(item);
      await screen.findByRole("heading", { name: "Right!" });
      await continueByKeyboard();
    }
    const sent = posts().length;
    expect(askedItem()).toBe(ITEMS[typed]);
    await tabTo(screen.getByRole("textbox"));
    await type(" ");
    await press("Enter");
    expect(status()).toHaveTextContent("Type an answer first.");
    expect(posts()).toHaveLength(sent);
  });
});
