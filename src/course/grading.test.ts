import { describe, expect, it } from "vitest";
import { formatPrice, parsePrice } from "./answer-text";
import { type ExerciseItem, exerciseItemSchema, type Given } from "./exercise-schema";
import {
  almostDistance,
  checkGiven,
  editDistance,
  forgivesTypo,
  grade,
  normaliseTyped,
  rightAnswer,
  wrongPairs,
} from "./grading";

const item = (raw: unknown): ExerciseItem => exerciseItemSchema.parse(raw);

const choose = item({
  id: "what-alex-ordered",
  kind: "comprehension",
  prompt: "What did Alex order?",
  choices: [
    { id: "kopi-o", text: "Black coffee with sugar" },
    { id: "teh-tarik", text: "Pulled tea" },
    { id: "milo-ais", text: "Iced Milo" },
  ],
  answer: "kopi-o",
  audio: "line-kopi-o",
});

const listen = item({
  id: "hear-greeting",
  kind: "listen-choose",
  prompt: "What does Alex say?",
  audio: "line-selamat-pagi",
  choices: [
    { id: "good-morning", text: "Good morning" },
    { id: "good-night", text: "Good night" },
  ],
  answer: "good-morning",
});

const build = item({
  id: "build-order",
  kind: "build-sentence",
  prompt: "Build the sentence.",
  english: "I'd like one kopi-O.",
  tiles: [
    { id: "saya", text: "Saya" },
    { id: "nak", text: "nak" },
    { id: "mahu", text: "mahu" },
    { id: "kopi-o", text: "kopi-O" },
    { id: "satu", text: "satu." },
    { id: "teh", text: "teh" },
  ],
  answers: [
    ["saya", "nak", "kopi-o", "satu"],
    ["saya", "mahu", "kopi-o", "satu"],
  ],
});

const typeMalay = item({
  id: "type-order",
  kind: "type-malay",
  prompt: "Type it in Malay.",
  english: "I want a kopi-O.",
  answers: ["Saya nak kopi-O.", "Saya mahu kopi-O."],
  audio: "line-kopi-o",
});

const typeHeard = (answers: string[]) =>
  item({ id: "heard", kind: "type-heard", prompt: "Type what you hear.", audio: "line-x", answers });

const match = item({
  id: "match-greetings",
  kind: "match-pairs",
  prompt: "Match.",
  pairs: [
    { id: "pagi", malay: "Selamat pagi", english: "Good morning" },
    { id: "terima-kasih", malay: "Terima kasih", english: "Thank you" },
    { id: "sama-sama", malay: "Sama-sama", english: "You're welcome" },
  ],
});

const typePrice = item({
  id: "hear-price",
  kind: "type-price",
  prompt: "Type it.",
  audio: "vocab-price",
  price: "RM 7.50",
});

const choosePrice = item({
  id: "say-price",
  kind: "choose-price",
  prompt: "How is it said?",
  price: "RM 7.50",
  choices: [
    { id: "right", text: "Tujuh ringgit lima puluh sen" },
    { id: "wrong", text: "Tujuh puluh lima ringgit" },
  ],
  answer: "right",
});

const replyChoose = item({
  id: "reply-drink",
  kind: "reply-choose",
  prompt: "Answer: one kopi-O.",
  audio: "line-nak-minum",
  choices: [
    { id: "kopi-o", text: "Saya nak kopi-O satu." },
    { id: "thanks", text: "Terima kasih." },
  ],
  answer: "kopi-o",
  replyAudio: "line-kopi-o",
});

const replyType = item({
  id: "reply-order",
  kind: "reply-type",
  prompt: "Answer: one kopi-O.",
  audio: "line-nak-minum",
  answers: ["Saya nak kopi-O satu.", "Kopi-O satu."],
});

const gradeOf = (exercise: ExerciseItem, given: Given) => {
  expect(checkGiven(exercise, given)).toEqual([]);
  return grade(exercise, given).grade;
};
const typed = (exercise: ExerciseItem, text: string) => grade(exercise, { text }, { forgiveSlips: true });
/** As review grades: a slip is a near miss. */
const strictly = (exercise: ExerciseItem, text: string) => grade(exercise, { text });

describe("normaliseTyped", () => {
  it.each([
    ["Saya nak kopi-O.", "saya nak kopi o"],
    ["  SAYA   nak\tKOPI - O !! ", "saya nak kopi o"],
    ["Térima kasih", "terima kasih"],
    ["Sama–sama", "sama sama"],
    ["Touch 'n Go", "touch n go"],
    ["Touch ’n Go", "touch n go"],
    ["Apa khabar?", "apa khabar"],
    ["Ｓａｙａ", "saya"],
    ["ok,terima kasih", "ok terima kasih"],
    ["?!", ""],
  ])("%j reads as %j", (input, expected) => {
    expect(normaliseTyped(input)).toBe(expected);
  });
});

describe("editDistance (Damerau-Levenshtein, optimal string alignment)", () => {
  it.each([
    ["kopi", "kopi", 0],
    ["kopi", "kpoi", 1],
    ["kasih", "kasi", 1],
    ["kasih", "kasuh", 1],
    ["kasi", "kasih", 1],
    ["terima kasih", "trima kasi", 2],
    ["", "abc", 3],
    ["abc", "", 3],
    ["ca", "abc", 3],
    ["😀a", "a😀", 1],
  ])("%j to %j is %i", (a, b, distance) => {
    expect(editDistance(a, b)).toBe(distance);
    expect(editDistance(b, a)).toBe(distance);
  });
});

describe("almostDistance", () => {
  it("allows no near miss on words of up to three letters, one up to nine characters, two from ten", () => {
    expect([almostDistance("ya"), almostDistance("tak")]).toEqual([0, 0]);
    expect([almostDistance("kopi"), almostDistance("sama sama")]).toEqual([1, 1]);
    expect([almostDistance("sama sama!"), almostDistance("terima kasih")]).toEqual([2, 2]);
  });
});

describe("grading typed text", () => {
  it("is right whatever the case, punctuation, hyphens, spaces and accents", () => {
    for (const text of [
      "Saya nak kopi-O.",
      "saya nak kopi o",
      "SAYA  NAK KOPI-O!!",
      "sáya nak kopi o",
      " saya nak kopi - o ",
    ]) {
      expect(typed(typeMalay, text).grade, text).toBe("right");
    }
  });

  it("accepts every answer the content lists, and shows the one matched", () => {
    expect(typed(typeMalay, "saya mahu kopi o")).toEqual({
      grade: "right",
      typo: false,
      slip: null,
      correct: {
        text: "Saya mahu kopi-O.",
        answer: { text: "Saya mahu kopi-O." },
        audioId: "line-kopi-o",
        explain: null,
        accepted: ["Saya nak kopi-O.", "Saya mahu kopi-O."],
      },
    });
    expect(typed(typeMalay, "Saya nak kopi-O").correct.text).toBe("Saya nak kopi-O.");
  });

  it('calls a near miss "almost", not right, and shows the right form nearest to it', () => {
    expect(typed(typeMalay, "saya nak kopi")).toEqual({
      grade: "almost",
      typo: false,
      slip: null,
      correct: {
        text: "Saya nak kopi-O.",
        answer: { text: "Saya nak kopi-O." },
        audioId: "line-kopi-o",
        explain: null,
        accepted: ["Saya nak kopi-O.", "Saya mahu kopi-O."],
      },
    });
    expect(typed(typeMalay, "saya mahu kopo-p").grade).toBe("almost");
    expect(typed(typeMalay, "saya mahu kopi-O").correct.text).toBe("Saya mahu kopi-O.");
    expect(typed(typeMalay, "sayamahu kopi-O").correct.text).toBe("Saya mahu kopi-O.");
  });

  it("allows one edit on a short answer and two on a long one; beyond that, wrong", () => {
    const short = typeHeard(["Minum"]);
    expect(typed(short, "minun").grade).toBe("almost");
    expect(typed(short, "mnium").grade).toBe("almost");
    expect(typed(short, "mnun").grade).toBe("wrong");
    const long = typeHeard(["Terima kasih"]);
    expect(typed(long, "trima kasi").grade).toBe("almost");
    expect(typed(long, "trma kasi").grade).toBe("wrong");
  });

  it("takes a one-letter slip in an answer of eight letters or more as right, showing how it is written", () => {
    const order = typeHeard(["Nak minum apa?", "Minum apa?"]);
    const slips = [
      ["nek minum apa?", "nek", "nak"],
      ["nak minm apa", "minm", "minum"],
      ["nak mnium apa", "mnium", "minum"],
      ["nak minum apaa", "apaa", "apa"],
    ] as const;
    for (const [slip, word, written] of slips) {
      expect(typed(order, slip), slip).toMatchObject({
        grade: "right",
        typo: true,
        slip: { typed: word, right: written },
        correct: { text: "Nak minum apa?" },
      });
    }
    expect(typed(order, "nak minum apa").typo).toBe(false);
    // Two slips are still a near miss, to answer again.
    expect(typed(order, "nek minum apo")).toMatchObject({ grade: "almost", typo: false });
    // Eight letters, spaces not counted: "sama sama" is forgiven a slip, "minum" and "kopi o" are not.
    expect(typed(typeHeard(["Sama-sama"]), "sama sma")).toMatchObject({ grade: "right", typo: true });
    expect(typed(typeHeard(["Minum"]), "minun")).toMatchObject({ grade: "almost", typo: false });
    expect(typed(typeHeard(["Kopi-O"]), "kopi a")).toMatchObject({ grade: "almost", typo: false });
    // Unless asked to forgive slips (review does not), a slip is a near miss.
    expect(strictly(order, "nek minum apa?")).toMatchObject({ grade: "almost", typo: false });
    expect([forgivesTypo("abcdefgh", 1), forgivesTypo("abcd efg", 1), forgivesTypo("abcdefgh", 2)]).toEqual([
      true,
      false,
      false,
    ]);
  });

  it("lists every accepted form when an item accepts several, and none when it accepts one", () => {
    expect(rightAnswer(typeHeard(["Berapa?", "Berapa ni?"])).accepted).toEqual(["Berapa?", "Berapa ni?"]);
    expect(rightAnswer(typeHeard(["Terima kasih."])).accepted).toEqual([]);
    expect(rightAnswer(build).accepted).toEqual(["Saya nak kopi-O satu.", "Saya mahu kopi-O satu."]);
    expect(rightAnswer(choose).accepted).toEqual([]);
  });

  it("gives the item's explanation with the right answer, or null", () => {
    const explained = item({
      id: "want",
      kind: "type-malay",
      prompt: "Type it in Malay.",
      english: "What do you want to drink?",
      answers: ["Nak minum apa?"],
      explain: "Malay puts apa (what) at the end, after the verb.",
    });
    expect(grade(explained, { text: "apa nak minum" }).correct.explain).toBe(
      "Malay puts apa (what) at the end, after the verb.",
    );
    expect(rightAnswer(choose).explain).toBeNull();
    expect(() => item({ ...explained, explain: "" })).toThrow();
  });

  it("asks a word of three letters exactly: tak is not nak", () => {
    const tak = typeHeard(["Tak"]);
    expect(typed(tak, "tak.").grade).toBe("right");
    expect(typed(tak, "nak").grade).toBe("wrong");
  });

  it("is wrong for another sentence, and feedback then shows the first answer", () => {
    expect(typed(typeMalay, "saya nak teh")).toMatchObject({
      grade: "wrong",
      typo: false,
      correct: { text: "Saya nak kopi-O.", answer: { text: "Saya nak kopi-O." }, audioId: "line-kopi-o" },
    });
    expect(typed(typeMalay, "?").grade).toBe("wrong");
  });
});

describe("grading prices", () => {
  it.each(["RM 7.50", "rm7.5", "7.50", "RM7.50", "7.5", "  rm 7.50 ", "Rm 7.50", "750 sen"])(
    "%j is right for RM 7.50",
    (text) => {
      expect(typed(typePrice, text).grade).toBe("right");
    },
  );

  it.each(["RM 7.05", "RM 75", "7", "RM 7.500", "tujuh ringgit", "", "RM", "7,50", "RM -7.50"])(
    "%j is wrong for RM 7.50, never almost",
    (text) => {
      expect(typed(typePrice, text).grade).toBe("wrong");
    },
  );

  it("shows the price as the course writes it", () => {
    expect(rightAnswer(typePrice)).toEqual({
      text: "RM 7.50",
      answer: { text: "RM 7.50" },
      audioId: "vocab-price",
      explain: null,
      accepted: [],
    });
  });

  it("parses and formats amounts in sen", () => {
    expect(parsePrice("RM 1,200")).toBe(120_000);
    expect(parsePrice("RM 1,20")).toBeNull();
    expect(parsePrice("0.50")).toBe(50);
    expect(parsePrice("RM .50")).toBeNull();
    expect(formatPrice(750)).toBe("RM 7.50");
    expect(formatPrice(120_000)).toBe("RM 1,200.00");
    expect(formatPrice(5)).toBe("RM 0.05");
  });

  it("grades choosing how a price is said by the choice", () => {
    expect(gradeOf(choosePrice, { choiceId: "right" })).toBe("right");
    expect(gradeOf(choosePrice, { choiceId: "wrong" })).toBe("wrong");
    expect(rightAnswer(choosePrice)).toEqual({
      text: "Tujuh ringgit lima puluh sen",
      answer: { choiceId: "right" },
      audioId: null,
      explain: null,
      accepted: [],
    });
  });
});

describe("grading choices", () => {
  it("is right for the right choice's id only, and shows its text and clip", () => {
    expect(gradeOf(choose, { choiceId: "kopi-o" })).toBe("right");
    expect(gradeOf(choose, { choiceId: "teh-tarik" })).toBe("wrong");
    expect(gradeOf(listen, { choiceId: "good-morning" })).toBe("right");
    expect(gradeOf(listen, { choiceId: "good-night" })).toBe("wrong");
    expect(grade(choose, { choiceId: "milo-ais" }).correct).toEqual({
      text: "Black coffee with sugar",
      answer: { choiceId: "kopi-o" },
      audioId: "line-kopi-o",
      explain: null,
      accepted: [],
    });
    expect(rightAnswer(listen).audioId).toBe("line-selamat-pagi");
  });
});

describe("grading built sentences", () => {
  it("is right for an accepted order exactly, and shows the sentence", () => {
    expect(gradeOf(build, { tileIds: ["saya", "nak", "kopi-o", "satu"] })).toBe("right");
    expect(grade(build, { tileIds: ["saya", "mahu", "kopi-o", "satu"] }).correct).toEqual({
      text: "Saya mahu kopi-O satu.",
      answer: { tileIds: ["saya", "mahu", "kopi-o", "satu"] },
      audioId: null,
      explain: null,
      accepted: ["Saya nak kopi-O satu.", "Saya mahu kopi-O satu."],
    });
  });

  it("is wrong in another order, with a tile missing, or with an extra tile", () => {
    expect(gradeOf(build, { tileIds: ["nak", "saya", "kopi-o", "satu"] })).toBe("wrong");
    expect(gradeOf(build, { tileIds: ["saya", "nak", "kopi-o"] })).toBe("wrong");
    expect(gradeOf(build, { tileIds: ["saya", "nak", "teh", "kopi-o", "satu"] })).toBe("wrong");
    expect(grade(build, { tileIds: ["teh"] }).correct.text).toBe("Saya nak kopi-O satu.");
  });

  it("treats two tiles with the same word as the same", () => {
    const twice = item({
      id: "two-teas",
      kind: "build-sentence",
      prompt: "Build.",
      english: "Tea, tea.",
      tiles: [
        { id: "teh-a", text: "teh" },
        { id: "teh-b", text: "teh" },
      ],
      answers: [["teh-a", "teh-b"]],
    });
    expect(gradeOf(twice, { tileIds: ["teh-b", "teh-a"] })).toBe("right");
  });
});

describe("grading match pairs", () => {
  const pairs = (...links: [string, string][]) => ({ pairs: links.map(([malay, english]) => ({ malay, english })) });

  it("is right for the whole set, in any order", () => {
    expect(gradeOf(match, pairs(["sama-sama", "sama-sama"], ["pagi", "pagi"], ["terima-kasih", "terima-kasih"]))).toBe(
      "right",
    );
    expect(rightAnswer(match)).toEqual({
      text: "Selamat pagi = Good morning; Terima kasih = Thank you; Sama-sama = You're welcome",
      answer: pairs(["pagi", "pagi"], ["terima-kasih", "terima-kasih"], ["sama-sama", "sama-sama"]),
      audioId: null,
      explain: null,
      accepted: [],
    });
  });

  it("names the pairs linked wrong, as the learner linked them, and none when all are right", () => {
    expect(
      wrongPairs(match, pairs(["pagi", "pagi"], ["terima-kasih", "sama-sama"], ["sama-sama", "terima-kasih"])),
    ).toEqual([
      { malay: "Terima kasih", english: "You're welcome" },
      { malay: "Sama-sama", english: "Thank you" },
    ]);
    expect(
      wrongPairs(match, pairs(["sama-sama", "sama-sama"], ["pagi", "pagi"], ["terima-kasih", "terima-kasih"])),
    ).toEqual([]);
    expect(wrongPairs(choose, { choiceId: "kopi-o" })).toEqual([]);
  });

  it("is wrong when any two are swapped", () => {
    expect(gradeOf(match, pairs(["pagi", "terima-kasih"], ["terima-kasih", "pagi"], ["sama-sama", "sama-sama"]))).toBe(
      "wrong",
    );
    expect(gradeOf(match, pairs(["pagi", "pagi"], ["terima-kasih", "sama-sama"], ["sama-sama", "terima-kasih"]))).toBe(
      "wrong",
    );
  });

  it("matches by meaning: two pairs with the same English may go either way", () => {
    const want = item({
      id: "want",
      kind: "match-pairs",
      prompt: "Match.",
      pairs: [
        { id: "nak", malay: "nak", english: "want" },
        { id: "mahu", malay: "mahu", english: "want" },
        { id: "tak", malay: "tak", english: "no" },
      ],
    });
    expect(gradeOf(want, pairs(["nak", "mahu"], ["mahu", "nak"], ["tak", "tak"]))).toBe("right");
    expect(wrongPairs(want, pairs(["nak", "mahu"], ["mahu", "nak"], ["tak", "nak"]))).toEqual([
      { malay: "tak", english: "want" },
    ]);
    // A side used twice is refused by checkGiven, and never graded right.
    expect(grade(want, pairs(["nak", "nak"], ["mahu", "nak"], ["tak", "tak"])).grade).toBe("wrong");
  });
});

describe("checkGiven", () => {
  it("refuses an answer of another item kind's form, naming the form", () => {
    expect(checkGiven(choose, { text: "kopi" })).toEqual([
      { path: "given", message: 'A comprehension item is answered with { "choiceId" }.' },
    ]);
    expect(checkGiven(build, { choiceId: "saya" })).toEqual([
      { path: "given", message: 'A build-sentence item is answered with { "tileIds" }.' },
    ]);
    expect(checkGiven(typeMalay, { tileIds: ["saya"] })[0]?.message).toBe(
      'A type-malay item is answered with { "text" }.',
    );
    expect(checkGiven(typePrice, { choiceId: "right" })[0]?.path).toBe("given");
    expect(checkGiven(match, { text: "x" })[0]?.message).toMatch(/match-pairs item is answered with \{ "pairs"/);
  });

  it("refuses ids the item does not have", () => {
    expect(checkGiven(choose, { choiceId: "kopi" })).toEqual([
      { path: "given.choiceId", message: '"kopi" is not one of this item\'s choices.' },
    ]);
    expect(checkGiven(build, { tileIds: ["saya", "kopi"] })).toEqual([
      { path: "given.tileIds.1", message: '"kopi" is not one of this item\'s tiles.' },
    ]);
  });

  it("refuses a tile used twice", () => {
    expect(checkGiven(build, { tileIds: ["saya", "nak", "saya"] })).toEqual([
      { path: "given.tileIds.2", message: 'The tile "saya" is used twice.' },
    ]);
  });

  it("asks for every pair once: not fewer, no side twice, no unknown side", () => {
    const link = (malay: string, english: string) => ({ malay, english });
    expect(checkGiven(match, { pairs: [link("pagi", "pagi")] })).toEqual([
      { path: "given.pairs", message: "Match all 3 pairs: each side once." },
    ]);
    expect(
      checkGiven(match, { pairs: [link("pagi", "pagi"), link("pagi", "sama-sama"), link("terima-kasih", "x")] }),
    ).toEqual([
      { path: "given.pairs.1.malay", message: '"pagi" is matched twice.' },
      { path: "given.pairs.2.english", message: '"x" is not one of this item\'s pairs.' },
    ]);
  });

  it("takes any text for typed items: a wrong answer is graded, not refused", () => {
    expect(checkGiven(typeMalay, { text: "apa?" })).toEqual([]);
    expect(checkGiven(typePrice, { text: "a lot" })).toEqual([]);
  });
});

describe("grading replies in dialogue", () => {
  it("grades a chosen reply by its id, and plays the reply's clip, not the line heard", () => {
    expect(gradeOf(replyChoose, { choiceId: "kopi-o" })).toBe("right");
    expect(gradeOf(replyChoose, { choiceId: "thanks" })).toBe("wrong");
    expect(grade(replyChoose, { choiceId: "thanks" }).correct).toMatchObject({
      text: "Saya nak kopi-O satu.",
      answer: { choiceId: "kopi-o" },
      audioId: "line-kopi-o",
    });
  });

  it("grades a typed reply forgivingly against every accepted reply, listing them, with no clip when it has none", () => {
    expect(typed(replyType, "kopi o satu").grade).toBe("right");
    expect(typed(replyType, "saya nak kopi-o satu").correct.text).toBe("Saya nak kopi-O satu.");
    expect(typed(replyType, "Saya nak kopi-O satuu")).toMatchObject({ grade: "right", typo: true });
    expect(typed(replyType, "Terima kasih").grade).toBe("wrong");
    expect(rightAnswer(replyType)).toMatchObject({
      text: "Saya nak kopi-O satu.",
      audioId: null,
      accepted: ["Saya nak kopi-O satu.", "Kopi-O satu."],
    });
  });

  it("takes a choice for a chosen reply and text for a typed one, and nothing else", () => {
    expect(checkGiven(replyChoose, { text: "Kopi-O satu" })).toEqual([
      { path: "given", message: 'A reply-choose item is answered with { "choiceId" }.' },
    ]);
    expect(checkGiven(replyType, { choiceId: "kopi-o" })).toEqual([
      { path: "given", message: 'A reply-type item is answered with { "text" }.' },
    ]);
    expect(checkGiven(replyChoose, { choiceId: "nasi" })).toEqual([
      { path: "given.choiceId", message: '"nasi" is not one of this item\'s choices.' },
    ]);
  });
});
