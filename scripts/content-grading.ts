// Part of npm run content:check: the course's own answers, through the grader (src/course/grading.ts,
// decision 065). Every listed answer of a typed item and every listed order of a build item is graded
// right by its own item; and no wrong choice of a chosen reply is the same answer as the right one
// once compared as a Malaysian would accept it (a title, a particle, takpe for tak apa, tapau for
// bungkus), so that a learner is never told a right reply is wrong.
import type { Chapter } from "#course/course";
import { dayBlocks } from "#course/day-blocks";
import type { ExerciseItem } from "#course/exercise-schema";
import { grade } from "#course/grading";
import { taughtWords } from "#course/taught-words";

/** One line per contradiction, naming the chapter, day, item and answers. */
export function gradingProblems(chapters: readonly Chapter[]): string[] {
  const words = taughtWords(chapters);
  const problems: string[] = [];
  for (const chapter of chapters) {
    for (const day of chapter.days) {
      for (const { block } of dayBlocks(day)) {
        if (block.type !== "practice") continue;
        for (const item of block.items) {
          const where = `${chapter.id} ${day.id} ${item.id}`;
          problems.push(...itemProblems(item, words).map((problem) => `${where}: ${problem}`));
        }
      }
    }
  }
  return problems;
}

function itemProblems(item: ExerciseItem, words: ReadonlySet<string>): string[] {
  const options = { forgiveSlips: true, taughtWords: words };
  switch (item.kind) {
    case "type-heard":
    case "type-malay":
    case "reply-type":
      return item.answers.flatMap((answer) =>
        grade(item, { text: answer }, options).grade === "right" ? [] : [`its answer "${answer}" is not graded right`],
      );
    case "build-sentence":
      return item.answers.flatMap((order) =>
        grade(item, { tileIds: order }, options).grade === "right"
          ? []
          : [`its order ${order.join(" ")} is not graded right`],
      );
    case "reply-choose": {
      const right = item.choices.find((choice) => choice.id === item.answer)!;
      // The right reply as a typed item: a wrong choice graded right by it says the same thing.
      const typed: ExerciseItem = {
        id: item.id,
        kind: "reply-type",
        prompt: item.prompt,
        audio: item.audio,
        answers: [right.text],
      };
      return item.choices.flatMap((choice) =>
        choice.id !== item.answer && grade(typed, { text: choice.text }, options).grade === "right"
          ? [`the wrong choice "${choice.text}" is the same reply as the right one, "${right.text}"`]
          : [],
      );
    }
    default:
      return [];
  }
}
