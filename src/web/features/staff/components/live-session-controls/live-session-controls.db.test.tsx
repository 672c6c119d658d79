import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { ProgressMap } from "#course/progress-rules";
import type { Role } from "#course/roles";
import { tutorFeedback } from "#server/db/schema";
import type { FeedbackList } from "#server/modules/feedback/feedback.contract";
import { connectApp } from "#tests/web/app-in-process";
import { renderApp } from "#tests/web/render-app";
import { dayOneCardId, roundFor } from "#tests/web/review-test-kit";
import { stubAudio } from "#tests/web/screen";
import { cutNetworkTo, NETWORK_ERROR, startEachTestWithNoAccounts, storeAccount } from "#tests/web/staff-db-test-kit";
import {
  DAY_1_PHRASES,
  learnerWhoAnsweredWrong,
  pickLearner,
  strugglesPanel,
  weakestPhrases,
} from "#tests/web/staff-review-db-test-kit";

const app = await connectApp();

const { pagi, price } = DAY_1_PHRASES;

/** Signs a tutor in on day 1's live session and picks the learner in its controls. */
async function openLiveSessionOn(learner: Parameters<typeof pickLearner>[0]) {
  stubAudio();
  await app.signInAs("Tutor");
  renderApp("/chapter-1/day-1/live-session");
  const controls = await screen.findByRole("region", { name: "Tutor controls" });
  await pickLearner(learner, controls);
  return controls;
}

const pinSelect = (controls: HTMLElement) =>
  within(controls).getByRole("combobox", { name: "Pin a phrase to their review" });

/** Opens the pin select and returns its options' names. */
function openPinSelect(controls: HTMLElement) {
  const select = pinSelect(controls);
  fireEvent.click(select);
  const list = document.getElementById(select.getAttribute("aria-controls") ?? "");
  if (!list) throw new Error("The pin select did not open.");
  return list;
}

describe("the live session's tutor controls and a learner's review", () => {
  it("show the chosen learner's struggles, and pin the phrase a feedback note names", async () => {
    const { learner } = await learnerWhoAnsweredWrong(app, pagi.id);
    const controls = await openLiveSessionOn(learner);

    const panel = await strugglesPanel("Aisyah Rahman");
    expect(controls).toContainElement(panel);
    expect(within(panel).getByRole("heading", { level: 3, name: "Struggles of Aisyah Rahman" })).toBeInTheDocument();
    const [weakest] = weakestPhrases(panel);
    expect(weakest).toHaveTextContent(pagi.malay);
    expect(within(weakest!).getByRole("button", { name: `Pin to review: ${pagi.malay}` })).toBeEnabled();

    // The select offers the day's vocabulary, Malay and meaning, and none by default.
    expect(pinSelect(controls)).toHaveTextContent("No phrase");
    const list = openPinSelect(controls);
    expect(
      within(list)
        .getAllByRole("option")
        .map((option) => option.textContent),
    ).toEqual(["No phrase", `${pagi.malay} (${pagi.english})`, `${price.malay} (${price.english})`]);
    fireEvent.click(within(list).getByRole("option", { name: `${pagi.malay} (${pagi.english})` }));
    expect(pinSelect(controls)).toHaveTextContent(`${pagi.malay} (${pagi.english})`);

    const note = "Selamat pagi still trips you up: say it every morning.";
    fireEvent.change(within(controls).getByRole("textbox", { name: "Feedback" }), { target: { value: note } });
    fireEvent.click(within(controls).getByRole("button", { name: "Submit Feedback" }));
    expect(await screen.findByText("Feedback has been submitted.")).toBeInTheDocument();
    expect(screen.getByText(`“${pagi.malay}” is pinned to their review.`)).toBeInTheDocument();

    // The panel is read again and shows the phrase pinned; the form starts afresh.
    await waitFor(() => expect(within(weakestPhrases(panel)[0]!).getByText("Pinned")).toBeInTheDocument());
    expect(within(panel).queryByRole("button", { name: /^Pin to review/ })).not.toBeInTheDocument();
    expect(within(controls).getByRole("textbox", { name: "Feedback" })).toHaveValue("");
    expect(pinSelect(controls)).toHaveTextContent("No phrase");

    await app.signOut();
    await app.signIn(learner);
    const { cards } = await roundFor(app);
    // Its spoken card first, then the card already reviewed (the meaning missed), then the new ones.
    expect(cards.slice(0, 4).map((card) => [card.cardId, card.fromTutor])).toEqual(
      (["speak", "recognise", "listen", "recall"] as const).map((skill) => [dayOneCardId(pagi.id, skill), true]),
    );
    expect(cards.slice(4).some((card) => card.fromTutor)).toBe(false);
    const { feedback } = await app.read<FeedbackList>("/api/feedback");
    expect(feedback.map((each) => [each.dayId, each.feedback])).toEqual([["day-1", note]]);
  });

  it("send a note without a pin as before, pinning nothing", async () => {
    const { learner } = await learnerWhoAnsweredWrong(app, pagi.id, "Nurul");
    const controls = await openLiveSessionOn(learner);
    await strugglesPanel("Nurul Rahman");
    fireEvent.change(within(controls).getByRole("textbox", { name: "Feedback" }), { target: { value: "Bagus!" } });
    fireEvent.click(within(controls).getByRole("button", { name: "Submit Feedback" }));
    const title = await screen.findByText("Feedback has been submitted.");
    expect(title.closest("li")).not.toHaveTextContent(/pinned/);

    await app.signOut();
    await app.signIn(learner);
    const { cards } = await roundFor(app);
    expect(cards.length).toBeGreaterThan(0);
    expect(cards.some((card) => card.fromTutor)).toBe(false);
  });
});

const PAGE = "/chapter-1/day-1/live-session";
const GREETING = "live-session:greeting-practice";
const ORDERING = "live-session:ordering-drink";
/** The toaster loads with the first toast, which can take a moment on a busy machine. */
const findToast = (text: string) => screen.findByText(text, undefined, { timeout: 5000 });
/** Lets the app's answers and React's updates run, for tests that check nothing was sent. */
const settle = () => act(() => new Promise((resolve) => setTimeout(resolve, 50)));

describe("Day 1 live session tutor controls", () => {
  // The picker lists every account: each test starts with none, then makes its own.
  startEachTestWithNoAccounts(app);

  beforeEach(() => {
    vi.spyOn(HTMLMediaElement.prototype, "play").mockResolvedValue(undefined);
    vi.spyOn(HTMLMediaElement.prototype, "pause").mockImplementation(() => {});
  });

  /**
   * Signs in Farid Ismail as `role` on the Day 1 live session, with learner Aisyah Rahman listed,
   * her stored progress `studentProgress`.
   */
  async function openAs(role: Role, { studentProgress = {} }: { studentProgress?: ProgressMap } = {}) {
    const aisyah = await storeAccount(app, { firstName: "Aisyah", lastName: "Rahman", email: "aisyah@example.com" });
    await app.seedProgress(aisyah.id, studentProgress);
    const viewer = await app.signInAs(role, { firstName: "Farid", lastName: "Ismail" });
    renderApp(PAGE);
    // The practice blocks show once the day is open (not while it loads).
    expect(await screen.findByRole("region", { name: "Greetings" }, { timeout: 5000 })).toBeInTheDocument();
    // Staff's controls load once the page knows who is looking.
    if (role !== "Student") await screen.findByRole("region", { name: "Tutor controls" });
    return { aisyah, viewer };
  }

  const controls = () => screen.getByRole("region", { name: "Tutor controls" });
  const feedbackBox = () => within(controls()).getByRole("textbox", { name: "Feedback" });
  const typeFeedback = (text: string) => fireEvent.change(feedbackBox(), { target: { value: text } });
  const submitFeedback = () => fireEvent.click(within(controls()).getByRole("button", { name: "Submit Feedback" }));
  const markComplete = () =>
    fireEvent.click(within(controls()).getByRole("button", { name: "Mark as Complete for Student" }));

  /** Picks Aisyah Rahman in the Student picker. */
  async function pickStudent() {
    const search = within(controls()).getByRole("combobox", { name: "Search for a student" });
    fireEvent.focus(search);
    fireEvent.change(search, { target: { value: "Aisyah" } });
    fireEvent.click(await screen.findByRole("option", { name: /Aisyah Rahman/ }, { timeout: 5000 }));
    expect(within(controls()).getByText("Selected student")).toBeInTheDocument();
  }

  const requestsTo = (method: string, path: RegExp) =>
    app.requests
      .filter((request) => request.method === method && path.test(decodeURIComponent(request.path)))
      .map((request) => ({ path: decodeURIComponent(request.path), body: request.body }));

  it("are not shown to a learner, who makes no staff request", async () => {
    await openAs("Student");
    await settle();
    expect(screen.queryByRole("region", { name: "Tutor controls" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Submit Feedback" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Mark as Complete for Student" })).not.toBeInTheDocument();
    expect(app.requests.filter((request) => request.path.startsWith("/api/users"))).toEqual([]);
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
    await openAs("Tutor");
    await pickStudent();
    typeFeedback("  \n\t ");
    submitFeedback();
    const title = await findToast("Feedback cannot be empty");
    expect(title.closest("li")).toHaveClass("bg-destructive");
    await settle();
    expect(requestsTo("POST", /^\/api\/feedback/)).toEqual([]);
  });

  it("asks for a student before sending feedback", async () => {
    await openAs("Tutor");
    typeFeedback("Good greetings.");
    submitFeedback();
    expect(await findToast("Choose a student")).toBeInTheDocument();
    expect(screen.getByText("Pick the student this session was with.")).toBeInTheDocument();
    await settle();
    expect(requestsTo("POST", /^\/api\/feedback/)).toEqual([]);
    expect(feedbackBox()).toHaveValue("Good greetings.");
  });

  it("sends feedback for the chosen student on this day, then clears the box", async () => {
    const { aisyah, viewer } = await openAs("Tutor");
    await pickStudent();
    const text = "Bagus! Your greetings were clear.\nPractise kurang manis.";
    typeFeedback(text);
    expect(feedbackBox()).toHaveAccessibleDescription(
      `For Aisyah Rahman. ${new Intl.NumberFormat("en").format(text.length)} / 4,000 characters`,
    );
    submitFeedback();
    expect(await findToast("Feedback has been submitted.")).toBeInTheDocument();
    expect(requestsTo("POST", /^\/api\/feedback$/)).toEqual([
      {
        path: "/api/feedback",
        body: { studentId: aisyah.id, chapterId: "chapter-1", dayId: "day-1", feedback: text },
      },
    ]);
    expect(await app.t.db.select().from(tutorFeedback)).toMatchObject([
      { studentId: aisyah.id, tutorId: viewer.id, feedback: text },
    ]);
    await waitFor(() => expect(feedbackBox()).toHaveValue(""));
  });

  it("says why feedback could not be submitted and keeps the text", async () => {
    await openAs("Tutor");
    cutNetworkTo(({ method, path }) => method === "POST" && path === "/api/feedback");
    await pickStudent();
    typeFeedback("Well done.");
    submitFeedback();
    expect(await findToast("Error submitting feedback")).toBeInTheDocument();
    expect(screen.getByText(NETWORK_ERROR)).toBeInTheDocument();
    expect(feedbackBox()).toHaveValue("Well done.");
  });

  it("asks for a student before marking anything complete", async () => {
    await openAs("Tutor");
    markComplete();
    expect(await findToast("Choose a student")).toBeInTheDocument();
    await settle();
    expect(app.requests.filter((request) => request.method === "PUT")).toEqual([]);
  });

  it("marks both practice tasks complete for the chosen student, not for the tutor", async () => {
    const { aisyah } = await openAs("Tutor", {
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
    expect(requestsTo("PUT", /./)).toEqual([
      { path: `/api/users/${aisyah.id}/progress/chapter-1/day-1/${GREETING}`, body: { status: "completed" } },
      { path: `/api/users/${aisyah.id}/progress/chapter-1/day-1/${ORDERING}`, body: { status: "completed" } },
    ]);
    // Nothing written to the tutor's own progress.
    expect(requestsTo("PUT", /^\/api\/progress\//)).toEqual([]);
    expect((await app.progressOf(aisyah.id)).progress["chapter-1"]?.["day-1"]).toEqual({
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
    await openAs("Tutor");
    cutNetworkTo(({ method, path }) => method === "PUT" && path.startsWith("/api/users/"));
    await pickStudent();
    markComplete();
    expect(await findToast("Update Failed")).toBeInTheDocument();
    expect(screen.getByText(NETWORK_ERROR)).toBeInTheDocument();
    // Once the learner's progress is read again after the failure.
    await waitFor(() =>
      expect(within(controls()).getByRole("button", { name: "Mark as Complete for Student" })).toBeEnabled(),
    );
  });
});
