import { normaliseTyped } from "./grading";
import { sameForms } from "./malay-forms";

// When two phrases say the same, so that review never offers one as the other's wrong choice.

/** The first sense of a gloss, in lower case: "Iced (from Hokkien)" and "Iced; ice" are both "iced". */
const firstSense = (english: string) => english.split(/[;(,]/u)[0]!.trim().toLowerCase();

/**
 * Whether two glosses say the same: their first senses equal, or one the start of the other ("No
 * need" and "No need to"). Synonym cards (Ais and Peng, Bungkus and Tapau, Tak apalah and Tak payah)
 * are never each other's wrong choice.
 */
export const sameMeaning = (a: string, b: string) => {
  const [x, y] = [firstSense(a), firstSense(b)];
  return x === y || y.startsWith(`${x} `) || x.startsWith(`${y} `);
};

/** Whether two phrases are the same Malay as the grader compares it (tapau and bungkus, takde and tak ada). */
export const sameMalay = (a: string, b: string) => comparedMalay(a) === comparedMalay(b);
const compared = new Map<string, string>();
function comparedMalay(malay: string): string {
  let form = compared.get(malay);
  if (form === undefined) {
    form = sameForms(normaliseTyped(malay));
    compared.set(malay, form);
  }
  return form;
}
