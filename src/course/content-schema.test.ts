import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ContentError, parseChapters } from "./content-schema";
import { type Day, daySpokenItems, practiceSetOf, sectionLines, storySections } from "./course";

const read = (file: string) => ({ file, data: JSON.parse(readFileSync(file, "utf8")) as unknown });
const courseFiles = () => [read("content/chapter-1.json"), read("content/chapter-2.json")];

const TEACHING_DAY_TASKS = [
  "story:read-story",
  "codebook:listen-shadow",
  "codebook:review-notes",
  "codebook:review-vocab",
  "codebook:practice",
  "live-session:task-1",
  "live-session:task-2",
];
const taskIds = (day: Day | undefined) => day?.tasks.map((task) => task.id);

describe("the course content", () => {
  it("holds the curriculum of spec section 3: per chapter four teaching days, then a review day", () => {
    const [chapter1, chapter2] = parseChapters(courseFiles());
    expect(chapter1?.title).toBe("The First Steps");
    expect(chapter2?.title).toBe("Exploring the Market");
    expect(chapter1?.days.map((day) => day.id)).toEqual(["day-1", "day-2", "day-3", "day-4", "day-5"]);
    expect(chapter2?.days.map((day) => day.id)).toEqual(["day-6", "day-7", "day-8", "day-9", "day-10"]);
    // A day's tasks are its blocks' tasks, in page order.
    expect(taskIds(chapter1?.days[0])).toEqual([
      "story:read-setting",
      "story:read-dialog",
      "codebook:listen-shadow",
      "codebook:review-notes",
      "codebook:review-vocab",
      "codebook:practice",
      "live-session:greeting-practice",
      "live-session:ordering-drink",
    ]);
    for (const day of [...chapter1!.days.slice(1, 4), ...chapter2!.days.slice(0, 4)]) {
      expect(taskIds(day), day.id).toEqual(TEACHING_DAY_TASKS);
    }
    // A review day's quiz, and the phrase cards of the new words its story brings in.
    expect(taskIds(chapter1?.days[4])).toEqual(["review:task-1", "codebook:review-vocab"]);
    expect(taskIds(chapter2?.days[4])).toEqual(["review:task-1", "codebook:review-vocab"]);
    // Chapter 2 opens only to signed-in learners (spec section 3).
    expect(chapter2?.days[0]?.requiresSignIn).toBe(true);
  });

  it("gives every teaching day a story, its phrases as cards with a note each, a practice set and two role-plays", () => {
    const [chapter1, chapter2] = parseChapters(courseFiles());
    const day1 = chapter1!.days[0]!;
    expect(storySections(day1).map((section) => section.id)).toEqual(["setting", "dialogue"]);
    expect(day1.story?.next).toBe("codebook");
    for (const day of [...chapter1!.days.slice(0, 4), ...chapter2!.days.slice(0, 4)]) {
      if (day.number > 1) {
        // Every teaching day's story continues to the day's Codebook, as Day 1's does.
        expect(day.story?.next, day.id).toBe("codebook");
        expect(storySections(day).map((section) => section.task?.id)).toEqual(["story:read-story"]);
      }
      expect(
        day.codebook?.blocks.map((block) => block.type),
        day.id,
      ).toEqual(["listen-shadow", "video", "vocabulary-cards", "practice"]);
      // The day's vocabulary is its phrase cards: each card's back says when and how to use it.
      expect(day.vocabulary.length, day.id).toBeGreaterThan(0);
      for (const entry of day.vocabulary) expect(entry.note, `${day.id} ${entry.id}`).toBeTruthy();
      // A day's practice: at least 12 items in at least 4 kinds.
      const practice = practiceSetOf(day, "codebook:practice")!;
      expect(practice.items.length, day.id).toBeGreaterThanOrEqual(12);
      expect(new Set(practice.items.map((item) => item.kind)).size, day.id).toBeGreaterThanOrEqual(4);
      expect(day.liveSession?.blocks.map((block) => block.type)).toEqual(["role-play", "role-play"]);
    }
  });

  it("makes each chapter's review day a natural-speed dialogue, a Culture Corner and a quiz, then its own words as cards", () => {
    const [chapter1, chapter2] = parseChapters(courseFiles());
    for (const day of [chapter1!.days[4]!, chapter2!.days[4]!]) {
      const sections = storySections(day);
      expect(
        sections.map((section) => [section.pace, section.task]),
        day.id,
      ).toEqual([["natural", undefined]]);
      expect(sectionLines(sections[0]!).length, day.id).toBeGreaterThan(0);
      expect(
        day.story?.blocks.some((block) => block.type === "culture-note"),
        day.id,
      ).toBe(true);
      expect(practiceSetOf(day, "review:task-1")?.items.length, day.id).toBeGreaterThan(0);
      expect(day.liveSession, day.id).toBeUndefined();
      // The new words of its story are its phrase cards, so review brings them back.
      expect(
        day.codebook?.blocks.map((block) => block.type),
        day.id,
      ).toEqual(["vocabulary-cards"]);
      expect(day.vocabulary.length, day.id).toBeGreaterThan(0);
    }
    expect(chapter2!.days[4]!.vocabulary.map((entry) => entry.malay)).toEqual(expect.arrayContaining(["Nak plastik?"]));
    // Nasi lemak's heat is its sambal (day 4's Sambal sikit); Tak pedas is for food cooked to
    // order, the night market's card.
    expect(chapter1!.days[3]!.vocabulary.map((entry) => entry.malay)).toContain("Sambal sikit");
    expect(chapter2!.days[4]!.vocabulary.map((entry) => entry.malay)).toContain("Tak pedas");
    // A review day's story leads on to its cards, whose Codebook leads on to the next chapter or,
    // on the course's last day, back to My Journey (the Codebook page has no live session to offer).
    expect(chapter1!.days[4]!.story?.next).toBe("codebook");
    expect(chapter2!.days[4]!.story?.next).toBe("codebook");
  });

  it("gives each phrase one card in the course: no day's card repeats an earlier day's", () => {
    const first = new Map<string, string>();
    const repeats: string[] = [];
    for (const chapter of parseChapters(courseFiles())) {
      for (const day of chapter.days) {
        for (const { malay } of day.vocabulary) {
          const phrase = malay.toLowerCase().replace(/[?!.]+$/, "");
          const earlier = first.get(phrase);
          if (earlier) repeats.push(`${chapter.id}/${day.id} ${malay} (first on ${earlier})`);
          else first.set(phrase, `${chapter.id}/${day.id}`);
        }
      }
    }
    expect(repeats).toEqual([]);
  });
});

/**
 * A chapter as a content file holds it, small: a teaching day (a story section with its dialogue, a
 * Codebook of listen-and-shadow, the notes video and the phrase cards, a live session of one role-play)
 * and a review day (a natural-speed dialogue without a task, a culture note and a one-item quiz).
 */
function chapterFile(number = 1, firstDay = 1) {
  const video = (file: string) => `/media/course/chapter-${number}/day-${firstDay}/${file}`;
  return {
    file: `content/chapter-${number}.json`,
    data: {
      id: `chapter-${number}`,
      number,
      title: "A chapter",
      description: "A chapter for the test.",
      days: [
        {
          id: `day-${firstDay}`,
          number: firstDay,
          subtopic: "Greetings",
          goal: "Say hello.",
          vocabulary: [{ id: "selamat-pagi", malay: "Selamat pagi", english: "Good morning", note: "Until noon." }],
          story: {
            next: "codebook",
            blocks: [
              {
                type: "section",
                id: "setting",
                task: { id: "story:read-setting", label: "Read the setting" },
                title: "The kopitiam",
                completeLabel: "Complete Section",
                content: [
                  {
                    type: "dialogue",
                    lines: [{ id: "line-pagi", speaker: "Alex", malay: "Selamat pagi!", english: "Good morning!" }],
                  },
                ],
              },
            ],
          },
          codebook: {
            blocks: [
              {
                type: "listen-shadow",
                task: { id: "codebook:listen-shadow", label: "Listen and shadow" },
                title: "Listen and Shadow",
                description: "Speak along.",
                sectionId: "setting",
              },
              {
                type: "video",
                task: { id: "codebook:review-notes", label: "Watch the notes" },
                title: "Notes",
                description: "Watch to the end.",
                video: {
                  title: "Notes",
                  webm: video("notes.webm"),
                  mp4: video("notes.mp4"),
                  captions: video("notes.vtt"),
                  poster: video("notes-poster.webp"),
                },
              },
              {
                type: "vocabulary-cards",
                task: { id: "codebook:review-vocab", label: "Review the vocabulary" },
                title: "Phrase Cards",
                description: "Flip every card.",
              },
            ],
          },
          liveSession: {
            blocks: [
              {
                type: "role-play",
                task: { id: "live-session:task-1", label: "Role-play with your tutor" },
                title: "Greetings",
                description: "Greet your tutor.",
                phrases: [{ id: "phrase-apa-khabar", label: "Ask", malay: "Apa khabar?", english: "How are you?" }],
              },
            ],
          },
        },
        {
          id: `day-${firstDay + 1}`,
          number: firstDay + 1,
          subtopic: "Review",
          goal: "Bring the week together.",
          story: {
            next: "next-chapter",
            blocks: [
              {
                type: "section",
                id: "dialogue",
                pace: "natural",
                title: "The week in one conversation",
                content: [
                  {
                    type: "dialogue",
                    lines: [{ id: "line-jom", speaker: "Alex", malay: "Jom minum!", english: "Let's have a drink!" }],
                  },
                ],
              },
              { type: "culture-note", title: "Culture Corner: Tipping", paragraphs: ["Nobody expects a tip."] },
              {
                type: "practice",
                task: { id: "review:task-1", label: "Answer the review quiz" },
                title: "Review Quiz",
                description: "One question.",
                items: [
                  {
                    id: "tipping",
                    kind: "comprehension",
                    prompt: "Do you tip at a kopitiam?",
                    choices: [
                      { id: "no", text: "No" },
                      { id: "ten", text: "Ten percent" },
                      { id: "coins", text: "The coins of the change" },
                    ],
                    answer: "no",
                    audio: "line-jom",
                  },
                ],
              },
            ],
          },
        },
      ],
    },
  };
}

type RawBlock = Record<string, unknown> & { task?: { id: string; label?: string }; video?: Record<string, string> };
type RawDay = Record<string, unknown> & { story: { blocks: RawBlock[] }; codebook: { blocks: RawBlock[] } } & {
  liveSession: { blocks: RawBlock[] };
};
const daysOf = (file: ReturnType<typeof chapterFile>) => file.data.days as unknown as RawDay[];

function problemsOf(files: ReturnType<typeof chapterFile>[]): string[] {
  try {
    parseChapters(files);
  } catch (error) {
    expect(error).toBeInstanceOf(ContentError);
    return (error as ContentError).problems;
  }
  throw new Error("parseChapters accepted the content");
}

describe("parseChapters", () => {
  it("reads a teaching day and a review day, with their tasks in page order and the defaults filled in", () => {
    const [chapter] = parseChapters([chapterFile()]);
    const [teaching, review] = chapter!.days;
    expect(taskIds(teaching)).toEqual([
      "story:read-setting",
      "codebook:listen-shadow",
      "codebook:review-notes",
      "codebook:review-vocab",
      "live-session:task-1",
    ]);
    expect(teaching?.requiresSignIn).toBe(false);
    expect(teaching?.vocabulary[0]?.note).toBe("Until noon.");
    expect(storySections(teaching!)[0]?.pace).toBe("shadow");
    // A section without a task records nothing: the review day's quiz is its only task.
    expect(taskIds(review)).toEqual(["review:task-1"]);
    const natural = storySections(review!)[0]!;
    expect([natural.pace, natural.task, natural.completeLabel]).toEqual(["natural", undefined, undefined]);
    expect(review?.story?.next).toBe("next-chapter");
  });

  it("names the file and the path of a bad field", () => {
    const broken = chapterFile();
    daysOf(broken)[0]!.liveSession.blocks[0]!.task!.id = "Live Session";
    try {
      parseChapters([broken]);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ContentError);
      expect((error as Error).message).toContain("content/chapter-1.json");
      expect((error as ContentError).problems).toEqual([
        expect.stringMatching(/^days\.0\.liveSession\.blocks\.0\.task\.id: must look like/),
      ]);
    }
  });

  it("refuses a card's note longer than one short line, as its review card explains with it", () => {
    const long = chapterFile();
    const card = (daysOf(long)[0] as unknown as { vocabulary: { note?: string }[] }).vocabulary[0]!;
    card.note = "x".repeat(201);
    expect(() => parseChapters([long])).toThrow(/days\.0\.vocabulary\.0\.note: is one short line/);
    card.note = "x".repeat(200);
    expect(() => parseChapters([long])).not.toThrow();
  });

  it("refuses a third-party media host and duplicate task ids", () => {
    const broken = chapterFile();
    const day = daysOf(broken)[0]!;
    day.codebook.blocks[1]!.video!.webm = "https://cdn.example.com/a.webm";
    day.codebook.blocks[2]!.task!.id = "story:read-setting";
    expect(problemsOf([broken])).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^days\.0\.codebook\.blocks\.2\.task\.id: "story:read-setting" is already the task of story\.blocks\.0$/,
        ),
        expect.stringMatching(/^days\.0\.codebook\.blocks\.1\.video\.webm: must be a \/media\/… file/),
      ]),
    );
  });

  it("refuses a story section with a task but no completion button, or a button recording no task", () => {
    const noButton = chapterFile();
    delete daysOf(noButton)[0]!.story.blocks[0]!.completeLabel;
    const noTask = chapterFile();
    daysOf(noTask)[1]!.story.blocks[0]!.completeLabel = "Mark as Complete";
    for (const broken of [noButton, noTask]) {
      expect(problemsOf([broken])).toEqual([
        expect.stringMatching(
          /\.story\.blocks\.0\.completeLabel: a section has both a task and a completeLabel, or neither$/,
        ),
      ]);
    }
  });

  it("reads a role-play's script for doing it alone, and refuses one that does not fit its phrases", () => {
    const scripted = chapterFile();
    const partner = (id: string) => ({
      type: "partner",
      id,
      speaker: "Pak Cik Ali",
      malay: "Selamat pagi!",
      english: "Good morning!",
    });
    const rolePlay = daysOf(scripted)[0]!.liveSession.blocks[0]!;
    rolePlay.script = [partner("ali-pagi"), { type: "learner", phraseId: "phrase-apa-khabar", cue: "Ask how he is." }];
    const [chapter] = parseChapters([scripted]);
    const block = chapter!.days[0]!.liveSession!.blocks[0]!;
    expect(block.script?.map((turn) => turn.type)).toEqual(["partner", "learner"]);
    // The partner's line is a spoken item of the day: it has a clip of its own.
    expect(daySpokenItems(chapter!, chapter!.days[0]!).map((item) => item.id)).toContain("ali-pagi");

    rolePlay.script = [
      partner("ali-pagi"),
      partner("greeting-morning"),
      { type: "learner", phraseId: "no-such-phrase", cue: "Ask." },
    ];
    expect(problemsOf([scripted])).toEqual(
      expect.arrayContaining([
        'days.0.liveSession.blocks.0.script.2.phraseId: "no-such-phrase" is not a phrase of this role-play',
        'days.0.liveSession.blocks.0.phrases.0.id: "phrase-apa-khabar" is never the learner\'s turn in the script',
      ]),
    );
    rolePlay.script = [partner("phrase-apa-khabar"), { type: "learner", phraseId: "phrase-apa-khabar", cue: "Ask." }];
    expect(problemsOf([scripted])).toEqual([
      'days.0.liveSession.blocks.0.script.0.id: "phrase-apa-khabar" is used twice in this day',
    ]);
  });

  it("refuses a pace other than shadow or natural", () => {
    const broken = chapterFile();
    daysOf(broken)[1]!.story.blocks[0]!.pace = "fast";
    expect(problemsOf([broken])).toEqual([
      expect.stringMatching(/^days\.1\.story\.blocks\.0\.pace: .*"shadow"\|"natural"/),
    ]);
  });

  it("refuses what the course no longer has: placeholder pages, phrase-cards blocks, unavailable days, Coming Soon chapters", () => {
    const placeholder = chapterFile();
    daysOf(placeholder)[0]!.liveSession.blocks[0] = { type: "placeholder", next: "next-day" };
    const phraseCards = chapterFile();
    daysOf(phraseCards)[0]!.codebook.blocks[2] = {
      type: "phrase-cards",
      task: { id: "codebook:review-vocab", label: "Review the cards" },
      title: "Phrase Cards",
      description: "Flip every card.",
      items: [{ id: "card-pagi", front: "Good morning", back: "Selamat pagi", description: "Until noon." }],
    };
    const unavailable = chapterFile();
    daysOf(unavailable)[1]!.available = false;
    const comingSoon = chapterFile();
    (comingSoon.data as Record<string, unknown>).comingSoon = true;
    expect(problemsOf([placeholder])).toEqual([
      expect.stringMatching(/^days\.0\.liveSession\.blocks\.0\.type: Invalid discriminator value/),
    ]);
    expect(problemsOf([phraseCards])).toEqual([
      expect.stringMatching(/^days\.0\.codebook\.blocks\.2\.type: Invalid discriminator value/),
    ]);
    expect(problemsOf([unavailable])).toEqual([expect.stringMatching(/^days\.1: Unrecognized key: "available"/)]);
    expect(problemsOf([comingSoon])).toEqual([expect.stringMatching(/^\(file\): Unrecognized key: "comingSoon"/)]);
  });

  it("refuses day numbers that do not increase through the course", () => {
    expect(() => parseChapters([chapterFile(2, 3), chapterFile(1, 1)])).toThrow(/day numbers must increase/);
    expect(parseChapters([chapterFile(1, 1), chapterFile(2, 3)]).map((chapter) => chapter.id)).toEqual([
      "chapter-1",
      "chapter-2",
    ]);
  });
});
