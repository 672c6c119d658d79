import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ProgressMap } from "#course/progress-rules";
import { COURSE } from "#web/features/course/course-data";
import {
  allStatusSelects,
  chooseStatus,
  openTutorDashboard,
  pickUser,
  resetStaffTest,
  statusSelect,
} from "./staff-test-kit";

vi.mock("#web/lib/auth-client", () => import("#web/testing/fake-auth-client"));

afterEach(resetStaffTest);

/** Aisyah (student-1) has started day 1. */
const aisyahProgress: Record<string, ProgressMap> = {
  "student-1": { "chapter-1": { "day-1": { "story:read-setting": "completed", "story:read-dialog": "in-progress" } } },
};

/** The label of a task of the course's day `number`, as the content names it. */
const taskLabel = (number: number, taskId: string) =>
  COURSE.flatMap((chapter) => chapter.days)
    .find((day) => day.number === number)
    ?.tasks.find((task) => task.id === taskId)?.label;

const dayCard = (number: number) => screen.getByLabelText(new RegExp(`^Day ${number}:`), { selector: "article" });
/** What a day card says of the day as a whole. */
const dayStatusOf = (number: number) =>
  within(dayCard(number)).getByText("Day status:", { exact: false }).parentElement?.textContent;

async function pickAisyah() {
  await pickUser("aisy", /Aisyah Rahman/);
  await screen.findByRole("heading", { level: 2, name: "Progress of Aisyah Rahman" });
  await waitFor(() => expect(allStatusSelects().length).toBeGreaterThan(0));
}

// Each test renders the whole course grid (some 60 Radix selects), which jsdom takes a second or more
// to build on a busy machine: the default 5 s leaves too little room.
describe("Tutor Dashboard", { timeout: 20_000 }, () => {
  it("asks for a user while none is picked", async () => {
    await openTutorDashboard();
    expect(screen.getByRole("heading", { level: 2, name: "No User Selected" })).toBeInTheDocument();
    expect(screen.getByText("Please select a user from the dropdown to view their progress.")).toBeInTheDocument();
    expect(allStatusSelects()).toHaveLength(0);
  });

  it("searches users, then shows the picked user's progress by chapter, day and task", async () => {
    const { api } = await openTutorDashboard("Tutor", { progress: aisyahProgress });
    fireEvent.change(screen.getByRole("combobox", { name: "Search for a student" }), { target: { value: "aisy" } });
    const list = await screen.findByRole("listbox", { name: "Matching users" });
    await waitFor(() => expect(within(list).getAllByRole("option")).toHaveLength(1));
    expect(within(list).getByRole("option")).toHaveTextContent("Aisyah Rahman");
    expect(within(list).getByRole("option")).toHaveTextContent("aisyah@example.com");
    expect(api.requests.some(({ path }) => path.includes("search=aisy"))).toBe(true);

    fireEvent.click(within(list).getByRole("option"));
    await screen.findByRole("heading", { level: 2, name: "Progress of Aisyah Rahman" });
    expect(screen.queryByRole("heading", { name: "No User Selected" })).not.toBeInTheDocument();
    expect(screen.getByText("Selected student").parentElement).toHaveTextContent("Aisyah Rahman");

    await waitFor(() => expect(statusSelect("Read the setting, Day 1")).toHaveTextContent("Completed"));
    expect(statusSelect("Read the dialogue, Day 1")).toHaveTextContent("In progress");
    expect(statusSelect("Listen and shadow, Day 1")).toHaveTextContent("Not started");
    expect(statusSelect(`${taskLabel(5, "review:task-1")}, Day 5`)).toHaveTextContent("Not started");
    expect(statusSelect(`${taskLabel(10, "review:task-1")}, Day 10`)).toHaveTextContent("Not started");
    expect(dayStatusOf(1)).toBe("Day status: In progress");
    expect(dayStatusOf(2)).toBe("Day status: Not started");
    // Course order: chapter 1 before chapter 2, every day in order.
    expect(screen.getAllByRole("heading", { level: 3 }).map((heading) => heading.textContent)).toEqual([
      "Chapter 1: The First Steps",
      "Chapter 2: Exploring the Market",
    ]);
    expect(screen.getAllByRole("article").map((day) => day.getAttribute("aria-labelledby"))).toEqual([
      ...["day-1", "day-2", "day-3", "day-4", "day-5"].map((day) => `progress-chapter-1-${day}`),
      ...["day-6", "day-7", "day-8", "day-9", "day-10"].map((day) => `progress-chapter-2-${day}`),
    ]);
  });

  it("sets a task's status with a PUT and says so", async () => {
    const { api, fetchMock } = await openTutorDashboard("Tutor", { progress: aisyahProgress });
    await pickAisyah();

    chooseStatus("Read the dialogue, Day 1", "Completed");
    expect(await screen.findByText("Success!")).toBeInTheDocument();
    expect(screen.getByText("Student's progress updated.")).toBeInTheDocument();

    const puts = fetchMock.mock.calls.filter(([, init]) => init?.method === "PUT");
    expect(puts).toHaveLength(1);
    expect(String(puts[0]![0])).toBe("/api/users/student-1/progress/chapter-1/day-1/story%3Aread-dialog");
    expect(JSON.parse(String(puts[0]![1]?.body))).toEqual({ status: "completed" });
    expect(api.progressOf("student-1")["chapter-1"]?.["day-1"]?.["story:read-dialog"]).toBe("completed");
    expect(statusSelect("Read the dialogue, Day 1")).toHaveTextContent("Completed");
  });

  it("holds a task's select while its change is saving", async () => {
    const { fetchMock } = await openTutorDashboard("Tutor", { progress: aisyahProgress });
    await pickAisyah();
    const answer = fetchMock.getMockImplementation()!;
    let release = () => {};
    fetchMock.mockImplementation(async (input, init) => {
      if (init?.method === "PUT") await new Promise<void>((resolve) => (release = resolve));
      return answer(input, init);
    });

    chooseStatus("Read the dialogue, Day 1", "Completed");
    const select = statusSelect("Read the dialogue, Day 1");
    await waitFor(() => expect(select).toHaveAttribute("aria-disabled", "true"));
    expect(select).toHaveTextContent("Completed");
    fireEvent.click(select);
    expect(screen.queryByRole("option")).not.toBeInTheDocument();

    release();
    await screen.findByText("Student's progress updated.");
    expect(select).not.toHaveAttribute("aria-disabled");
    expect(fetchMock.mock.calls.filter(([, init]) => init?.method === "PUT")).toHaveLength(1);
  });

  it("can move a completed task back to not started", async () => {
    const { api } = await openTutorDashboard("Tutor", { progress: aisyahProgress });
    await pickAisyah();

    chooseStatus("Read the setting, Day 1", "Not started");
    await screen.findByText("Student's progress updated.");
    expect(api.progressOf("student-1")["chapter-1"]?.["day-1"]?.["story:read-setting"]).toBe("not-started");
    expect(statusSelect("Read the setting, Day 1")).toHaveTextContent("Not started");
  });

  it("sets a day-2 task while day 1 is untouched: day locking does not apply", async () => {
    const { api } = await openTutorDashboard();
    await pickAisyah();
    expect(dayStatusOf(2)).toBe("Day status: Not started");

    chooseStatus("Read the story, Day 2", "In progress");
    await screen.findByText("Student's progress updated.");
    expect(api.progressOf("student-1")).toEqual({ "chapter-1": { "day-2": { "story:read-story": "in-progress" } } });
    expect(statusSelect("Read the story, Day 2")).toHaveTextContent("In progress");
    expect(dayStatusOf(2)).toBe("Day status: In progress");
    expect(dayStatusOf(1)).toBe("Day status: Not started");
  });

  it("shows Update Failed with the server's message and the stored status again", async () => {
    const { api } = await openTutorDashboard("Tutor", { progress: aisyahProgress });
    await pickAisyah();
    api.failures.setTaskStatus = { status: 403, message: "You may not change this learner's progress." };

    chooseStatus("Read the dialogue, Day 1", "Completed");
    expect(await screen.findByText("Update Failed")).toBeInTheDocument();
    expect(screen.getByText("You may not change this learner's progress.")).toBeInTheDocument();
    await waitFor(() => expect(statusSelect("Read the dialogue, Day 1")).toHaveTextContent("In progress"));
    expect(statusSelect("Read the dialogue, Day 1")).not.toHaveAttribute("aria-disabled");
    expect(api.progressOf("student-1")["chapter-1"]?.["day-1"]?.["story:read-dialog"]).toBe("in-progress");
  });

  it("changes nothing when the reset is cancelled", async () => {
    const { api } = await openTutorDashboard("Tutor", { progress: aisyahProgress });
    await pickAisyah();

    fireEvent.click(screen.getByRole("button", { name: "Reset progress" }));
    const dialog = await screen.findByRole("alertdialog", { name: "Reset all progress for Aisyah Rahman?" });
    expect(dialog).toHaveTextContent("deletes every task record");
    expect(dialog).toHaveTextContent("cannot be undone");
    fireEvent.click(within(dialog).getByRole("button", { name: "Cancel" }));

    await waitFor(() => expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument());
    expect(api.requests.filter(({ method }) => method === "DELETE")).toHaveLength(0);
    expect(api.progressOf("student-1")).toEqual(aisyahProgress["student-1"]);
    expect(statusSelect("Read the setting, Day 1")).toHaveTextContent("Completed");
  });

  it("resets every task to not started once confirmed", async () => {
    const { api, fetchMock } = await openTutorDashboard("Tutor", { progress: aisyahProgress });
    await pickAisyah();

    fireEvent.click(screen.getByRole("button", { name: "Reset progress" }));
    const dialog = await screen.findByRole("alertdialog");
    fireEvent.click(within(dialog).getByRole("button", { name: "Reset progress" }));

    expect(await screen.findByText("User's progress has been reset.")).toBeInTheDocument();
    const deletes = fetchMock.mock.calls.filter(([, init]) => init?.method === "DELETE");
    expect(deletes.map(([path]) => String(path))).toEqual(["/api/users/student-1/progress"]);
    expect(api.progressOf("student-1")).toEqual({});
    await waitFor(() => expect(statusSelect("Read the setting, Day 1")).toHaveTextContent("Not started"));
    for (const select of allStatusSelects()) expect(select).toHaveTextContent("Not started");
    expect(dayStatusOf(1)).toBe("Day status: Not started");
    await waitFor(() => expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument());
  });

  it("says so when the reset fails and keeps the progress", async () => {
    const { api } = await openTutorDashboard("Tutor", { progress: aisyahProgress });
    await pickAisyah();
    api.failures.resetProgress = { status: 403, message: "You may not reset this learner's progress." };

    fireEvent.click(screen.getByRole("button", { name: "Reset progress" }));
    fireEvent.click(within(await screen.findByRole("alertdialog")).getByRole("button", { name: "Reset progress" }));

    expect(await screen.findByText("Error resetting progress")).toBeInTheDocument();
    expect(screen.getByText("You may not reset this learner's progress.")).toBeInTheDocument();
    expect(statusSelect("Read the setting, Day 1")).toHaveTextContent("Completed");
  });

  it("clears the grid and says so when the progress cannot be fetched", async () => {
    await openTutorDashboard("Tutor", {
      progress: aisyahProgress,
      failures: { getProgress: { status: 403, message: "You may not view this learner's progress." } },
    });
    await pickUser("aisy", /Aisyah Rahman/);

    expect(await screen.findByText("Error fetching user's progress")).toBeInTheDocument();
    expect(screen.getByText("You may not view this learner's progress.")).toBeInTheDocument();
    expect(screen.getByText("The progress of Aisyah Rahman could not be loaded.")).toBeInTheDocument();
    expect(allStatusSelects()).toHaveLength(0);
    expect(screen.queryByRole("article")).not.toBeInTheDocument();
  });

  it("shows Loading while the progress is on its way", async () => {
    const { fetchMock } = await openTutorDashboard("Tutor", { progress: aisyahProgress });
    const answer = fetchMock.getMockImplementation()!;
    let release = () => {};
    fetchMock.mockImplementation(async (input, init) => {
      if (String(input).endsWith("/progress")) await new Promise<void>((resolve) => (release = resolve));
      return answer(input, init);
    });
    await pickUser("aisy", /Aisyah Rahman/);

    expect(await screen.findByText("Loading progress…")).toBeInTheDocument();
    expect(allStatusSelects()).toHaveLength(0);
    release();
    await waitFor(() => expect(statusSelect("Read the setting, Day 1")).toHaveTextContent("Completed"));
    expect(screen.queryByText("Loading progress…")).not.toBeInTheDocument();
  });

  it("goes back to No User Selected when the picked user is cleared", async () => {
    await openTutorDashboard("Tutor", { progress: aisyahProgress });
    await pickAisyah();

    fireEvent.click(screen.getByRole("button", { name: "Clear selected student" }));
    expect(screen.getByRole("heading", { level: 2, name: "No User Selected" })).toBeInTheDocument();
    expect(allStatusSelects()).toHaveLength(0);
    expect(screen.getByRole("combobox", { name: "Search for a student" })).toHaveFocus();
  });

  it("works for an Admin too", async () => {
    const { api } = await openTutorDashboard("Admin", {
      progress: { "student-2": { "chapter-1": { "day-1": { "story:read-setting": "in-progress" } } } },
    });
    await pickUser("benny", /Benny/);
    await screen.findByRole("heading", { level: 2, name: "Progress of Benny" });
    await waitFor(() => expect(statusSelect("Read the setting, Day 1")).toHaveTextContent("In progress"));

    chooseStatus("Read the setting, Day 1", "Completed");
    await screen.findByText("Student's progress updated.");
    expect(api.progressOf("student-2")["chapter-1"]?.["day-1"]?.["story:read-setting"]).toBe("completed");
  });
});
