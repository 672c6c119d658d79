import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { ProgressMap } from "#course/progress-rules";
import { FIXTURE_COURSE } from "#tests/fixtures/course";
import { connectApp } from "#tests/web/app-in-process";
import { setRole, startEachTestWithNoAccounts, storedStatus } from "#tests/web/staff-db-test-kit";
import {
  allStatusSelects,
  chooseStatus,
  openTutorDashboard,
  pickUser,
  searchBox,
  statusSelect,
} from "#tests/web/staff-test-kit";

const app = await connectApp();
startEachTestWithNoAccounts(app);

/** Aisyah has started day 1. */
const aisyahProgress: ProgressMap = {
  "chapter-1": { "day-1": { "story:read-setting": "completed", "story:read-dialog": "in-progress" } },
};

/** What the server answers a staff member who may not do what they asked (the tutor lost the role meanwhile). */
const FORBIDDEN = "You do not have permission to do that.";

/** The label of a task of the course's day `number`, as the content names it. */
const taskLabel = (number: number, taskId: string) =>
  FIXTURE_COURSE.flatMap((chapter) => chapter.days)
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

// Each test renders the whole course grid (a Radix select per task), which jsdom takes a second or
// more to build on a busy machine, and signs up its accounts: the default 5 s leaves too little room.
describe("Tutor Dashboard", { timeout: 20_000 }, () => {
  it("asks for a user while none is picked", async () => {
    await openTutorDashboard(app);
    expect(screen.getByRole("heading", { level: 2, name: "No User Selected" })).toBeInTheDocument();
    expect(screen.getByText("Please select a user from the dropdown to view their progress.")).toBeInTheDocument();
    expect(allStatusSelects()).toHaveLength(0);
  });

  it("searches users, then shows the picked user's progress by chapter, day and task", async () => {
    await openTutorDashboard(app, "Tutor", { progress: { aisyah: aisyahProgress } });
    fireEvent.change(screen.getByRole("combobox", { name: "Search for a student" }), { target: { value: "aisy" } });
    const list = await screen.findByRole("listbox", { name: "Matching users" });
    await waitFor(() => expect(within(list).getAllByRole("option")).toHaveLength(1));
    expect(within(list).getByRole("option")).toHaveTextContent("Aisyah Rahman");
    expect(within(list).getByRole("option")).toHaveTextContent("aisyah@example.com");
    expect(app.requests.some(({ path }) => path.includes("search=aisy"))).toBe(true);

    fireEvent.click(within(list).getByRole("option"));
    await screen.findByRole("heading", { level: 2, name: "Progress of Aisyah Rahman" });
    expect(screen.queryByRole("heading", { name: "No User Selected" })).not.toBeInTheDocument();
    expect(screen.getByText("Selected student").parentElement).toHaveTextContent("Aisyah Rahman");

    await waitFor(() => expect(statusSelect("Read the setting, Day 1")).toHaveTextContent("Completed"));
    expect(statusSelect("Read the dialogue, Day 1")).toHaveTextContent("In progress");
    expect(statusSelect("Listen and shadow, Day 1")).toHaveTextContent("Not started");
    // The review days closing each chapter of the fixture course: day 4, and day 6, the last.
    expect(statusSelect(`${taskLabel(4, "review:task-1")}, Day 4`)).toHaveTextContent("Not started");
    expect(statusSelect(`${taskLabel(6, "review:task-1")}, Day 6`)).toHaveTextContent("Not started");
    expect(dayStatusOf(1)).toBe("Day status: In progress");
    expect(dayStatusOf(2)).toBe("Day status: Not started");
    // Course order: chapter 1 before chapter 2, every day in order (in the student's progress: the
    // tutor's week above has headings and sessions of its own).
    const progress = within(screen.getByRole("region", { name: "Progress of Aisyah Rahman" }));
    expect(progress.getAllByRole("heading", { level: 3 }).map((heading) => heading.textContent)).toEqual([
      "Chapter 1: Fixture Chapter",
      "Chapter 2: Second Fixture Chapter",
    ]);
    expect(progress.getAllByRole("article").map((day) => day.getAttribute("aria-labelledby"))).toEqual([
      ...["day-1", "day-2", "day-3", "day-4"].map((day) => `progress-chapter-1-${day}`),
      ...["day-5", "day-6"].map((day) => `progress-chapter-2-${day}`),
    ]);
  });

  it("sets a task's status with a PUT and says so", async () => {
    const { aisyah } = await openTutorDashboard(app, "Tutor", { progress: { aisyah: aisyahProgress } });
    await pickAisyah();

    chooseStatus("Read the dialogue, Day 1", "Completed");
    expect(await screen.findByText("Success!")).toBeInTheDocument();
    expect(screen.getByText("Student's progress updated.")).toBeInTheDocument();

    const puts = app.requests.filter(({ method }) => method === "PUT");
    expect(puts).toHaveLength(1);
    expect(puts[0]!.path).toBe(`/api/users/${aisyah.id}/progress/chapter-1/day-1/story%3Aread-dialog`);
    expect(puts[0]!.body).toEqual({ status: "completed" });
    expect(await storedStatus(app, aisyah.id, "chapter-1", "day-1", "story:read-dialog")).toBe("completed");
    expect(statusSelect("Read the dialogue, Day 1")).toHaveTextContent("Completed");
  });

  it("holds a task's select while its change is saving", async () => {
    await openTutorDashboard(app, "Tutor", { progress: { aisyah: aisyahProgress } });
    await pickAisyah();
    const release = app.holdRequests(({ method }) => method === "PUT");

    chooseStatus("Read the dialogue, Day 1", "Completed");
    const select = statusSelect("Read the dialogue, Day 1");
    await waitFor(() => expect(select).toHaveAttribute("aria-disabled", "true"));
    expect(select).toHaveTextContent("Completed");
    fireEvent.click(select);
    expect(screen.queryByRole("option")).not.toBeInTheDocument();

    release();
    await screen.findByText("Student's progress updated.");
    expect(select).not.toHaveAttribute("aria-disabled");
    expect(app.requests.filter(({ method }) => method === "PUT")).toHaveLength(1);
  });

  it("can move a completed task back to not started", async () => {
    const { aisyah } = await openTutorDashboard(app, "Tutor", { progress: { aisyah: aisyahProgress } });
    await pickAisyah();

    chooseStatus("Read the setting, Day 1", "Not started");
    await screen.findByText("Student's progress updated.");
    expect(await storedStatus(app, aisyah.id, "chapter-1", "day-1", "story:read-setting")).toBe("not-started");
    expect(statusSelect("Read the setting, Day 1")).toHaveTextContent("Not started");
  });

  it("sets a day-2 task while day 1 is untouched: day locking does not apply", async () => {
    const { aisyah } = await openTutorDashboard(app);
    await pickAisyah();
    expect(dayStatusOf(2)).toBe("Day status: Not started");

    chooseStatus("Read the story, Day 2", "In progress");
    await screen.findByText("Student's progress updated.");
    expect((await app.progressOf(aisyah.id)).progress).toEqual({
      "chapter-1": { "day-2": { "story:read-story": "in-progress" } },
    });
    expect(statusSelect("Read the story, Day 2")).toHaveTextContent("In progress");
    expect(dayStatusOf(2)).toBe("Day status: In progress");
    expect(dayStatusOf(1)).toBe("Day status: Not started");
  });

  it("shows Update Failed with the server's message and the stored status again", async () => {
    const { aisyah, farid } = await openTutorDashboard(app, "Tutor", { progress: { aisyah: aisyahProgress } });
    await pickAisyah();
    // The tutor stops being one while the page is open: the server refuses the change.
    await setRole(app, farid.id, "Student");

    chooseStatus("Read the dialogue, Day 1", "Completed");
    expect(await screen.findByText("Update Failed")).toBeInTheDocument();
    expect(screen.getByText(FORBIDDEN)).toBeInTheDocument();
    await waitFor(() => expect(statusSelect("Read the dialogue, Day 1")).toHaveTextContent("In progress"));
    expect(statusSelect("Read the dialogue, Day 1")).not.toHaveAttribute("aria-disabled");
    expect(await storedStatus(app, aisyah.id, "chapter-1", "day-1", "story:read-dialog")).toBe("in-progress");
  });

  it("changes nothing when the reset is cancelled", async () => {
    const { aisyah } = await openTutorDashboard(app, "Tutor", { progress: { aisyah: aisyahProgress } });
    await pickAisyah();

    fireEvent.click(screen.getByRole("button", { name: "Reset progress" }));
    const dialog = await screen.findByRole("alertdialog", { name: "Reset all progress for Aisyah Rahman?" });
    expect(dialog).toHaveTextContent("deletes every task record");
    expect(dialog).toHaveTextContent("cannot be undone");
    fireEvent.click(within(dialog).getByRole("button", { name: "Cancel" }));

    await waitFor(() => expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument());
    expect(app.requests.filter(({ method }) => method === "DELETE")).toHaveLength(0);
    expect((await app.progressOf(aisyah.id)).progress).toEqual(aisyahProgress);
    expect(statusSelect("Read the setting, Day 1")).toHaveTextContent("Completed");
  });

  it("resets every task to not started once confirmed", async () => {
    const { aisyah } = await openTutorDashboard(app, "Tutor", { progress: { aisyah: aisyahProgress } });
    await pickAisyah();

    fireEvent.click(screen.getByRole("button", { name: "Reset progress" }));
    const dialog = await screen.findByRole("alertdialog");
    fireEvent.click(within(dialog).getByRole("button", { name: "Reset progress" }));

    expect(await screen.findByText("User's progress has been reset.")).toBeInTheDocument();
    const deletes = app.requests.filter(({ method }) => method === "DELETE");
    expect(deletes.map(({ path }) => path)).toEqual([`/api/users/${aisyah.id}/progress`]);
    expect((await app.progressOf(aisyah.id)).progress).toEqual({});
    await waitFor(() => expect(statusSelect("Read the setting, Day 1")).toHaveTextContent("Not started"));
    for (const select of allStatusSelects()) expect(select).toHaveTextContent("Not started");
    expect(dayStatusOf(1)).toBe("Day status: Not started");
    await waitFor(() => expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument());
  });

  it("says so when the reset fails and keeps the progress", async () => {
    const { farid } = await openTutorDashboard(app, "Tutor", { progress: { aisyah: aisyahProgress } });
    await pickAisyah();
    await setRole(app, farid.id, "Student");

    fireEvent.click(screen.getByRole("button", { name: "Reset progress" }));
    fireEvent.click(within(await screen.findByRole("alertdialog")).getByRole("button", { name: "Reset progress" }));

    expect(await screen.findByText("Error resetting progress")).toBeInTheDocument();
    expect(screen.getByText(FORBIDDEN)).toBeInTheDocument();
    expect(statusSelect("Read the setting, Day 1")).toHaveTextContent("Completed");
  });

  it("clears the grid and says so when the progress cannot be fetched", async () => {
    const { farid } = await openTutorDashboard(app, "Tutor", { progress: { aisyah: aisyahProgress } });
    fireEvent.change(searchBox(), { target: { value: "aisy" } });
    const list = await screen.findByRole("listbox", { name: "Matching users" });
    const aisyah = await within(list).findByRole("option", { name: /Aisyah Rahman/ });
    // Found while a tutor, picked once no longer one: the server refuses the progress.
    await setRole(app, farid.id, "Student");
    fireEvent.click(aisyah);

    expect(await screen.findByText("Error fetching user's progress")).toBeInTheDocument();
    expect(screen.getByText(FORBIDDEN)).toBeInTheDocument();
    expect(screen.getByText("The progress of Aisyah Rahman could not be loaded.")).toBeInTheDocument();
    expect(allStatusSelects()).toHaveLength(0);
    expect(screen.queryByRole("article")).not.toBeInTheDocument();
  });

  it("shows Loading while the progress is on its way", async () => {
    await openTutorDashboard(app, "Tutor", { progress: { aisyah: aisyahProgress } });
    const release = app.holdRequests(({ method, path }) => method === "GET" && path.endsWith("/progress"));
    await pickUser("aisy", /Aisyah Rahman/);

    expect(await screen.findByText("Loading progress…")).toBeInTheDocument();
    expect(allStatusSelects()).toHaveLength(0);
    release();
    await waitFor(() => expect(statusSelect("Read the setting, Day 1")).toHaveTextContent("Completed"));
    expect(screen.queryByText("Loading progress…")).not.toBeInTheDocument();
  });

  it("goes back to No User Selected when the picked user is cleared", async () => {
    await openTutorDashboard(app, "Tutor", { progress: { aisyah: aisyahProgress } });
    await pickAisyah();

    fireEvent.click(screen.getByRole("button", { name: "Clear selected student" }));
    expect(screen.getByRole("heading", { level: 2, name: "No User Selected" })).toBeInTheDocument();
    expect(allStatusSelects()).toHaveLength(0);
    expect(screen.getByRole("combobox", { name: "Search for a student" })).toHaveFocus();
  });

  it("works for an Admin too", async () => {
    const { ben } = await openTutorDashboard(app, "Admin", {
      progress: { ben: { "chapter-1": { "day-1": { "story:read-setting": "in-progress" } } } },
    });
    await pickUser("benny", /Benny/);
    await screen.findByRole("heading", { level: 2, name: "Progress of Ben Carter (Benny)" });
    await waitFor(() => expect(statusSelect("Read the setting, Day 1")).toHaveTextContent("In progress"));

    chooseStatus("Read the setting, Day 1", "Completed");
    await screen.findByText("Student's progress updated.");
    expect(await storedStatus(app, ben.id, "chapter-1", "day-1", "story:read-setting")).toBe("completed");
  });
});
