import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { studioClip, studioTake } from "#server/db/schema";
import { connectApp } from "#tests/web/app-in-process";
import { renderApp } from "#tests/web/render-app";
import { makeVoice, otherVoice, startEachTestWithNoTakes, storeTake } from "#tests/web/studio-db-test-kit";

const app = await connectApp();
startEachTestWithNoTakes(app);

const MINUTE = 60_000;
const takeOf = async (takeId: string) =>
  (await app.t.db.select().from(studioTake).where(eq(studioTake.id, takeId)))[0]!;

/**
 * Aina (a voice) opens the Review tab: Budi's takes of Pak Cik Ali's question (the oldest) and of
 * Alex's thanks wait, and so does her own take of Alex's order.
 */
async function openReview() {
  const me = await app.signInAs("Tutor");
  await makeVoice(app, me, { creditedName: "Aina" });
  const budi = await otherVoice(app, "Budi");
  const now = Date.now();
  const question = await storeTake(app, {
    voiceId: budi.id,
    lineId: "line-nak-minum",
    state: "in-review",
    createdAt: new Date(now - 30 * MINUTE),
  });
  const mine = await storeTake(app, {
    voiceId: me.id,
    lineId: "line-kopi-o",
    state: "in-review",
    createdAt: new Date(now - 20 * MINUTE),
  });
  const thanks = await storeTake(app, {
    voiceId: budi.id,
    lineId: "line-terima-kasih",
    state: "in-review",
    createdAt: new Date(now - 10 * MINUTE),
  });
  renderApp("/studio");
  fireEvent.mouseDown(await screen.findByRole("tab", { name: "Review, 3 waiting" }));
  const list = await screen.findByRole("list", { name: "Takes waiting for review" });
  return { me, budi, list, takes: { question, mine, thanks } };
}

const item = (malay: string) => screen.getByRole("article", { name: malay });

describe("the studio's review", () => {
  it("lists the takes waiting, oldest first, each with its voice, both clips and its loudness; never one's own to decide", async () => {
    const { list } = await openReview();
    expect(
      within(list)
        .getAllByRole("article")
        .map((each) => each.querySelector("[lang=ms]")?.textContent),
    ).toEqual(["Nak minum apa?", "Saya nak kopi-O satu.", "Terima kasih."]);
    const question = item("Nak minum apa?");
    expect(question).toHaveTextContent("Pak Cik Ali · recorded by Budi (Johor)");
    expect(question).toHaveTextContent("-16.1 LUFS, true peak -1.4 dBTP, 1.4 s");
    expect(within(question).getByRole("button", { name: "Play take" })).toBeInTheDocument();
    expect(within(question).getByRole("button", { name: "Play synthetic clip" })).toBeInTheDocument();
    expect(within(question).getByRole("button", { name: "Approve" })).toBeInTheDocument();
    expect(within(question).getByRole("button", { name: "Reject" })).toBeInTheDocument();

    const mine = item("Saya nak kopi-O satu.");
    expect(mine).toHaveTextContent("recorded by Aina (Kelantan)");
    expect(mine).toHaveTextContent("Your own take: another voice or an Admin reviews it.");
    expect(within(mine).queryByRole("button", { name: "Approve" })).not.toBeInTheDocument();
    expect(within(mine).queryByRole("button", { name: "Reject" })).not.toBeInTheDocument();
  });

  it("publishes an approved take, and the list updates", async () => {
    const { me, takes } = await openReview();
    fireEvent.click(within(item("Nak minum apa?")).getByRole("button", { name: "Approve" }));
    expect(await screen.findByText("Published: learners now hear Budi on this line.")).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole("article", { name: "Nak minum apa?" })).not.toBeInTheDocument());
    expect(screen.getByRole("tab", { name: "Review, 2 waiting" })).toBeInTheDocument();
    expect(await takeOf(takes.question)).toMatchObject({ state: "published", reviewedBy: me.id });
    const [clip] = await app.t.db.select().from(studioClip).where(eq(studioClip.lineId, "line-nak-minum"));
    expect(clip).toMatchObject({ takeId: takes.question, speaker: "Pak Cik Ali" });
  });

  it("sends a take back only with a reason, which its voice reads", async () => {
    const { takes } = await openReview();
    fireEvent.click(within(item("Terima kasih.")).getByRole("button", { name: "Reject" }));
    const dialog = await screen.findByRole("dialog", { name: "Send this take back?" });
    expect(dialog).toHaveTextContent("Tell Budi what to change");
    const sent = () => app.requests.filter(({ method, path }) => method === "POST" && path.endsWith("/review"));

    fireEvent.click(within(dialog).getByRole("button", { name: "Send back" }));
    expect(within(dialog).getByText("Say why, so the voice knows what to change.")).toBeInTheDocument();
    expect(within(dialog).getByRole("textbox", { name: "Reason" })).toHaveAttribute("aria-invalid", "true");
    expect(sent()).toEqual([]);

    fireEvent.change(within(dialog).getByRole("textbox", { name: "Reason" }), {
      target: { value: "  The line ends too soon: keep the whole of kasih.  " },
    });
    fireEvent.click(within(dialog).getByRole("button", { name: "Send back" }));
    expect(await screen.findByText("Sent back to Budi with your reason.")).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    await waitFor(() => expect(screen.queryByRole("article", { name: "Terima kasih." })).not.toBeInTheDocument());
    expect(sent()[0]?.body).toEqual({ decision: "reject", reason: "The line ends too soon: keep the whole of kasih." });
    expect(await takeOf(takes.thanks)).toMatchObject({
      state: "rejected",
      reason: "The line ends too soon: keep the whole of kasih.",
    });
  });
});
