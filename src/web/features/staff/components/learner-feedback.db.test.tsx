import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { tutorFeedback } from "#server/db/schema";
import { connectApp } from "#tests/web/app-in-process";
import { startEachTestWithNoAccounts } from "#tests/web/staff-db-test-kit";
import { openTutorDashboard, pickUser } from "#tests/web/staff-test-kit";

const app = await connectApp();
startEachTestWithNoAccounts(app);

/** Farid's note to Aisyah on day 1, and Mei's (an Admin) on day 2, sent three days later. */
const FARIDS = {
  chapterId: "chapter-1",
  dayId: "day-1",
  feedback: "Your greetings were clear.\nTry Selamat petang next.",
  createdAt: "2026-11-20T12:00:00.000Z",
};
const MEIS = {
  chapterId: "chapter-1",
  dayId: "day-2",
  feedback: "Good bargaining at the market.",
  createdAt: "2026-11-23T12:00:00.000Z",
};

/** Opens /tutor as Farid (a Tutor, unless told), with the two notes sent to Aisyah, and picks her. */
async function openAisyahsFeedback(role: "Tutor" | "Admin" = "Tutor") {
  const accounts = await openTutorDashboard(app, role);
  const faridsId = await app.seedFeedback(accounts.aisyah.id, accounts.farid.id, FARIDS);
  const meisId = await app.seedFeedback(accounts.aisyah.id, accounts.mei.id, MEIS);
  await pickUser("aisy", /Aisyah Rahman/);
  const panel = (await screen.findByRole("heading", { level: 2, name: "Feedback sent to Aisyah Rahman" })).closest(
    "section",
  )!;
  await waitFor(() => expect(within(panel).getAllByRole("listitem")).toHaveLength(2));
  const [newest, oldest] = within(panel).getAllByRole("listitem");
  return { ...accounts, panel, faridsId, meisId, meisNote: newest!, faridsNote: oldest! };
}

const storedNote = async (id: string) =>
  (await app.t.db.select().from(tutorFeedback).where(eq(tutorFeedback.id, id)))[0];

const CORRECT_FARIDS = /^Correct the feedback on Day 1 of 20 Nov 2026$/;
const WITHDRAW_FARIDS = /^Withdraw the feedback on Day 1 of 20 Nov 2026$/;

// Each test renders the whole course grid above the feedback (a Radix select per task), which jsdom
// takes a second or more to build on a busy machine: the default 5 s leaves too little room.
describe("the feedback sent to a learner, on the Tutor Dashboard", { timeout: 20_000 }, () => {
  it("lists every note newest first, with its day, sender and date; the tutor may change only their own", async () => {
    const { meisNote, faridsNote } = await openAisyahsFeedback();
    expect(meisNote).toHaveTextContent("Day 2: The market");
    expect(meisNote).toHaveTextContent("From Mei Lin, 23 Nov 2026");
    expect(meisNote).toHaveTextContent(MEIS.feedback);
    expect(within(meisNote).queryByRole("button")).not.toBeInTheDocument();

    expect(faridsNote).toHaveTextContent("Day 1: Greetings and a drink");
    expect(faridsNote).toHaveTextContent("From Farid Ismail, 20 Nov 2026");
    expect(within(faridsNote).getByText(/Your greetings were clear\./)).toHaveClass("whitespace-pre-line");
    expect(within(faridsNote).getByText("20 Nov 2026")).toHaveAttribute("datetime", FARIDS.createdAt);
    expect(faridsNote).not.toHaveTextContent("Corrected");
    expect(within(faridsNote).getByRole("button", { name: CORRECT_FARIDS })).toBeEnabled();
    expect(within(faridsNote).getByRole("button", { name: WITHDRAW_FARIDS })).toBeEnabled();
  });

  it("lets an Admin correct and withdraw every note", async () => {
    const { meisNote, faridsNote } = await openAisyahsFeedback("Admin");
    for (const note of [meisNote, faridsNote]) {
      expect(within(note).getByRole("button", { name: /^Correct / })).toBeEnabled();
      expect(within(note).getByRole("button", { name: /^Withdraw / })).toBeEnabled();
    }
  });

  it("corrects a note in place: the learner reads the correction, marked corrected", async () => {
    const { faridsNote, faridsId, aisyah } = await openAisyahsFeedback();
    fireEvent.click(within(faridsNote).getByRole("button", { name: CORRECT_FARIDS }));
    const box = within(faridsNote).getByRole("textbox", { name: "Corrected feedback" });
    expect(box).toHaveValue(FARIDS.feedback);
    expect(box).toHaveFocus();

    // Cancel leaves it as it was, and sends nothing.
    fireEvent.change(box, { target: { value: "Not this." } });
    fireEvent.click(within(faridsNote).getByRole("button", { name: "Cancel" }));
    expect(within(faridsNote).queryByRole("textbox")).not.toBeInTheDocument();
    expect(faridsNote).toHaveTextContent("Your greetings were clear. Try Selamat petang next.");
    expect(within(faridsNote).getByRole("button", { name: CORRECT_FARIDS })).toHaveFocus();
    expect(app.requests.filter(({ method }) => method === "PATCH")).toEqual([]);

    // An empty correction is refused before it is sent.
    fireEvent.click(within(faridsNote).getByRole("button", { name: CORRECT_FARIDS }));
    fireEvent.change(within(faridsNote).getByRole("textbox"), { target: { value: "   " } });
    fireEvent.click(within(faridsNote).getByRole("button", { name: "Save" }));
    expect(await screen.findByText("Feedback cannot be empty")).toBeInTheDocument();
    expect(app.requests.filter(({ method }) => method === "PATCH")).toEqual([]);

    fireEvent.change(within(faridsNote).getByRole("textbox"), {
      target: { value: "  Your greetings were clear.\nTry Selamat petang in the afternoon. " },
    });
    fireEvent.click(within(faridsNote).getByRole("button", { name: "Save" }));
    expect(await screen.findByText("Feedback corrected.")).toBeInTheDocument();
    await waitFor(() => expect(within(faridsNote).queryByRole("textbox")).not.toBeInTheDocument());
    expect(faridsNote).toHaveTextContent("Try Selamat petang in the afternoon.");
    expect(faridsNote).toHaveTextContent(/Corrected \d{1,2} \w{3} \d{4}/);

    const stored = await storedNote(faridsId);
    expect(stored).toMatchObject({
      feedback: "Your greetings were clear.\nTry Selamat petang in the afternoon.",
      createdAt: new Date(FARIDS.createdAt),
    });
    expect(stored!.correctedAt).toBeInstanceOf(Date);
    expect(
      within(faridsNote)
        .getByText(/^Corrected/)
        .querySelector("time"),
    ).toHaveAttribute("datetime", stored!.correctedAt!.toISOString());
    const received = await app.t.modules.feedback.service.received(aisyah.id);
    expect(received.find((note) => note.id === faridsId)).toMatchObject({
      feedback: "Your greetings were clear.\nTry Selamat petang in the afternoon.",
      correctedAt: stored!.correctedAt,
    });
  });

  it("withdraws a note once confirmed: it leaves the list, and the learner no longer sees it", async () => {
    const { panel, faridsNote, faridsId, meisId, aisyah } = await openAisyahsFeedback();

    fireEvent.click(within(faridsNote).getByRole("button", { name: WITHDRAW_FARIDS }));
    let dialog = await screen.findByRole("alertdialog", { name: "Withdraw this feedback?" });
    expect(dialog).toHaveTextContent("Aisyah Rahman will no longer see it");
    expect(dialog).toHaveTextContent("cannot be undone");
    expect(dialog).toHaveTextContent(/Your greetings were clear\./);
    fireEvent.click(within(dialog).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument());
    expect(app.requests.filter(({ method }) => method === "DELETE")).toEqual([]);
    expect(await storedNote(faridsId)).toBeDefined();

    fireEvent.click(within(faridsNote).getByRole("button", { name: WITHDRAW_FARIDS }));
    dialog = await screen.findByRole("alertdialog", { name: "Withdraw this feedback?" });
    fireEvent.click(within(dialog).getByRole("button", { name: "Withdraw" }));
    expect(await screen.findByText("Feedback withdrawn.")).toBeInTheDocument();
    await waitFor(() => expect(within(panel).getAllByRole("listitem")).toHaveLength(1));
    expect(within(panel).queryByText(/Your greetings were clear\./)).not.toBeInTheDocument();
    expect(within(panel).getByText(MEIS.feedback)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument());

    expect(app.requests.filter(({ method }) => method === "DELETE").map(({ path }) => path)).toEqual([
      `/api/feedback/${faridsId}`,
    ]);
    expect(await storedNote(faridsId)).toBeUndefined();
    const received = await app.t.modules.feedback.service.received(aisyah.id);
    expect(received.map((note) => note.id)).toEqual([meisId]);
  });

  it("says why a withdrawal failed when the note was already gone", async () => {
    const { faridsNote, faridsId } = await openAisyahsFeedback();
    // Another tab withdrew it meanwhile.
    await app.t.db.delete(tutorFeedback).where(eq(tutorFeedback.id, faridsId));
    fireEvent.click(within(faridsNote).getByRole("button", { name: WITHDRAW_FARIDS }));
    const dialog = await screen.findByRole("alertdialog");
    fireEvent.click(within(dialog).getByRole("button", { name: "Withdraw" }));
    expect(await screen.findByText("Error withdrawing feedback")).toBeInTheDocument();
    expect(screen.getByText("There is no such feedback.")).toBeInTheDocument();
  });

  it("says when the learner has no feedback yet", async () => {
    await openTutorDashboard(app);
    await pickUser("ben", /Benny/);
    const panel = (
      await screen.findByRole("heading", { level: 2, name: "Feedback sent to Ben Carter (Benny)" })
    ).closest("section")!;
    expect(await within(panel).findByText("No feedback yet")).toBeInTheDocument();
    expect(within(panel).queryByRole("listitem")).not.toBeInTheDocument();
  });
});
