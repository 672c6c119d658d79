import { describe, expect, it } from "vitest";
import { loadCourse } from "#server/course/content";
import { exerciseItemSchema, exerciseQuestionSchema, type Given, questionOf } from "./exercise-schema";
import { checkGiven, grade, normaliseTyped, rightAnswer } from "./grading";
import { BUILD_FROM_WORDS, givenText, reviewItem, WRITTEN_SKILLS } from "./review-items";
import {
  cardId,
  coursePhrases,
  type Phrase,
  phraseToken,
  REVIEW_SKILLS,
  servedCardId,
  servedCards,
} from "./review-rules";

/** The real course, as the server loads it, without its media (tests/test-app.ts does the same). */
const course = loadCourse({ publicDir: null });
const phrases = coursePhrases(course);
/** Every written card of the course (a spoken card's item is review-items.test.ts's). */
const cards = phrases.flatMap((phrase) => WRITTEN_SKILLS.map((skill) => [phrase, skill] as const));
/** Every card of the course, spoken ones among them: four a phrase. */
const allCards = phrases.flatMap((phrase) => REVIEW_SKILLS.map((skill) => [phrase, skill] as const));
const phraseIds = new Set(phrases.map((phrase) => phrase.id));

const wordsOf = (malay: string) => malay.split(/\s+/).filter((word) => word.length > 0);
const nameOf = (phrase: Phrase, skill: string) => `${phrase.chapterId}/${phrase.dayId}/${phrase.id} ${skill}`;

describe("the course's phrases", () => {
  it("are every vocabulary entry of every day, in course order, each named once", () => {
    const expected = course.flatMap((chapter) =>
      chapter.days.flatMap((day) => day.vocabulary.map((entry) => `${chapter.id}/${day.id}/${entry.id}`)),
    );
    expect(phrases.map((phrase) => `${phrase.chapterId}/${phrase.dayId}/${phrase.id}`)).toEqual(expected);
    expect(new Set(expected).size).toBe(expected.length);
    expect(phrases.length).toBeGreaterThan(20);
  });
});

describe("reviewItem over every card of the course", () => {
  it("is an exercise of the engine's kinds, the same every time it is asked for", () => {
    // A second copy of the phrases: the item depends on the card and the course, not on the array.
    const again = coursePhrases(loadCourse({ publicDir: null }));
    for (const [phrase, skill] of cards) {
      const item = reviewItem(phrase, skill, phrases);
      expect(exerciseItemSchema.safeParse(item).success, nameOf(phrase, skill)).toBe(true);
      expect(reviewItem(phrase, skill, phrases)).toEqual(item);
      expect(reviewItem(phrase, skill, again)).toEqual(item);
    }
  });

  it("grades its own right answer right, and that answer is the phrase", () => {
    for (const [phrase, skill] of cards) {
      const item = reviewItem(phrase, skill, phrases);
      const right = rightAnswer(item);
      expect(grade(item, right.answer).grade, nameOf(phrase, skill)).toBe("right");
      if (skill === "recall") expect(normaliseTyped(right.text)).toBe(normaliseTyped(phrase.malay));
      else expect(right.text).toBe(phrase.english);
    }
  });

  it("is served as a question without its answer, or a clip but the one listened to, and the question checks the answer's form", () => {
    for (const [phrase, skill] of cards) {
      const item = reviewItem(phrase, skill, phrases);
      const question = questionOf(item);
      expect(exerciseQuestionSchema.parse(question), nameOf(phrase, skill)).toEqual(question);
      expect(Object.keys(question)).not.toContain("answer");
      expect(Object.keys(question)).not.toContain("answers");
      // The reason (the phrase's note) comes with the grade, as practice's explanations do.
      expect(Object.keys(question)).not.toContain("explain");
      if (item.kind === "listen-choose") expect(question).toMatchObject({ audio: phrase.id });
      else expect(Object.keys(question)).not.toContain("audio");
      expect(checkGiven(question, rightAnswer(item).answer)).toEqual([]);
      // Everything else of the item is asked as it is.
      expect(question).toEqual({
        ...item,
        answer: undefined,
        answers: undefined,
        audio: undefined,
        explain: undefined,
        ...question,
      });
    }
  });

  it("numbers a build card's tiles in the order they are listed, so their ids do not give the order away", () => {
    const built = cards
      .map(([phrase, skill]) => reviewItem(phrase, skill, phrases))
      .filter((item) => item.kind === "build-sentence");
    expect(built.length).toBeGreaterThan(5);
    for (const item of built) {
      expect(item.tiles.map((tile) => tile.id)).toEqual(item.tiles.map((_, index) => `t${index + 1}`));
    }
    // The right orders differ from card to card: not always the first tiles in turn.
    const inTurn = (order: readonly string[]) => order.every((id, index) => id === `t${index + 1}`);
    expect(built.filter((item) => inTurn(item.answers[0]!)).length).toBeLessThan(built.length / 2);
  });

  it("asks the meaning for the Malay shown (recognise) and for the clip alone (listen)", () => {
    for (const phrase of phrases) {
      const recognise = reviewItem(phrase, "recognise", phrases);
      expect(recognise).toMatchObject({ kind: "comprehension", audio: phrase.id });
      expect(recognise.prompt).toContain(phrase.malay);
      const listen = reviewItem(phrase, "listen", phrases);
      expect(listen).toMatchObject({ kind: "listen-choose", audio: phrase.id });
      expect(listen.prompt).not.toContain(phrase.malay);
    }
  });

  it("grades every other choice wrong; the choices have distinct meanings and letters for ids", () => {
    const answerLetters = new Set<string>();
    for (const [phrase, skill] of cards) {
      if (skill === "recall") continue;
      const item = reviewItem(phrase, skill, phrases);
      if (!("choices" in item) || !("answer" in item)) throw new Error(`${nameOf(phrase, skill)} has no choices`);
      const name = nameOf(phrase, skill);
      expect(item.choices.length, name).toBeGreaterThanOrEqual(3);
      expect(item.choices.map((choice) => choice.id)).toEqual(["a", "b", "c", "d"].slice(0, item.choices.length));
      for (const choice of item.choices) expect(phraseIds.has(choice.id), name).toBe(false);
      const meanings = item.choices.map((choice) => choice.text.trim().toLowerCase());
      expect(new Set(meanings).size, name).toBe(meanings.length);
      expect(item.choices.filter((choice) => choice.text === phrase.english)).toHaveLength(1);
      for (const choice of item.choices) {
        const graded = grade(item, { choiceId: choice.id }).grade;
        expect(graded, `${name} choice ${choice.id}`).toBe(choice.id === item.answer ? "right" : "wrong");
      }
      answerLetters.add(item.answer);
    }
    // The right answer is not always in the same place.
    expect(answerLetters.size).toBeGreaterThanOrEqual(3);
  });

  it("draws its wrong choices from the phrase's own chapter", () => {
    for (const [phrase, skill] of cards) {
      if (skill === "recall") continue;
      const item = reviewItem(phrase, skill, phrases);
      const chapterMeanings = new Set(
        phrases.filter((other) => other.chapterId === phrase.chapterId).map((other) => other.english),
      );
      if (!("choices" in item)) throw new Error("no choices");
      for (const choice of item.choices) expect(chapterMeanings.has(choice.text), nameOf(phrase, skill)).toBe(true);
    }
  });

  it("recalls a phrase of three words or more by building it from tiles, a shorter one by typing it", () => {
    let built = 0;
    let typed = 0;
    for (const phrase of phrases) {
      const item = reviewItem(phrase, "recall", phrases);
      const words = wordsOf(phrase.malay);
      expect(item).toMatchObject({ english: phrase.english, audio: phrase.id });
      if (words.length >= BUILD_FROM_WORDS) {
        built += 1;
        if (item.kind !== "build-sentence") throw new Error(`${phrase.id} is recalled by ${item.kind}`);
        const tileWords = item.tiles.map((tile) => tile.text);
        // Every word of the phrase, and at most two words of other phrases, none of the phrase's own.
        // Tiles show words without the marks or the capital that would tell their place.
        const shown = tileWords.map(normaliseTyped);
        for (const word of words.map(normaliseTyped).filter(Boolean)) expect(shown).toContain(word);
        expect(tileWords.filter((text) => /^[.,!?;:…]|[.,!?;:…]$/u.test(text))).toEqual([]);
        const extra = tileWords.length - words.filter((word) => normaliseTyped(word) !== "").length;
        expect(extra).toBeGreaterThanOrEqual(0);
        expect(extra).toBeLessThanOrEqual(2);
        expect(new Set(item.tiles.map((tile) => tile.id)).size).toBe(item.tiles.length);
        // A wrong order is wrong (a tile of punctuation alone, "…", moved changes no word's place).
        const [first, second, ...rest] = item.answers[0]!;
        const swapped = [second!, first!, ...rest];
        const swappedWords = swapped.map((id) => item.tiles.find((tile) => tile.id === id)!.text).join(" ");
        if (normaliseTyped(swappedWords) !== normaliseTyped(words.join(" ")))
          expect(grade(item, { tileIds: swapped }).grade, swappedWords).toBe("wrong");
      } else {
        typed += 1;
        expect(item).toMatchObject({ kind: "type-malay", answers: [phrase.malay, ...(phrase.also ?? [])] });
        expect(grade(item, { text: phrase.malay.toUpperCase() }).grade).toBe("right");
        expect(grade(item, { text: "zzzz qqqq xxxx" }).grade).toBe("wrong");
      }
    }
    // The course has phrases of both lengths, so both forms are exercised.
    expect(built).toBeGreaterThan(0);
    expect(typed).toBeGreaterThan(0);
  });

  it("shows a tutor the text of an answer given: the choice's meaning, the words built, the text typed", () => {
    for (const [phrase, skill] of cards) {
      const item = reviewItem(phrase, skill, phrases);
      const right = rightAnswer(item);
      expect(normaliseTyped(givenText(item, right.answer as Given))).toBe(normaliseTyped(right.text));
    }
  });
});

describe("reviewItem in a chapter of few phrases", () => {
  const small = coursePhrases([
    {
      id: "chapter-a",
      days: [
        {
          id: "day-1",
          number: 1,
          subtopic: "Greetings",
          vocabulary: [
            { id: "pagi", malay: "Selamat pagi", english: "Good morning" },
            { id: "malam", malay: "Selamat malam", english: "Good night" },
            { id: "kasih", malay: "Terima kasih", english: "Thank you" },
            { id: "sama", malay: "Sama-sama", english: "You're welcome" },
          ],
        },
      ],
    },
    {
      id: "chapter-b",
      days: [
        {
          id: "day-2",
          number: 2,
          subtopic: "Directions",
          vocabulary: [{ id: "kiri", malay: "Kiri", english: "Left" }],
        },
      ],
    },
  ]);

  it("still offers at least three choices, taking the others from elsewhere in the course", () => {
    const kiri = small.find((phrase) => phrase.id === "kiri")!;
    for (const skill of ["recognise", "listen"] as const) {
      const item = reviewItem(kiri, skill, small);
      expect(exerciseItemSchema.safeParse(item).success).toBe(true);
      if (!("choices" in item) || !("answer" in item)) throw new Error("no choices");
      expect(item.choices.length).toBeGreaterThanOrEqual(3);
      expect(item.choices.find((choice) => choice.id === item.answer)!.text).toBe("Left");
    }
  });
});

describe("card ids", () => {
  it("name every card of the course by its own cardId", () => {
    expect(allCards).toHaveLength(phrases.length * 4);
    const ids = new Set(
      allCards.map(([phrase, skill]) =>
        cardId({ chapterId: phrase.chapterId, dayId: phrase.dayId, phraseId: phrase.id, skill }),
      ),
    );
    expect(ids.size).toBe(allCards.length);
  });

  it("are served as the chapter, day, a token of the phrase and the skill, naming no phrase", () => {
    const served = servedCards(phrases);
    // Four cards a phrase: recognise, listen, recall and speak.
    expect(served.size).toBe(phrases.length * 4);
    expect(new Set([...served.values()].map((each) => each.key.skill))).toEqual(new Set(REVIEW_SKILLS));
    for (const [phrase, skill] of allCards) {
      const key = { chapterId: phrase.chapterId, dayId: phrase.dayId, phraseId: phrase.id, skill };
      const id = servedCardId(key);
      expect(id).toBe(`${phrase.chapterId}/${phrase.dayId}/${phraseToken(phrase.id)}/${skill}`);
      expect(id).toMatch(/^[a-z0-9-]+\/[a-z0-9-]+\/[0-9a-z]{1,7}\/[a-z]+$/);
      expect(id, nameOf(phrase, skill)).not.toContain(phrase.id);
      expect(served.get(id)).toEqual({ key, phrase });
    }
  });

  it("keep a card's served id while its phrase keeps its id, whatever its words", () => {
    // FNV-1a of the id, in base 36: the same in the browser and in Node.
    expect(phraseToken("terima-kasih")).toBe("12lhkr0");
    const [first] = phrases;
    const reworded = { ...first!, malay: "Something else", english: "Another meaning", dayTitle: "Renamed" };
    expect([...servedCards([reworded]).keys()]).toEqual([...servedCards([first!]).keys()]);
  });

  it("refuses two phrases of a day whose tokens are the same, so the deck does not start", () => {
    // Two ids with the same FNV-1a hash.
    expect(phraseToken("frasa-pieqz")).toBe(phraseToken("frasa-bacerd"));
    const phrase = (id: string, dayId: string): Phrase => ({
      chapterId: "chapter-1",
      dayId,
      dayNumber: 1,
      dayTitle: "A day",
      id,
      malay: id,
      english: id,
    });
    expect(() => servedCards([phrase("frasa-pieqz", "day-1"), phrase("frasa-bacerd", "day-1")])).toThrow(
      'The phrases "frasa-pieqz" and "frasa-bacerd" of chapter-1/day-1 have the same review token',
    );
    // On different days, the two phrases' four cards each are eight cards of their own.
    expect(servedCards([phrase("frasa-pieqz", "day-1"), phrase("frasa-bacerd", "day-2")]).size).toBe(8);
  });
});
