/**
 * How typed Malay is compared when graded: the forms a Kuala Lumpur speaker uses for the same
 * answer, in one table (documented in CONTENT.md, "What the grader accepts"). Pure, for the grader
 * (grading.ts), on the server and in the browser alike.
 *
 * Text here is already normalised (normaliseTyped: lower case, punctuation read as spaces), except
 * in `clausesOf`, which needs the commas and stops to find a title said on its own.
 */

/**
 * Forms of address a speaker adds at the start or the end of what they say, or on their own between
 * commas ("Pak cik, teh tarik satu.", "Bagi sekilo, kak."): neither required nor refused, unless
 * every listed answer of the item has one (then the item teaches it: "Selamat petang, puan").
 */
export const ADDRESS_TERMS = [
  "pak cik",
  "mak cik",
  "kak",
  "akak",
  "kakak",
  "bang",
  "abang",
  "dik",
  "adik",
  "boss",
  "puan",
  "encik",
  "cik",
  "tuan",
  "anneh",
  "uncle",
  "aunty",
] as const;

/** Particles that close a sentence and soften it; optional on the same terms as a title. */
export const CLOSING_PARTICLES = ["ya", "lah", "saja"] as const;

/**
 * Spellings the course itself teaches for the same words, each with the form it is compared as.
 * Several words on the left are read as one phrase ("tak apa lah"); longer phrases are read first.
 */
export const SAME_FORMS: readonly (readonly [spelled: string, comparedAs: string])[] = [
  ["takpelah", "tak apa"],
  ["takpe", "tak apa"],
  ["tak pe", "tak apa"],
  ["tak apalah", "tak apa"],
  ["tak apa lah", "tak apa"],
  ["takde", "tak ada"],
  ["tak de", "tak ada"],
  ["kat", "di"],
  ["ni", "ini"],
  ["tu", "itu"],
  ["okey", "ok"],
  ["okay", "ok"],
  ["oklah", "ok lah"],
  ["okeylah", "ok lah"],
  ["okaylah", "ok lah"],
  ["la", "lah"],
  ["cash", "tunai"],
  ["tapau", "bungkus"],
  ["makcik", "mak cik"],
  ["pakcik", "pak cik"],
  ["bos", "boss"],
  ["je", "saja"],
  ["jer", "saja"],
  ["sahaja", "saja"],
  ["ye", "ya"],
  ["mahu", "nak"],
];

/** Words ending in "lah" that are a taught word with the particle joined on ("bolehlah"). */
const JOINED_LAH = ["boleh", "duduk", "tolong", "jom", "mari", "betul", "baik", "ambil", "sikit", "cepat", "dah"];

/** The register pair a prompt may ask for: an item whose every answer says "mahu" teaches it. */
const REGISTER_WORD = "mahu";

const words = (text: string) => (text === "" ? [] : text.split(" "));

/** Numbers said in words, by what each word adds (see numbersAsDigits). */
const UNITS: Record<string, number> = {
  satu: 1,
  dua: 2,
  tiga: 3,
  empat: 4,
  lima: 5,
  enam: 6,
  tujuh: 7,
  lapan: 8,
  sembilan: 9,
  sepuluh: 10,
  sebelas: 11,
};
const NUMBER_WORDS = new Set([...Object.keys(UNITS), "belas", "puluh", "ratus", "seratus", "ribu", "seribu"]);

/** The value of a run of number words ("dua puluh lima" is 25, "seratus tiga puluh" 130), or null. */
function numberOf(run: readonly string[]): number | null {
  let total = 0;
  let current = 0;
  for (const word of run) {
    if (word in UNITS) {
      // A units word after another ("satu dua") starts a new number.
      if (current % 10 !== 0) return null;
      current += UNITS[word]!;
    } else if (word === "belas" && current > 0 && current < 10) current += 10;
    else if (word === "puluh" && current > 0 && current < 10) current *= 10;
    else if (word === "seratus") total += 100;
    else if (word === "ratus" && current > 0 && current < 10) {
      total += current * 100;
      current = 0;
    } else if (word === "seribu") total += 1000;
    else if (word === "ribu" && total + current > 0) {
      total = (total + current) * 1000;
      current = 0;
    } else return null;
  }
  return total + current;
}

/**
 * Numbers in words as digits ("sebelas ringgit lima puluh sen" is "11 ringgit 50 sen"), "setengah"
 * after an amount of ringgit as 50 ("sebelas ringgit setengah"), and "sen" after a number left
 * out: a price is the same answer in words or in digits.
 */
export function numbersAsDigits(tokens: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < tokens.length; ) {
    let end = i;
    while (end < tokens.length && NUMBER_WORDS.has(tokens[end]!)) end += 1;
    // The longest run from here that reads as one number ("satu dua tiga" is three).
    let value: number | null = null;
    for (; end > i && value === null; end -= 1) value = numberOf(tokens.slice(i, end));
    end += 1;
    if (value === null) {
      out.push(tokens[i]!);
      i += 1;
      continue;
    }
    out.push(String(value));
    i = end;
  }
  return out.flatMap((word, index) => {
    if (word === "setengah" && out[index - 1] === "ringgit" && /^\d+$/u.test(out[index - 2] ?? "")) return ["50"];
    if (word === "sen" && /^\d+$/u.test(out[index - 1] ?? "")) return [];
    return [word];
  });
}

/** `text`'s words with `phrase` (words) replaced by `by` wherever it stands as whole words. */
function replacePhrase(tokens: string[], phrase: string[], by: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < tokens.length; ) {
    if (phrase.every((word, k) => tokens[i + k] === word)) {
      out.push(...by);
      i += phrase.length;
    } else {
      out.push(tokens[i]!);
      i += 1;
    }
  }
  return out;
}

const BY_LENGTH = [...SAME_FORMS].sort((a, b) => words(b[0]).length - words(a[0]).length);

/** What an item's listed answers teach, so that the grader does not make it optional. */
export interface Taught {
  /** Every answer has a form of address. */
  address: boolean;
  /** Every answer closes with a particle. */
  particle: boolean;
  /** Every answer says "mahu" (the formal register), none "nak". */
  register: boolean;
}

/** Spellings made one (SAME_FORMS), and "lah" joined to a taught word read as its own word. */
export function sameForms(normalised: string, taught: Pick<Taught, "register"> = { register: false }): string {
  let tokens = words(normalised).flatMap((word) =>
    word.endsWith("lah") && JOINED_LAH.includes(word.slice(0, -3)) ? [word.slice(0, -3), "lah"] : [word],
  );
  for (const [spelled, comparedAs] of BY_LENGTH) {
    if (taught.register && spelled === REGISTER_WORD) continue;
    tokens = replacePhrase(tokens, words(spelled), words(comparedAs));
  }
  return numbersAsDigits(tokens).join(" ");
}

const ADDRESS_WORDS = ADDRESS_TERMS.map(words);
const PARTICLES: readonly string[] = CLOSING_PARTICLES;

/** The length in words of a form of address at `tokens[at]`, or 0. */
function addressAt(tokens: readonly string[], at: number): number {
  const found = ADDRESS_WORDS.find((term) => term.every((word, k) => tokens[at + k] === word));
  return found?.length ?? 0;
}

/** `tokens` without a form of address at the start or the end, while a word stays. */
function withoutEdgeAddress(tokensIn: readonly string[]): string[] {
  let tokens = [...tokensIn];
  const front = addressAt(tokens, 0);
  if (front > 0 && tokens.length > front) tokens = tokens.slice(front);
  // Longest first: "pak cik" ends with "cik", itself a title.
  for (const length of [2, 1]) {
    const at = tokens.length - length;
    if (at > 0 && addressAt(tokens, at) === length) return tokens.slice(0, at);
  }
  return tokens;
}

/**
 * An answer as it is compared (`normalise`d, spellings made one): in each clause (between commas,
 * stops, question and exclamation marks) a form of address at its start or end is taken off, and a
 * clause that is only a title (with a particle) goes ("Pak cik, teh tarik satu.", "Takpe kak, saya
 * bayar cash.", "Tak apa, pak cik, terima kasih."); then closing particles at the end, while two
 * words or more stay ("Itu saja" keeps its "saja"). What `taught` says the item teaches is kept.
 */
export function spokenCore(raw: string, normalise: (text: string) => string, taught: Taught): string {
  const clauses = raw
    .split(/[,.!?;]+/u)
    .map((clause) => words(sameForms(normalise(clause), taught)))
    .filter((tokens) => tokens.length > 0);
  let tokens = clauses.flatMap((clause) => {
    if (taught.address) return clause;
    const title = addressAt(clause, 0);
    if (title > 0 && clause.slice(title).every((word) => PARTICLES.includes(word))) return [];
    return withoutEdgeAddress(clause);
  });
  if (tokens.length === 0) tokens = words(sameForms(normalise(raw), taught));
  while (!taught.particle && tokens.length > 2 && PARTICLES.includes(tokens.at(-1)!)) tokens = tokens.slice(0, -1);
  return tokens.join(" ");
}

/**
 * A sentence and the same with its form of address moved to the other end ("pak cik kira berapa
 * semua", "kira berapa semua pak cik"): a title goes first or last as the speaker likes, so an
 * item lists one place for it (build-sentence items, whose tiles keep the title).
 */
export function titleEitherEnd(normalised: string): string[] {
  const tokens = words(normalised);
  const front = addressAt(tokens, 0);
  if (front > 0 && tokens.length > front)
    return [normalised, [...tokens.slice(front), ...tokens.slice(0, front)].join(" ")];
  for (const length of [2, 1]) {
    const at = tokens.length - length;
    if (at > 0 && addressAt(tokens, at) === length)
      return [normalised, [...tokens.slice(at), ...tokens.slice(0, at)].join(" ")];
  }
  return [normalised];
}

/** What the item's listed answers teach (normalised answers, spellings made one). */
export function taughtBy(answers: readonly string[]): Taught {
  const tokenLists = answers.map(words);
  const hasAddress = (tokens: string[]) => tokens.some((_, at) => addressAt(tokens, at) > 0);
  return {
    address: tokenLists.every(hasAddress),
    particle: tokenLists.every((tokens) => PARTICLES.includes(tokens.at(-1) ?? "")),
    register: tokenLists.every((tokens) => tokens.includes(REGISTER_WORD)),
  };
}
