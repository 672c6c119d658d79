import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { CallRoom, CueCard } from "#server/modules/calls/calls.contract";
import { insertBooking } from "#tests/booked-session";
import { connectApp } from "#tests/web/app-in-process";
import { createQueryClient } from "#web/lib/query-client";
import { AppProviders } from "#web/providers";
import { SessionRecordPanel } from "./session-record";

const app = await connectApp();

/**
 * The tutor of a confirmed session of day 1 starting in two minutes (its room, and so its notes, are
 * open), signed in, and the room as the server gives it to them.
 */
async function tutorInRoom() {
  const tutor = await app.signInAs("Tutor");
  const learner = await app.createUser("Student");
  const startsAt = new Date(Date.now() + 2 * 60_000);
  const bookingId = await insertBooking(app.t, { tutorId: tutor.id, learnerId: learner.id, startsAt });
  return { bookingId, room: await app.read<CallRoom>(`/api/calls/${bookingId}`) };
}

function renderRecord(room: CallRoom) {
  render(
    <AppProviders queryClient={createQueryClient()}>
      <SessionRecordPanel room={room} />
    </AppProviders>,
  );
  return screen.getByRole("textbox", { name: /^Notes for / });
}

const storedNotes = async (bookingId: string) => (await app.read<CallRoom>(`/api/calls/${bookingId}`)).record.notes;

describe("the tutor's notes", () => {
  it("count their characters toward the 4,000 the server keeps, the count read with the box", async () => {
    const { bookingId, room } = await tutorInRoom();
    const notes = renderRecord(room);
    expect(notes).toHaveAttribute("maxLength", "4000");
    expect(screen.getByText("0 / 4,000 characters")).toBeVisible();
    expect(notes).toHaveAccessibleDescription(
      "They become the day's feedback when you end the session. 0 / 4,000 characters",
    );

    const text = "Bagus! ".repeat(200).slice(0, 1234);
    fireEvent.change(notes, { target: { value: text } });
    expect(screen.getByText("1,234 / 4,000 characters")).toBeVisible();
    expect(notes).toHaveAccessibleDescription(/1,234 \/ 4,000 characters$/);
    // Saved whole.
    expect(await screen.findByText(/^Saved at /)).toBeInTheDocument();
    expect(await storedNotes(bookingId)).toBe(text);
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });

  it("say so when a paste is longer than the notes hold, and forget it once there is room", async () => {
    const { bookingId, room } = await tutorInRoom();
    const notes = renderRecord(room) as HTMLTextAreaElement;
    const before = "a".repeat(3990);
    fireEvent.change(notes, { target: { value: before } });
    notes.setSelectionRange(before.length, before.length);

    // The browser pastes what fits of the 26 characters (maxLength) and drops the rest.
    const pasted = "Sila ulang: Apa khabar? ..";
    fireEvent.paste(notes, { clipboardData: { getData: () => pasted } });
    fireEvent.change(notes, { target: { value: before + pasted.slice(0, 10) } });
    expect(screen.getByRole("alert")).toHaveTextContent(
      "Notes hold 4,000 characters: the last 16 of what you pasted did not fit.",
    );
    expect(screen.getByText("4,000 / 4,000 characters")).toBeVisible();
    await waitFor(async () => expect(await storedNotes(bookingId)).toBe(before + pasted.slice(0, 10)));

    fireEvent.change(notes, { target: { value: before } });
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
    expect(screen.getByText("3,990 / 4,000 characters")).toBeVisible();
  });

  it("let a paste that fits in without a word", async () => {
    const { room } = await tutorInRoom();
    const notes = renderRecord(room) as HTMLTextAreaElement;
    fireEvent.change(notes, { target: { value: "a".repeat(3990) } });
    notes.setSelectionRange(0, 10);
    // Pasted over ten selected characters: 4,000 in all.
    fireEvent.paste(notes, { clipboardData: { getData: () => "b".repeat(20) } });
    fireEvent.change(notes, { target: { value: "b".repeat(20) + "a".repeat(3980) } });
    expect(screen.getByText("4,000 / 4,000 characters")).toBeVisible();
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });
});

describe("the cue cards", () => {
  it("show the learner each line's English and keep the Malay back until they ask, card by card", async () => {
    const tutor = await app.createUser("Tutor");
    const learner = await app.signInLearner();
    const bookingId = await insertBooking(app.t, { tutorId: tutor.id, learnerId: learner.id, startsAt: new Date() });
    const room = await app.read<CallRoom>(`/api/calls/${bookingId}`);
    const [first, second] = room.record.rolePlays as [CueCard, CueCard];
    expect(second).toBeDefined();
    render(
      <AppProviders queryClient={createQueryClient()}>
        <SessionRecordPanel room={room} />
      </AppProviders>,
    );
    const cards = screen.getAllByRole("button", { name: "Show the Malay" });
    expect(cards).toHaveLength(room.record.rolePlays.length);
    for (const card of room.record.rolePlays) {
      for (const phrase of card.phrases) {
        expect(screen.getAllByText(phrase.english).length).toBeGreaterThan(0);
        expect(screen.queryByText(phrase.malay)).not.toBeInTheDocument();
      }
    }

    fireEvent.click(cards[0]!);
    expect(cards[0]).toHaveAttribute("aria-expanded", "true");
    expect(cards[0]).toHaveAccessibleName("Hide the Malay");
    for (const phrase of first.phrases) expect(screen.getByText(phrase.malay)).toHaveAttribute("lang", "ms");
    // The other card still keeps its Malay back.
    for (const phrase of second.phrases) expect(screen.queryByText(phrase.malay)).not.toBeInTheDocument();

    fireEvent.click(cards[0]!);
    for (const phrase of first.phrases) expect(screen.queryByText(phrase.malay)).not.toBeInTheDocument();
  });

  it("show the tutor the Malay of every line, to rate it, with the learner's brief above End session", async () => {
    const { room } = await tutorInRoom();
    renderRecord(room);
    expect(screen.queryByRole("button", { name: "Show the Malay" })).not.toBeInTheDocument();
    for (const card of room.record.rolePlays) {
      for (const phrase of card.phrases) {
        expect(screen.getByRole("radiogroup", { name: `Rating of “${phrase.malay}”` })).toBeInTheDocument();
        expect(screen.getAllByText(phrase.malay)[0]).toHaveAttribute("lang", "ms");
      }
    }
    const brief = screen.getByRole("heading", { name: /^What .* finds hard$/ });
    const end = screen.getByRole("button", { name: "End session" });
    expect(brief.compareDocumentPosition(end) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });
});
