import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { Feedback } from "#course/feedback";
import { roundFor } from "#web/features/review/components/review-test-kit";
import {
  DAY_1_PHRASES,
  learnerWhoAnsweredWrong,
  pickLearner,
  strugglesPanel,
  weakestPhrases,
} from "#web/features/staff/components/review-db-test-kit";
import { connectApp } from "#web/testing/app-in-process";
import { renderApp } from "#web/testing/render-app";
import { stubAudio } from "#web/testing/screen";

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
    expect(cards.slice(0, 3).map((card) => [card.cardId, card.fromTutor])).toEqual(
      ["recognise", "listen", "recall"].map((skill) => [`chapter-1/day-1/${pagi.id}/${skill}`, true]),
    );
    expect(cards.slice(3).some((card) => card.fromTutor)).toBe(false);
    const { feedback } = await app.read<{ feedback: Feedback[] }>("/api/feedback");
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
