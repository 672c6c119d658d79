/**
 * How an item lists its accepted answers compactly (decision 065): one written answer stands for
 * every form it spells out, so a writer lists the orders and the optional words a Malaysian uses
 * without writing each by hand.
 *
 * - `[x]`: x or nothing ("Saya nak [secawan] teh tarik": with or without "secawan");
 * - `{a|b}`: one of the alternatives ("{Bagi|Saya nak} teh tarik satu");
 * - `{a ~ b}`: the parts in either order ("{teh tarik ~ satu}": "teh tarik satu", "satu teh
 *   tarik"); three or four parts give every order.
 *
 * They nest. In a build-the-sentence item's order the words are tile ids ("{dua ~ kopi-c panas}").
 * The schema expands answers when the course is read, so graders, review and the browser only ever
 * see plain answers.
 */

/** More forms than this from one written answer is a writing mistake, not a list. */
export const MAX_FORMS = 64;
const MAX_PARTS_IN_ANY_ORDER = 4;

export class NotationError extends Error {}

type Node = string | { kind: "optional" | "choice" | "order"; parts: Node[][] };

const CLOSING = { "[": "]", "{": "}" } as const;

/**
 * Parses `text` from `at` up to `close` (or its end when none): a sequence of words and groups, split
 * into parts by "|" or "~" inside a group.
 */
function parse(text: string, at: number, close?: "]" | "}"): { parts: Node[][]; separator?: "|" | "~"; at: number } {
  const parts: Node[][] = [];
  let separator: "|" | "~" | undefined;
  let current: Node[] = [];
  let literal = "";
  const flush = () => {
    if (literal) current.push(literal);
    literal = "";
  };
  while (at < text.length) {
    const char = text[at]!;
    if (char === close) {
      flush();
      return { parts: [...parts, current], separator, at: at + 1 };
    }
    if (char === "[" || char === "{") {
      flush();
      const inner = parse(text, at + 1, CLOSING[char]);
      current.push(groupNode(char, inner.parts, inner.separator));
      at = inner.at;
    } else if (char === "]" || char === "}") {
      throw new NotationError(`"${char}" closes nothing`);
    } else if (close && (char === "|" || char === "~")) {
      if (separator && separator !== char) throw new NotationError('one group uses "|" or "~", not both');
      separator = char;
      flush();
      parts.push(current);
      current = [];
      at += 1;
    } else {
      literal += char;
      at += 1;
    }
  }
  if (close) throw new NotationError(`"${close === "]" ? "[" : "{"}" is never closed`);
  flush();
  return { parts: [...parts, current], separator, at };
}

/** `[a|b]` is optional (one of a, b, or nothing); `{a|b}` one of; `{a ~ b}` in any order. */
function groupNode(open: "[" | "{", parts: Node[][], separator?: "|" | "~"): Node {
  if (open === "[") {
    if (separator === "~") throw new NotationError('"[…]" takes alternatives split by "|", not "~"');
    return { kind: "optional", parts };
  }
  if (!separator) throw new NotationError('"{…}" needs alternatives split by "|" or parts by "~"');
  if (separator === "~" && parts.length > MAX_PARTS_IN_ANY_ORDER) {
    throw new NotationError(`"{…}" puts at most ${MAX_PARTS_IN_ANY_ORDER} parts in any order`);
  }
  return { kind: separator === "|" ? "choice" : "order", parts };
}

function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]];
  return items.flatMap((item, index) =>
    permutations([...items.slice(0, index), ...items.slice(index + 1)]).map((rest) => [item, ...rest]),
  );
}

/** Every text a sequence spells out. */
function expandSequence(nodes: readonly Node[]): string[] {
  let forms = [""];
  for (const node of nodes) {
    const options = typeof node === "string" ? [node] : expandNode(node);
    forms = forms.flatMap((form) => options.map((option) => form + option));
    if (forms.length > MAX_FORMS) throw new NotationError(`spells out more than ${MAX_FORMS} answers`);
  }
  return forms;
}

function expandNode(node: Exclude<Node, string>): string[] {
  const parts = node.parts.map(expandSequence);
  switch (node.kind) {
    case "optional":
      return [...parts.flat(), ""];
    case "choice":
      return parts.flat();
    case "order":
      // Each order of the parts, each part one of its own forms; parts are words, so spaced.
      return permutations(parts).flatMap((ordered) =>
        ordered.reduce<string[]>(
          (forms, options) => forms.flatMap((form) => options.map((option) => `${form} ${option.trim()} `)),
          [""],
        ),
      );
  }
}

/** Spaces tidied: one between words, none before a comma, stop or mark, none at the ends. */
function tidy(text: string): string {
  return text
    .replace(/\s+/gu, " ")
    .replace(/\s+([,.!?;:])/gu, "$1")
    .replace(/([,;:])(?=[,.!?;:])/gu, "")
    .replace(/^[\s,;:]+/u, "")
    .trim();
}

/** Whether `text` uses the notation at all. */
export const hasNotation = (text: string) => /[[\]{}]/u.test(text);

/**
 * Every answer `text` spells out, in the order written (the first form is the one feedback shows);
 * plain text is itself. A `sentence` begins with a capital letter whichever word comes first. Throws
 * NotationError for unbalanced brackets, a group without "|" or "~", or more than MAX_FORMS forms.
 */
export function expandAnswer(text: string, { sentence = false } = {}): string[] {
  if (!hasNotation(text)) return [text];
  const forms = expandSequence(parse(text, 0).parts[0]!).map(tidy);
  if (forms.some((form) => form === "")) throw new NotationError("spells out an empty answer");
  const capitalised = sentence ? forms.map((form) => form[0]!.toUpperCase() + form.slice(1)) : forms;
  return [...new Set(capitalised)];
}
