import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { user as userTable } from "#server/db/schema";
import { connectApp } from "#tests/web/app-in-process";
import { renderApp } from "#tests/web/render-app";
import { dayOneCardId, phraseIdOf, roundFor } from "#tests/web/review-test-kit";
import {
  DAY_1_PHRASES,
  figure,
  learnerWhoAnsweredWrong,
  pickLearner,
  strugglesPanel,
  weakestPhrases,
} from "#tests/web/staff-review-db-test-kit";

const app = await connectApp();

const { price, pagi } = DAY_1_PHRASES;

/** Signs a tutor in, opens /tutor and picks the learner. */
async function openTutorDashboardOn(learner: Parameters<typeof pickLearner>[0]) {
  await app.signInAs("Tutor");
  renderApp("/tutor");
  await screen.findByRole("heading", { level: 1, name: "Tutor Dashboard" });
  await pickLearner(learner);
}

describe("a learner's struggles on the Tutor Dashboard", () => {
  it("shows the phrase they answered wrong, with what they answered, their due cards, streak and last activity", async () => {
    const startedAt = Date.now();
    const { learner, wrongAnswer, summary } = await learnerWhoAnsweredWrong(app, price.id);
    expect(summary.streak).toBe(1);
    await openTutorDashboardOn(learner);

    const panel = await strugglesPanel("Aisyah Rahman");
    // Below the progress, which keeps its place.
    expect(screen.getByRole("heading", { level: 2, name: "Progress of Aisyah Rahman" })).toBeInTheDocument();
    expect(within(panel).getByRole("heading", { level: 2, name: "Struggles of Aisyah Rahman" })).toBeInTheDocument();

    // Day 1's two phrases, four cards each, one of them answered.
    expect(summary.due).toBe(7);
    expect(figure(panel, "Due now")).toEqual([`${summary.due} cards`, "of 8 cards in their deck"]);
    expect(figure(panel, "Streak")).toEqual(["1 day", "daily goal met in a row"]);
    const [relative] = figure(panel, "Last active");
    expect(relative).toBe("just now");
    const lastActive = within(panel).getByText("just now").closest("time")!;
    const at = Date.parse(lastActive.getAttribute("datetime")!);
    expect(at).toBeGreaterThanOrEqual(startedAt - 1_000);
    expect(at).toBeLessThanOrEqual(Date.now());
    expect(figure(panel, "Last active")[1]).toBe(
      new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short" }).format(at),
    );

    const [weakest, ...others] = weakestPhrases(panel);
    expect(others).toEqual([]);
    expect(within(weakest!).getByText(price.malay, { selector: "p > span" })).toHaveAttribute("lang", "ms");
    expect(weakest).toHaveTextContent(price.english);
    expect(weakest).toHaveTextContent("Day 1");
    expect(weakest).toHaveTextContent("1 wrong answer · 0 lapses");
    expect(weakest).toHaveTextContent(`They answered “${wrongAnswer}”`);
    expect(within(weakest!).getByRole("button", { name: `Pin to review: ${price.malay}` })).toBeEnabled();
  });

  it("pins a phrase so the learner's next round starts with its cards, marked from their tutor", async () => {
    const { learner } = await learnerWhoAnsweredWrong(app, price.id, "Nurul");
    await app.signIn(learner);
    const before = await roundFor(app);
    // Without the pin, the round would not start with the phrase: the test would prove nothing.
    expect(phraseIdOf(before.cards[0]!)).not.toBe(price.id);
    expect(before.cards.some((card) => card.fromTutor)).toBe(false);
    await app.signOut();

    await openTutorDashboardOn(learner);
    const panel = await strugglesPanel("Nurul Rahman");
    fireEvent.click(within(panel).getByRole("button", { name: `Pin to review: ${price.malay}` }));
    expect(await screen.findByText("Pinned to Nurul Rahman's review")).toBeInTheDocument();
    expect(screen.getByText(`“${price.malay}” comes first in their next review.`)).toBeInTheDocument();
    await waitFor(() => expect(within(weakestPhrases(panel)[0]!).getByText("Pinned")).toBeInTheDocument());
    expect(within(panel).queryByRole("button", { name: /^Pin to review/ })).not.toBeInTheDocument();

    await app.signOut();
    await app.signIn(learner);
    const { cards } = await roundFor(app);
    // Its spoken card first, then the card already reviewed (the meaning missed), then the new ones.
    expect(cards.slice(0, 4).map((card) => [card.cardId, card.fromTutor])).toEqual(
      (["speak", "recognise", "listen", "recall"] as const).map((skill) => [dayOneCardId(price.id, skill), true]),
    );
    // Pinned from the dashboard, without a rating: no tutor's note on the spoken card.
    expect(cards[0]!.tutor).toBeNull();
    expect(cards.slice(4).every((card) => !card.fromTutor && phraseIdOf(card) !== price.id)).toBe(true);
    expect(cards.slice(4).map((card) => card.cardId)).toContain(dayOneCardId(pagi.id, "recognise"));
  });

  it("says why a pin failed and keeps the button", async () => {
    const { learner } = await learnerWhoAnsweredWrong(app, price.id, "Farah");
    await openTutorDashboardOn(learner);
    const panel = await strugglesPanel("Farah Rahman");
    // The account goes while the tutor looks at it.
    await app.t.db.delete(userTable).where(eq(userTable.id, learner.id));
    fireEvent.click(within(panel).getByRole("button", { name: `Pin to review: ${price.malay}` }));
    const title = await screen.findByText("Could not pin the phrase");
    expect(title.closest("li")).toHaveClass("bg-destructive");
    expect(screen.getByText("There is no such user.")).toBeInTheDocument();
    await waitFor(() => expect(within(panel).getByRole("button", { name: /^Pin to review/ })).toBeEnabled());
  });

  it("says No reviews yet for a learner who has met no phrase", async () => {
    const learner = await app.createUser("Student", { firstName: "Siti", lastName: "Aminah" });
    await openTutorDashboardOn(learner);
    const panel = await strugglesPanel("Siti Aminah");
    expect(within(panel).getByText("No reviews yet")).toBeInTheDocument();
    expect(figure(panel, "Due now")).toEqual(["0 cards", "of 0 cards in their deck"]);
    expect(figure(panel, "Streak")).toEqual(["0 days", "daily goal met in a row"]);
    expect(figure(panel, "Last active")).toEqual(["Never", "no review, answer or progress yet"]);
    expect(within(panel).queryByRole("list", { name: "Weakest phrases" })).not.toBeInTheDocument();
    expect(within(panel).queryByRole("button", { name: /^Pin to review/ })).not.toBeInTheDocument();
  });
});
