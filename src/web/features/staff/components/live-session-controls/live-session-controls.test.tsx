import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ProgressMap } from "#course/progress-rules";
import type { Role } from "#course/roles";
import { makeProfile, stubApi } from "#web/testing/fake-api";
import { setSession, signedInAs, signedOut } from "#web/testing/fake-auth-client";
import { fakeProgressApi } from "#web/testing/fake-progress";
import { type FakeFailure, fakeStaffApi, type StaffRoute } from "#web/testing/fake-staff-api";
import { renderApp } from "#web/testing/render-app";
import { dismissCurrentToast } from "#web/testing/screen";

vi.mock("#web/lib/auth-client", () => import("#web/testing/fake-auth-client"));

const PAGE = "/chapter-1/day-1/live-session";
const GREETING = "live-session:greeting-practice";
const ORDERING = "live-session:ordering-drink";
/** The toaster loads with the first toast, which can take a moment on a busy machine. */
const findToast = (text: string) => screen.findByText(text, undefined, { timeout: 5000 });
/** Lets the fake API's answers and React's updates run, for tests that check nothing was sent. */
const settle = () => act(() => new Promise((resolve) => setTimeout(resolve, 50)));

beforeEach(() => {
  vi.spyOn(HTMLMediaElement.prototype, "play").mockResolvedValue(undefined);
  vi.spyOn(HTMLMediaElement.prototype, "pause").mockImplementation(() => {});
});

afterEach(() => {
  dismissCurrentToast();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  setSession(signedOut);
});

/**
 * Signs in `role` (id tutor-1, or user-1 for a learner) on the Day 1 live session, with the staff
 * routes answered by the shared fake; `studentProgress` is learner student-1's stored progress.
 */
async function openAs(
  role: Role,
  {
    studentProgress = {},
    failures = {},
  }: { studentProgress?: ProgressMap; failures?: Partial<Record<StaffRoute, FakeFailure>> } = {},
) {
  const id = role === "Student" ? "user-1" : "tutor-1";
  const profile = makeProfile({ id, role, firstName: "Farid", lastName: "Ismail" });
  setSession(signedInAs(id));
  const own = fakeProgressApi();
  const staff = fakeStaffApi({ viewerId: id, progress: { "student-1": studentProgress }, failures });
  const fetchMock = stubApi(profile, (request) => staff.handler(request) ?? own.handler(request));
  renderApp(PAGE);
  // The practice blocks show once the day is open (not while it loads).
  expect(await screen.findByRole("region", { name: "Greetings" }, { timeout: 5000 })).toBeInTheDocument();
  return { staff, own, fetchMock };
}

const controls = () => screen.getByRole("region", { name: "Tutor controls" });
const feedbackBox = () => within(controls()).getByRole("textbox", { name: "Feedback" });
const typeFeedback = (text: string) => fireEvent.change(feedbackBox(), { target: { value: text } });
const submitFeedback = () => fireEvent.click(within(controls()).getByRole("button", { name: "Submit Feedback" }));
const markComplete = () =>
  fireEvent.click(within(controls()).getByRole("button", { name: "Mark as Complete for Student" }));

/** Picks Aisyah Rahman (student-1) in the Student picker. */
async function pickStudent() {
  const search = within(controls()).getByRole("combobox", { name: "Search for a student" });
  fireEvent.focus(search);
  fireEvent.change(search, { target: { value: "Aisyah" } });
  fireEvent.click(await screen.findByRole("option", { name: /Aisyah Rahman/ }, { timeout: 5000 }));
  expect(within(controls()).getByText("Selected student")).toBeInTheDocument();
}

const requestsTo = (fetchMock: ReturnType<typeof stubApi>, method: string, path: RegExp) =>
  fetchMock.mock.calls
    .filter(([url, init]) => (init?.method ?? "GET") === method && path.test(decodeURIComponent(String(url))))
    .map(([url, init]) => ({
      path: decodeURIComponent(String(url)),
      body: typeof init?.body === "string" ? JSON.parse(init.body) : undefined,
    }));

describe("Day 1 live session tutor controls", () => {
  it("are not shown to a learner, who makes no staff request", async () => {
    const { staff } = await openAs("Student");
    await settle();
    expect(screen.queryByRole("region", { name: "Tutor controls" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Submit Feedback" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Mark as Complete for Student" })).not.toBeInTheDocument();
    expect(staff.requests.filter((request) => request.path.startsWith("/api/users"))).toEqual([]);
  });

  it.each(["Tutor", "Admin"] as const)("are shown to a %s", async (role) => {
    await openAs(role);
    const region = controls();
    expect(within(region).getByRole("combobox", { name: "Search for a student" })).toBeInTheDocument();
    expect(feedbackBox()).toHaveAttribute("maxlength", "4000");
    expect(within(region).getByRole("button", { name: "Submit Feedback" })).toBeEnabled();
    expect(within(region).getByRole("button", { name: "Mark as Complete for Student" })).toBeEnabled();
  });

  it("refuses empty or whitespace-only feedback without sending it", async () => {
    const { fetchMock } = await openAs("Tutor");
    await pickStudent();
    typeFeedback("  \n\t ");
    submitFeedback();
    const title = await findToast("Feedback cannot be empty");
    expect(title.closest("li")).toHaveClass("bg-destructive");
    await settle();
    expect(requestsTo(fetchMock, "POST", /^\/api\/feedback/)).toEqual([]);
  });

  it("asks for a student before sending feedback", async () => {
    const { fetchMock } = await openAs("Tutor");
    typeFeedback("Good greetings.");
    submitFeedback();
    expect(await findToast("Choose a student")).toBeInTheDocument();
    expect(screen.getByText("Pick the student this session was with.")).toBeInTheDocument();
    await settle();
    expect(requestsTo(fetchMock, "POST", /^\/api\/feedback/)).toEqual([]);
    expect(feedbackBox()).toHaveValue("Good greetings.");
  });

  it("sends feedback for the chosen student on this day, then clears the box", async () => {
    const { fetchMock, staff } = await openAs("Tutor");
    await pickStudent();
    const text = "Bagus! Your greetings were clear.\nPractise kurang manis.";
    typeFeedback(text);
    expect(feedbackBox()).toHaveAccessibleDescription(`For Aisyah Rahman. ${text.length} / 4000 characters`);
    submitFeedback();
    expect(await findToast("Feedback has been submitted.")).toBeInTheDocument();
    expect(requestsTo(fetchMock, "POST", /^\/api\/feedback$/)).toEqual([
      {
        path: "/api/feedback",
        body: { studentId: "student-1", chapterId: "chapter-1", dayId: "day-1", feedback: text },
      },
    ]);
    expect(staff.feedback).toMatchObject([{ studentId: "student-1", tutorId: "tutor-1", feedback: text }]);
    await waitFor(() => expect(feedbackBox()).toHaveValue(""));
  });

  it("says why feedback could not be submitted and keeps the text", async () => {
    await openAs("Tutor", { failures: { submitFeedback: { status: 503, message: "The database is unavailable." } } });
    await pickStudent();
    typeFeedback("Well done.");
    submitFeedback();
    expect(await findToast("Error submitting feedback")).toBeInTheDocument();
    expect(screen.getByText("The database is unavailable.")).toBeInTheDocument();
    expect(feedbackBox()).toHaveValue("Well done.");
  });

  it("asks for a student before marking anything complete", async () => {
    const { fetchMock } = await openAs("Tutor");
    markComplete();
    expect(await findToast("Choose a student")).toBeInTheDocument();
    await settle();
    expect(fetchMock.mock.calls.filter(([, init]) => init?.method === "PUT")).toEqual([]);
  });

  it("marks both practice tasks complete for the chosen student, not for the tutor", async () => {
    const { fetchMock, staff, own } = await openAs("Tutor", {
      studentProgress: { "chapter-1": { "day-1": { [GREETING]: "in-progress" } } },
    });
    await pickStudent();
    const tasks = await within(controls()).findByRole("list", {}, { timeout: 5000 });
    expect(
      within(tasks)
        .getAllByRole("listitem")
        .map((item) => item.textContent),
    ).toEqual(["Greetings: In progress", "Ordering a drink: Not started"]);

    markComplete();
    expect(await findToast("Success!")).toBeInTheDocument();
    expect(screen.getByText("Student's progress updated.")).toBeInTheDocument();
    expect(requestsTo(fetchMock, "PUT", /./)).toEqual([
      { path: `/api/users/student-1/progress/chapter-1/day-1/${GREETING}`, body: { status: "completed" } },
      { path: `/api/users/student-1/progress/chapter-1/day-1/${ORDERING}`, body: { status: "completed" } },
    ]);
    expect(own.writes).toEqual([]);
    expect(staff.progressOf("student-1")["chapter-1"]?.["day-1"]).toEqual({
      [GREETING]: "completed",
      [ORDERING]: "completed",
    });
    // The student's progress is read again and shows both tasks done.
    await waitFor(() => expect(within(controls()).getByRole("button", { name: "Completed" })).toBeDisabled());
    expect(
      within(tasks)
        .getAllByRole("listitem")
        .map((item) => item.textContent),
    ).toEqual(["Greetings: Completed", "Ordering a drink: Completed"]);
  });

  it("shows Completed, disabled, for a student whose session is already recorded", async () => {
    await openAs("Tutor", {
      studentProgress: { "chapter-1": { "day-1": { [GREETING]: "completed", [ORDERING]: "completed" } } },
    });
    expect(within(controls()).getByRole("button", { name: "Mark as Complete for Student" })).toBeEnabled();
    await pickStudent();
    expect(await within(controls()).findByRole("button", { name: "Completed" }, { timeout: 5000 })).toBeDisabled();
  });

  it("says why the update failed", async () => {
    await openAs("Tutor", { failures: { setTaskStatus: { status: 500, message: "Database unavailable." } } });
    await pickStudent();
    markComplete();
    expect(await findToast("Update Failed")).toBeInTheDocument();
    expect(screen.getByText("Database unavailable.")).toBeInTheDocument();
    expect(within(controls()).getByRole("button", { name: "Mark as Complete for Student" })).toBeEnabled();
  });
});
