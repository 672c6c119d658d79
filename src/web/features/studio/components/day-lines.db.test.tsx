import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { studioClip } from "#server/db/schema";
import { connectApp } from "#tests/web/app-in-process";
import { renderApp } from "#tests/web/render-app";
import { microphoneAnswering } from "#tests/web/speaking-test-kit";
import { makeVoice, otherVoice, startEachTestWithNoTakes, storeTake } from "#tests/web/studio-db-test-kit";

const app = await connectApp();
startEachTestWithNoTakes(app);

const QUIET = "Too quiet: move closer to the microphone.";
const CLIPPING_OK = "No clipping.";

/** The day's lines as the studio lists them: each an article named by its Malay. */
const row = (malay: string) => screen.getByRole("article", { name: malay });
/** The Malay of each line listed, in order. */
const rowNames = () =>
  within(screen.getByRole("list", { name: "Lines" }))
    .getAllByRole("article")
    .map((article) => article.querySelector("[lang=ms]")?.textContent);

/**
 * Chapter 1, day 1 as a voice finds it: Alex's greeting published in Budi's voice, Pak Cik Ali's
 * question's latest take (Aina's) failed a check, Alex's order sent back by Budi, Alex's thanks in
 * review, and Budi's take of a price in review; the narration and the other lines have no take.
 */
async function openDayOne(role: "Tutor" | "Admin" = "Tutor") {
  const me = await app.signInAs(role);
  await makeVoice(app, me, { creditedName: "Aina" });
  const budi = await otherVoice(app, "Budi");
  await storeTake(app, {
    voiceId: budi.id,
    lineId: "line-selamat-pagi",
    state: "published",
    speaker: "Alex",
    reviewedBy: me.id,
  });
  await storeTake(app, {
    voiceId: me.id,
    lineId: "line-nak-minum",
    state: "needs-fix",
    checks: [
      { id: "quiet", ok: false, message: QUIET },
      { id: "clipping", ok: true, message: CLIPPING_OK },
    ],
  });
  await storeTake(app, {
    voiceId: me.id,
    lineId: "line-kopi-o",
    state: "rejected",
    reason: "Say kopi-O with a rising O.",
    reviewedBy: budi.id,
  });
  await storeTake(app, { voiceId: me.id, lineId: "line-terima-kasih", state: "in-review" });
  await storeTake(app, { voiceId: budi.id, lineId: "vocab-price", state: "in-review" });
  renderApp("/studio");
  await screen.findByRole("article", { name: "Selamat pagi, pak cik!" });
  return { me, budi };
}

describe("the studio's lines of a day", () => {
  it("lists each line with its speaker, kind, state, current clip and latest take", async () => {
    await openDayOne();
    const day = screen.getByRole("combobox", { name: "Day" });
    expect(within(day).getByRole("option", { selected: true })).toHaveTextContent(/^Chapter 1, Day 1: .+: 1 of \d+$/);
    expect(screen.getByText(/^1 of \d+ lines have a native voice \(2 in review\)\.$/)).toBeInTheDocument();

    const greeting = row("Selamat pagi, pak cik!");
    expect(greeting).toHaveTextContent("Good morning!");
    expect(greeting).toHaveTextContent("Alex · Story");
    expect(within(greeting).getByText("Published")).toBeInTheDocument();
    expect(greeting).toHaveTextContent("Voice: Budi (Johor)");
    // Neither Budi's own nor an Admin's: Aina may not take Budi's clip down.
    expect(within(greeting).queryByRole("button", { name: "Unpublish" })).not.toBeInTheDocument();

    const question = row("Nak minum apa?");
    expect(question).toHaveTextContent("Pak Cik Ali · Story");
    expect(within(question).getByText("Recorded")).toBeInTheDocument();
    const failed = within(question).getByRole("list", { name: "Failed checks" });
    expect(failed).toHaveTextContent(QUIET);
    expect(question).not.toHaveTextContent(CLIPPING_OK);
    expect(within(question).getByRole("button", { name: "Record again" })).toBeInTheDocument();

    const order = row("Saya nak kopi-O satu.");
    expect(within(order).getByText("Rejected")).toBeInTheDocument();
    // Aina's own takes are hers; none of these is another voice's.
    expect(order).not.toHaveTextContent("Latest take, by");
    expect(order).toHaveTextContent("Sent back by");
    expect(order).toHaveTextContent("Say kopi-O with a rising O.");

    const thanks = row("Terima kasih.");
    expect(within(thanks).getByText("In review")).toBeInTheDocument();
    expect(within(thanks).getByRole("button", { name: "Play take in review" })).toBeInTheDocument();

    const price = row("Tujuh ringgit lima puluh sen");
    expect(price).toHaveTextContent("Narrator · Phrase");
    expect(price).toHaveTextContent("Latest take, by Budi:");
    expect(within(price).getByText("In review")).toBeInTheDocument();

    const narration = row("Pagi di kopitiam.");
    expect(narration).toHaveTextContent("Narrator · Story");
    expect(within(narration).getByText("Synthetic")).toBeInTheDocument();
    for (const line of [greeting, question, order, thanks, narration]) {
      expect(within(line).getByRole("button", { name: "Play current clip" })).toBeInTheDocument();
      expect(within(line).getByRole("button", { name: "Record" })).toHaveAttribute("aria-keyshortcuts", "R");
    }
  });

  it("filters the lines by speaker and by state, and offers to record all of a speaker's lines", async () => {
    await openDayOne();
    const speaker = screen.getByRole("combobox", { name: "Speaker" });
    const state = screen.getByRole("combobox", { name: "State" });
    expect(screen.queryByRole("button", { name: /^Record all of/ })).not.toBeInTheDocument();

    fireEvent.change(speaker, { target: { value: "Pak Cik Ali" } });
    expect(rowNames()).toEqual(["Nak minum apa?"]);
    expect(screen.getByRole("button", { name: "Record all of Pak Cik Ali's lines" })).toBeInTheDocument();

    fireEvent.change(speaker, { target: { value: "Alex" } });
    expect(rowNames()).toEqual(["Selamat pagi, pak cik!", "Saya nak kopi-O satu.", "Terima kasih."]);
    fireEvent.change(state, { target: { value: "published" } });
    expect(rowNames()).toEqual(["Selamat pagi, pak cik!"]);
    fireEvent.change(state, { target: { value: "synthetic" } });
    expect(screen.getByText("No line of this day matches the filters.")).toBeInTheDocument();

    fireEvent.change(state, { target: { value: "" } });
    fireEvent.change(speaker, {
      target: { value: within(speaker).getByRole("option", { name: "Narrator" }).getAttribute("value") },
    });
    // The narration, and the phrases and role-play lines no character says.
    expect(rowNames()).toEqual([
      "Selamat pagi",
      "Tujuh ringgit lima puluh sen",
      "Pagi di kopitiam.",
      "Apa khabar?",
      "Teh tarik satu.",
    ]);
    fireEvent.click(screen.getByRole("button", { name: "Record all of Narrator's lines" }));
    expect(screen.getByText(/Recording all of Narrator's lines/)).toHaveTextContent("Now: Selamat pagi");
    expect(row("Selamat pagi")).toHaveAttribute("aria-current", "true");
  });

  it("records the selected line on R, but not while typing in a field, and says when the microphone is refused", async () => {
    const getUserMedia = vi.fn(() => Promise.reject(new DOMException("refused", "NotAllowedError")));
    microphoneAnswering(getUserMedia);
    await openDayOne();
    fireEvent.keyDown(screen.getByRole("combobox", { name: "Speaker" }), { key: "r" });
    expect(getUserMedia).not.toHaveBeenCalled();

    fireEvent.click(row("Nak minum apa?"));
    expect(row("Nak minum apa?")).toHaveAttribute("aria-current", "true");
    fireEvent.keyDown(document.body, { key: "r" });
    expect(await screen.findByRole("alert")).toHaveTextContent("Jalan may not use your microphone.");
    expect(getUserMedia).toHaveBeenCalledWith({
      audio: { echoCancellation: false, noiseSuppression: false, autoGainControl: false, channelCount: 1 },
    });
  });

  it("lets an Admin unpublish a line after asking, and espeak is its clip again", async () => {
    await openDayOne("Admin");
    const greeting = row("Selamat pagi, pak cik!");
    fireEvent.click(within(greeting).getByRole("button", { name: "Unpublish" }));
    const ask = await screen.findByRole("alertdialog", { name: "Unpublish this clip?" });
    fireEvent.click(within(ask).getByRole("button", { name: "Unpublish" }));
    expect(await screen.findByText("Unpublished")).toBeInTheDocument();
    await waitFor(() => expect(within(row("Selamat pagi, pak cik!")).getByText("Synthetic")).toBeInTheDocument());
    expect(await app.t.db.select().from(studioClip).where(eq(studioClip.lineId, "line-selamat-pagi"))).toEqual([]);
  });

  it("opens the day the picker chose, kept in the address", async () => {
    const { router } = await (async () => {
      const me = await app.signInAs("Tutor");
      await makeVoice(app, me, { creditedName: "Aina" });
      const page = renderApp("/studio?day=chapter-1/day-2");
      await screen.findByRole("article", { name: "Tandas" });
      return page;
    })();
    expect(screen.queryByRole("article", { name: "Nak minum apa?" })).not.toBeInTheDocument();
    const day = screen.getByRole("combobox", { name: "Day" });
    expect(within(day).getByRole("option", { selected: true })).toHaveTextContent(/^Chapter 1, Day 2: /);

    fireEvent.change(day, { target: { value: "chapter-1/day-1" } });
    expect(await screen.findByRole("article", { name: "Nak minum apa?" })).toBeInTheDocument();
    expect(router.state.location.search).toBe("?day=chapter-1%2Fday-1");
    fireEvent.mouseDown(screen.getByRole("tab", { name: /^Review/ }));
    await waitFor(() => expect(router.state.location.search).toBe("?day=chapter-1%2Fday-1&tab=review"));
    expect(await screen.findByText("No take is waiting for review.")).toBeInTheDocument();
  });
});
