import { QueryClientProvider } from "@tanstack/react-query";
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ExerciseItem } from "#course/exercise-schema";
import { DAY_ONE_PRACTICE } from "#tests/fixtures/course";
import {
  active,
  answerRight,
  checkByKeyboard,
  choose,
  continueByKeyboard,
  press,
  pressButton,
  status,
  stubResizeObserver,
  tab,
  tabTo,
  type,
} from "#tests/web/practice-test-kit";
import { stubAudio } from "#tests/web/screen";
import { createQueryClient } from "#web/lib/query-client";
import PracticeSet from "./practice-set";

/** Day 1's practice set of the fixture course: one item of every kind, named by kind here. */
const byKind = <Kind extends ExerciseItem["kind"]>(kind: Kind) =>
  DAY_ONE_PRACTICE.items.find((item): item is Extract<ExerciseItem, { kind: Kind }> => item.kind === kind)!;
const ITEMS = {
  comprehension: byKind("comprehension"),
  listen: byKind("listen-choose"),
  build: byKind("build-sentence"),
  typeMalay: byKind("type-malay"),
  typeHeard: byKind("type-heard"),
  match: byKind("match-pairs"),
  typePrice: byKind("type-price"),
  choosePrice: byKind("choose-price"),
  replyChoose: byKind("reply-choose"),
  replyType: byKind("reply-type"),
};

const ALL_ITEMS: ExerciseItem[] = Object.values(ITEMS);

let fetchMock: ReturnType<typeof vi.fn>;

beforeEach(() => {
  stubResizeObserver();
  // A visitor's set is graded in the browser: any request would be a bug.
  fetchMock = vi.fn(() => Promise.reject(new Error("A visitor's practice must not call the network.")));
  vi.stubGlobal("fetch", fetchMock);
});

afterEach(() => {
  expect(fetchMock).not.toHaveBeenCalled();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function renderSet(items: ExerciseItem[], props: { completed?: boolean } = {}) {
  const onCompleted = vi.fn();
  render(
    <QueryClientProvider client={createQueryClient()}>
      <PracticeSet
        chapterId="chapter-1"
        dayId="day-1"
        taskId="codebook:practice"
        items={items}
        signedIn={false}
        completed={props.completed ?? false}
        onCompleted={onCompleted}
      />
    </QueryClientProvider>,
  );
  return { onCompleted };
}

describe("PracticeSet for a visitor", () => {
  it("answers every kind right by keyboard alone, telling each result, then completes once", async () => {
    stubAudio();
    const { onCompleted } = renderSet(ALL_ITEMS);
    for (const [index, item] of ALL_ITEMS.entries()) {
      expect(screen.getByText(`Item ${index + 1} of ${ALL_ITEMS.length}`)).toBeInTheDocument();
      const fieldset = screen.getByRole("group", { name: item.prompt });
      // After Continue, focus is on the new item's first control.
      if (index > 0) expect(fieldset).toContainElement(active());
      await answerRight(item);
      expect(await screen.findByRole("heading", { name: "Right!" })).toBeInTheDocument();
      expect(status()).toHaveTextContent(/^Right! /);
      expect(onCompleted).toHaveBeenCalledTimes(index === ALL_ITEMS.length - 1 ? 1 : 0);
      await continueByKeyboard();
    }
    const summary = screen.getByRole("heading", { name: "Practice complete" });
    expect(summary).toHaveFocus();
    expect(screen.getByText("All 10 items answered right.")).toBeInTheDocument();
    expect(screen.getByText("10 of 10 right first time.")).toBeInTheDocument();
    expect(status()).toHaveTextContent("Practice complete. All 10 items answered right. 10 of 10 right first time.");

    // Practising again does not complete the set a second time.
    await pressButton("Practise again");
    expect(screen.getByText("Item 1 of 10")).toBeInTheDocument();
    expect(screen.getByRole("group", { name: ITEMS.comprehension.prompt })).toContainElement(active());
    expect(onCompleted).toHaveBeenCalledTimes(1);
  });

  it("marks the choice given wrong and the right one, says why, and counts the item seen", async () => {
    renderSet([ITEMS.comprehension, ITEMS.choosePrice]);
    expect(screen.getByText("Item 1 of 2")).toBeInTheDocument();
    await choose("Pulled tea");
    await checkByKeyboard();
    expect(screen.getByRole("radio", { name: "Pulled tea" })).toHaveAccessibleDescription("Your answer: wrong");
    expect(screen.getByRole("radio", { name: "Black coffee with sugar" })).toHaveAccessibleDescription("Right answer");
    expect(screen.getByRole("radio", { name: "Iced Milo" })).toHaveAccessibleDescription("");
    expect(screen.getByText(`Why: ${ITEMS.comprehension.explain}`)).toBeInTheDocument();
    expect(status()).toHaveTextContent(
      `Not quite. The answer is: Black coffee with sugar ${ITEMS.comprehension.explain}`,
    );
    await continueByKeyboard();
    // The next item is the second seen; the missed one comes back as a third.
    expect(screen.getByText("Item 2 of 3")).toBeInTheDocument();
    await answerRight(ITEMS.choosePrice);
    // Right: nothing marked, no explanation.
    expect(screen.queryByText("Right answer")).toBeNull();
    expect(screen.queryByText(/^Why:/)).toBeNull();
    await continueByKeyboard();
    expect(screen.getByText("Item 3 of 3")).toBeInTheDocument();
    await answerRight(ITEMS.comprehension);
    await continueByKeyboard();
    expect(screen.getByText("1 of 2 right first time. 1 after another go.")).toBeInTheDocument();
  });

  it("shows the right answer after a wrong one, with its clip, and asks the item again two items later", async () => {
    const audio = stubAudio();
    const items = [ITEMS.comprehension, ITEMS.choosePrice, ITEMS.typeMalay, ITEMS.match];
    const { onCompleted } = renderSet(items);

    await choose("Pulled tea");
    await checkByKeyboard();
    expect(screen.getByRole("heading", { name: "Not quite" })).toBeInTheDocument();
    expect(screen.getByText("Black coffee with sugar", { selector: "span" })).toBeInTheDocument();
    expect(status()).toHaveTextContent("Not quite. The answer is: Black coffee with sugar");
    // The answered item stays on screen, no longer open to change.
    expect(screen.getByRole("radio", { name: "Pulled tea" })).toBeDisabled();

    // The right answer's clip, built in the browser from the item's spoken item. It stops the
    // page's own players, such as a recording elsewhere on the page.
    const recording = document.body.appendChild(document.createElement("audio"));
    await pressButton("Play: Black coffee with sugar");
    expect(vi.mocked(HTMLMediaElement.prototype.pause).mock.contexts).toContain(recording);
    recording.remove();
    expect(audio.clips.at(-1)!.src).toContain("/media/course/chapter-1/day-1/line-kopi-o.mp3");
    expect(screen.getByRole("button", { name: "Stop: Black coffee with sugar" })).toBeInTheDocument();

    await tabTo(screen.getByRole("button", { name: "Continue" }));
    await press("Enter");
    // The next item seen is the second, of five now that the missed one comes back.
    expect(screen.getByText("Item 2 of 5")).toBeInTheDocument();
    await answerRight(ITEMS.choosePrice);
    await continueByKeyboard();
    await answerRight(ITEMS.typeMalay);
    await continueByKeyboard();

    expect(screen.getByRole("group", { name: ITEMS.comprehension.prompt })).toBeInTheDocument();
    expect(screen.getByText("Item 4 of 5")).toBeInTheDocument();
    expect(screen.getByText("Back again: have another go.")).toBeInTheDocument();
    expect(screen.getByRole("radio", { name: "Pulled tea" })).not.toBeChecked();
    await answerRight(ITEMS.comprehension);
    await continueByKeyboard();
    await answerRight(ITEMS.match);
    expect(onCompleted).toHaveBeenCalledTimes(1);
    await continueByKeyboard();
    expect(screen.getByText("3 of 4 right first time. 1 after another go.")).toBeInTheDocument();
  });

  it("plays the line to reply to, and after a wrong reply shows and plays the right one", async () => {
    const audio = stubAudio();
    renderSet([ITEMS.replyChoose, ITEMS.replyType]);
    expect(screen.getByText("Listen, then reply.")).toBeInTheDocument();
    // Focus starts on the line heard: the question Pak Cik Ali asks.
    await pressButton("Play: the recording");
    expect(audio.clips.at(-1)!.src).toContain("/media/course/chapter-1/day-1/line-nak-minum.mp3");
    await pressButton("Stop: the recording");
    // The replies are Malay.
    expect(screen.getByRole("radio", { name: "Terima kasih." }).closest("div")!.querySelector("label")).toHaveAttribute(
      "lang",
      "ms",
    );
    await choose("Terima kasih.");
    await checkByKeyboard();
    expect(screen.getByRole("heading", { name: "Not quite" })).toBeInTheDocument();
    expect(status()).toHaveTextContent(`Not quite. The answer is: Saya nak kopi-O satu. ${ITEMS.replyChoose.explain}`);
    expect(screen.getByRole("radio", { name: "Saya nak kopi-O satu." })).toHaveAccessibleDescription("Right answer");
    // The clip in the feedback is the reply's, not the line heard.
    await pressButton("Play: Saya nak kopi-O satu.");
    expect(audio.clips.at(-1)!.src).toContain("/media/course/chapter-1/day-1/line-kopi-o.mp3");
    await pressButton("Continue");

    // A typed reply: any accepted reply is right, however it is written.
    expect(screen.getByRole("group", { name: ITEMS.replyType.prompt })).toBeInTheDocument();
    await tabTo(() => screen.getByRole("textbox", { name: "Your reply, in Malay" }));
    await type("kopi o satu");
    await press("Enter");
    expect(screen.getByRole("heading", { name: "Right!" })).toBeInTheDocument();
    expect(status()).toHaveTextContent("Right! Kopi-O satu.");
  });

  it("plays a listening item's clip slower at 0.75x once asked, and again at full speed", async () => {
    const audio = stubAudio();
    renderSet([ITEMS.typeHeard]);
    const slower = screen.getByRole("button", { name: "Slower: 0.75x" });
    expect(slower).toHaveAttribute("aria-pressed", "false");
    fireEvent.click(screen.getByRole("button", { name: "Play: the recording" }));
    expect(audio.clips.at(-1)!.playbackRate).toBe(1);
    fireEvent.click(screen.getByRole("button", { name: "Stop: the recording" }));
    fireEvent.click(slower);
    expect(slower).toHaveAttribute("aria-pressed", "true");
    fireEvent.click(screen.getByRole("button", { name: "Play: the recording" }));
    expect(audio.clips.at(-1)!.playbackRate).toBe(0.75);
  });

  it("plays a listening item's clip as it arrives once the learner goes on, not as the set first shows", async () => {
    const audio = stubAudio();
    renderSet([ITEMS.comprehension, ITEMS.typeHeard]);
    await answerRight(ITEMS.comprehension);
    expect(audio.clips).toHaveLength(0);
    await continueByKeyboard();
    expect(screen.getByRole("group", { name: ITEMS.typeHeard.prompt })).toBeInTheDocument();
    expect(audio.clips).toHaveLength(1);
    expect(audio.clips[0]!.src).toContain(`/media/course/chapter-1/day-1/${ITEMS.typeHeard.audio}.mp3`);
    // Focus is on its button, which stops the clip and plays it again.
    await waitFor(() => expect(active()).toHaveAccessibleName("Stop: the recording"));
    await press("Enter");
    expect(active()).toHaveAccessibleName("Play: the recording");
    await press("Enter");
    expect(audio.clips).toHaveLength(2);
  });

  it("tells a near miss of typed text 'almost', shows the right form, and asks again", async () => {
    // A listening item asked again plays its clip as it arrives.
    stubAudio();
    const { onCompleted } = renderSet([ITEMS.typeHeard]);
    // The clip to type comes first.
    await tab();
    expect(active()).toHaveAccessibleName("Play: the recording");
    await tabTo(screen.getByRole("textbox", { name: "What you hear, in Malay" }));
    await type("trima kasi");
    await press("Enter");
    expect(screen.getByRole("heading", { name: "Almost!" })).toBeInTheDocument();
    expect(status()).toHaveTextContent("Almost! The answer is: Terima kasih.");
    expect(screen.getByText("trima kasi")).toHaveAttribute("lang", "ms");
    expect(screen.getByText(/^Your answer:/)).toHaveTextContent("Your answer: trima kasi");
    await continueByKeyboard();
    expect(onCompleted).not.toHaveBeenCalled();

    expect(screen.getByText("Back again: have another go.")).toBeInTheDocument();
    expect(screen.getByRole("textbox")).toHaveValue("");
    await tabTo(screen.getByRole("textbox"));
    await type("terima  KASIH");
    await press("Enter");
    expect(status()).toHaveTextContent("Right! Terima kasih.");
    expect(onCompleted).toHaveBeenCalledTimes(1);
  });

  it("takes a one-letter slip in a long answer as right, naming the word mistyped and how it is written, and lists the accepted forms", async () => {
    const { onCompleted } = renderSet([ITEMS.typeMalay]);
    await tabTo(screen.getByRole("textbox", { name: "In Malay" }));
    await type("saya nek kopi-o");
    await press("Enter");
    expect(screen.getByRole("heading", { name: "Right!" })).toBeInTheDocument();
    expect(screen.getByText(/^Right:/)).toHaveTextContent("Right: Saya nak kopi-O.");
    expect(screen.getByText(/^A small slip, counted right:/)).toHaveTextContent(
      "A small slip, counted right: nak, not nek.",
    );
    expect(status()).toHaveTextContent("Right! Mind the spelling: nak, not nek. Saya nak kopi-O.");
    expect(screen.getByText(/^Accepted answers:/)).toHaveTextContent(
      `Accepted answers: ${ITEMS.typeMalay.answers.join(" · ")}`,
    );
    expect(onCompleted).toHaveBeenCalledTimes(1);
    await continueByKeyboard();
    expect(screen.getByText("1 of 1 right first time.")).toBeInTheDocument();
  });

  it("counts a slip that makes another word the course teaches as wrong, as the server does: tak for nak", async () => {
    const { onCompleted } = renderSet([ITEMS.typeMalay]);
    await tabTo(screen.getByRole("textbox", { name: "In Malay" }));
    // One letter from "Saya nak kopi-O.", but "I don't kopi-O": tak is the week's negation.
    await type("saya tak kopi-o");
    await press("Enter");
    expect(await screen.findByRole("heading", { name: "Not quite" })).toBeInTheDocument();
    expect(screen.queryByText(/^A small slip/)).not.toBeInTheDocument();
    expect(onCompleted).not.toHaveBeenCalled();
  });

  it("says which pairs are wrong in a complete set of pairs", async () => {
    renderSet([ITEMS.match]);
    const [first, second, third] = ITEMS.match.pairs;
    await pressButton(new RegExp(`^${first!.malay}`));
    await pressButton(new RegExp(`^${first!.english}`));
    await pressButton(new RegExp(`^${second!.malay}`));
    await pressButton(new RegExp(`^${third!.english}`));
    await pressButton(new RegExp(`^${third!.malay}`));
    await pressButton(new RegExp(`^${second!.english}`));
    await checkByKeyboard();
    expect(screen.getByRole("heading", { name: "Not quite" })).toBeInTheDocument();
    expect(screen.getByText("These pairs are wrong:")).toBeInTheDocument();
    expect(screen.getAllByRole("listitem").map((item) => item.textContent)).toEqual([
      `${second!.malay} is not “${third!.english}”`,
      `${third!.malay} is not “${second!.english}”`,
    ]);
  });

  it.each(["7.50", "RM7.50", "RM 7.50", "rm 7.5"])("takes %s as the price RM 7.50", async (typed) => {
    renderSet([ITEMS.typePrice]);
    expect(screen.getByText("RM")).toBeInTheDocument();
    await tabTo(screen.getByRole("textbox", { name: "The price, in ringgit" }));
    await type(typed);
    await press("Enter");
    expect(status()).toHaveTextContent("Right! RM 7.50");
  });

  it("says what is missing, without checking, when an answer is not complete", async () => {
    // The listening item at the end plays its clip as it arrives.
    stubAudio();
    renderSet([ITEMS.typeMalay, ITEMS.match, ITEMS.build, ITEMS.listen]);

    await tabTo(screen.getByRole("textbox", { name: "In Malay" }));
    await type("   ");
    await press("Enter");
    expect(screen.getByRole("textbox")).toHaveAccessibleDescription("Type an answer first.");
    expect(screen.getByRole("textbox")).toBeInvalid();
    expect(status()).toHaveTextContent("Type an answer first.");
    expect(screen.queryByRole("button", { name: "Continue" })).toBeNull();
    await type(ITEMS.typeMalay.answers[1]!);
    expect(screen.getByRole("textbox")).toHaveAccessibleDescription("");
    expect(screen.getByRole("textbox")).toBeValid();
    await press("Enter");
    await continueByKeyboard();

    await pressButton(/^Selamat pagi/);
    await pressButton(/^Good morning/);
    expect(screen.getByRole("button", { name: "Selamat pagi, matched with Good morning" })).toBeInTheDocument();
    await checkByKeyboard();
    expect(status()).toHaveTextContent("Match all 3 pairs: each side once.");
    // Linking a side again replaces its link.
    await pressButton(/^Terima kasih/);
    await pressButton(/^Good morning/);
    expect(screen.getByRole("button", { name: "Terima kasih, matched with Good morning" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Selamat pagi" })).toBeInTheDocument();
    await pressButton(/^Selamat pagi/);
    expect(screen.getByRole("button", { name: "Selamat pagi" })).toHaveAttribute("aria-pressed", "true");
    await pressButton(/^Thank you/);
    await pressButton(/^Sama-sama/);
    await pressButton(/^You're welcome/);
    await checkByKeyboard();
    expect(screen.getByRole("heading", { name: "Not quite" })).toBeInTheDocument();
    expect(status()).toHaveTextContent(
      "Not quite. The answer is: Selamat pagi = Good morning; Terima kasih = Thank you; Sama-sama = You're welcome",
    );
    await continueByKeyboard();

    await checkByKeyboard();
    expect(status()).toHaveTextContent("Add words to your sentence first.");
    // A word of the sentence goes back to its tile when pressed, and focus with it.
    await pressButton("teh");
    const sentence = screen.getByRole("group", { name: "Your sentence" });
    await tabTo(within(sentence).getByRole("button", { name: "Remove teh" }));
    await press("Enter");
    expect(within(sentence).queryAllByRole("button")).toHaveLength(0);
    expect(screen.getByRole("button", { name: "teh" })).toHaveFocus();
    expect(screen.getByRole("button", { name: "teh" })).toHaveAttribute("aria-pressed", "false");
    await answerRight(ITEMS.build);
    await continueByKeyboard();

    await checkByKeyboard();
    expect(status()).toHaveTextContent("Choose an answer first.");
  });

  it("shows a completed set as done and offers to practise it again", async () => {
    const { onCompleted } = renderSet([ITEMS.choosePrice], { completed: true });
    expect(screen.getByText("You have completed this practice set.")).toBeInTheDocument();
    expect(screen.queryByRole("radio")).toBeNull();
    await pressButton("Practise again");
    expect(screen.getByText("Item 1 of 1")).toBeInTheDocument();
    await answerRight(ITEMS.choosePrice);
    await continueByKeyboard();
    expect(screen.getByRole("heading", { name: "Practice complete" })).toHaveFocus();
    expect(onCompleted).not.toHaveBeenCalled();
  });
});
