import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { connectApp } from "#tests/web/app-in-process";
import { fixtureDay, signInWithProgress } from "#tests/web/course-db-test-kit";
import { dayProgress, openDayPage, settle } from "#tests/web/course-page-test-kit";

const app = await connectApp();

const DAY_1 = fixtureDay("chapter-1", "day-1");
const LAST_TASK = "story:read-setting";
const ALL_BUT_LAST = dayProgress(
  "chapter-1",
  "day-1",
  DAY_1.tasks.map((task) => task.id).filter((id) => id !== LAST_TASK),
);

describe("finishing a day", () => {
  it("says Day 1 complete where its last task was done, with the badge, and goes on to Day 2 in one tap", async () => {
    await signInWithProgress(app, ALL_BUT_LAST);
    const { router } = await openDayPage("/chapter-1/day-1");
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    const setting = screen.getByRole("region", { name: "The kopitiam" });
    fireEvent.click(within(setting).getByRole("button", { name: "Complete Section" }));

    const moment = await screen.findByRole("dialog", { name: "Day 1 complete" });
    expect(moment).toHaveTextContent(DAY_1.goal);
    expect(moment).toHaveTextContent(`${DAY_1.vocabulary.length} phrases learned, now in your review`);
    expect(within(moment).getByText(DAY_1.vocabulary[0]!.malay)).toHaveAttribute("lang", "ms");
    expect(moment).toHaveTextContent("Badge earned: Day 1 Mission");
    // The way on has the focus: Enter or one tap.
    const onward = within(moment).getByRole("link", { name: "Go to Day 2" });
    await waitFor(() => expect(onward).toHaveFocus());
    fireEvent.click(onward);
    expect(await screen.findByRole("heading", { level: 1, name: /^Day 2/ })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/chapter-1/day-2");
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
  });

  it("lets the learner stay, and does not show again when a finished day is opened", async () => {
    await signInWithProgress(app, ALL_BUT_LAST);
    const { router } = await openDayPage("/chapter-1/day-1");
    fireEvent.click(
      within(screen.getByRole("region", { name: "The kopitiam" })).getByRole("button", { name: "Complete Section" }),
    );
    const moment = await screen.findByRole("dialog", { name: "Day 1 complete" });
    fireEvent.click(within(moment).getByRole("button", { name: "Stay on this page" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(router.state.location.pathname).toBe("/chapter-1/day-1");
  });

  it("does not show for a day that was already finished when its page opened", async () => {
    await signInWithProgress(
      app,
      dayProgress(
        "chapter-1",
        "day-1",
        DAY_1.tasks.map((task) => task.id),
      ),
    );
    await openDayPage("/chapter-1/day-1/codebook");
    await settle();
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
  });
});
