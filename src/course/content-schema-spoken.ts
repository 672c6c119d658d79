// Spoken text the speech voice reads wrongly (digits, prices, MISREAD_WORDS), and the check that refuses it.
import type { z } from "zod";

/**
 * Words espeak-ng's Malay voice (`espeak-ng -v ms -x WORD` prints its phonemes) reads wrongly, with
 * what it says and how a `say` text writes them: inline phonemes in [[...]]. Most read an e as the
 * open e of "teh" where Malay has a schwa (teksi is the other way round, semuanya loses its a). With a
 * suffix most are read right (sedapnya, lemaknya). docs/decisions/031 has the list and how it was checked.
 */
export const MISREAD_WORDS: readonly { word: string; heard: string; say: string }[] = [
  { word: "lemak", heard: "l'Ema?", say: "[[l@m'a?]]" },
  { word: "belas", heard: "b'Elas", say: "[[b@l'as]]" },
  { word: "sebelas", heard: "s@b'Elas", say: "[[s@b@l'as]]" },
  { word: "sedap", heard: "s'Edap", say: "[[s@d'ap]]" },
  { word: "senang", heard: "s'EnaN", say: "[[s@n'aN]]" },
  { word: "pedas", heard: "p'Edas", say: "[[p@d'as]]" },
  { word: "sekejap", heard: "s@k'EdZap", say: "[[s@k@dZ'ap]]" },
  { word: "kejap", heard: "k'EdZap", say: "[[k@dZ'ap]]" },
  { word: "seberang", heard: "s@b'ERaN", say: "[[s@b@R'aN]]" },
  { word: "gelas", heard: "g'Elas", say: "[[g@l'as]]" },
  { word: "teksi", heard: "t'@ksi", say: "[[t'Eksi]]" },
  { word: "teksinya", heard: "t@ks'in^@", say: "[[tEks'in^@]]" },
  { word: "semuanya", heard: "s@mu'@n^@", say: "[[s@mu'an^@]]" },
  { word: "pesan", heard: "p'Esan", say: "[[p@s'an]]" },
  { word: "belok", heard: "b'Elo?", say: "[[b@l'o?]]" },
  { word: "sesak", heard: "s'Esa?", say: "[[s@s'a?]]" },
  { word: "merah", heard: "m'ERah", say: "[[m@R'ah]]" },
  { word: "kenyang", heard: "k'En^aN", say: "[[k@n^'aN]]" },
  { word: "sibuk", heard: "s'ebok", say: "[[s'ibo?]]" },
  // Loanwords, said as Malaysians say them.
  { word: "milo", heard: "m'ilo", say: "[[m'aIlo]]" },
  { word: "grab", heard: "gR'ab", say: "[[gR'Eb]]" },
  { word: "ok", heard: "'o?", say: "[[ok'e]]" },
  { word: "oklah", heard: "'o: kl'ah", say: "[[ok'elah]]" },
];

/** Phonemes in [[...]] are passed to the voice as they are: nothing in them is read as a word or a number. */
const outsidePhonemes = (spoken: string) => spoken.replace(/\[\[[^\]]*\]\]/g, " ");

/**
 * What in a spoken text the voice would read wrongly: "RM 8" ("ringgit lapan"), "2.50" ("dua titik
 * lima puluh"), "1,000" (a decimal), "x2", any digit, and the MISREAD_WORDS. Each is the text found
 * and how to say it instead.
 */
export function misreadings(spoken: string): { found: string; fix: string }[] {
  const plain = outsidePhonemes(spoken);
  const found: { found: string; fix: string }[] = [];
  const price = /(?<!\p{L})RM(?!\p{L})\s*[\d.,]*/iu.exec(plain);
  const times = /(?<!\p{L})[x×]\s?\d+(?![\d.,])|\d+\s?[x×](?!\p{L})/iu.exec(plain);
  const number = /\d(?:[\d.,]*\d)?/u.exec(plain);
  if (price) found.push({ found: price[0].trim(), fix: 'the price in words ("tujuh ringgit lima puluh sen")' });
  else if (times) found.push({ found: times[0], fix: 'the quantity in words ("teh tarik dua")' });
  else if (number) found.push({ found: number[0], fix: "the number in words" });
  for (const word of plain.split(/[^\p{L}]+/u)) {
    const misread = MISREAD_WORDS.find((candidate) => candidate.word === word.toLowerCase());
    if (misread) found.push({ found: word, fix: `${misread.say} for "${word}" (it says ${misread.heard})` });
  }
  return found;
}

/**
 * Refuses a spoken item whose audio would say it wrongly: its shown Malay (`malay`, or a card's
 * `back`) when it has no `say`, or its `say`. The issue names the field to fix.
 */
export function speakable<Field extends string>(shown: Field) {
  return (item: Record<Field, string> & { say?: string | undefined }, context: z.RefinementCtx) => {
    const field = item.say === undefined ? shown : "say";
    for (const { found, fix } of misreadings(item.say ?? item[shown])) {
      context.addIssue({
        code: "custom",
        path: [field],
        message:
          field === "say"
            ? `"${found}" is read wrongly by the speech voice; write ${fix}`
            : `"${found}" is read wrongly by the speech voice; add a "say" text with ${fix}`,
      });
    }
  };
}
