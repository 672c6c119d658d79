import { describe, expect, it } from "vitest";
import { glossaryParts } from "./glossary";

const glossary = [
  { malay: "terima kasih", english: "thank you" },
  { malay: "pak cik", english: "uncle" },
  { malay: "kopi-O", english: "black coffee with sugar" },
  { malay: "satu", english: "one" },
  { malay: "sama-sama", english: "you're welcome" },
  { malay: "sama", english: "same" },
];
const shown = (line: string) =>
  glossaryParts(line, glossary).map((part) => (part.entry ? `[${part.text}]` : part.text));

describe("glossaryParts", () => {
  it("marks the words the glossary has, ignoring case, and keeps the text between them", () => {
    expect(shown("Saya mahu kopi-o satu.")).toEqual(["Saya mahu ", "[kopi-o]", " ", "[satu]", "."]);
    expect(glossaryParts("Satu.", glossary)[0]?.entry?.english).toBe("one");
  });

  it("matches a phrase as one unit, and a doubled word as one word", () => {
    expect(shown("Terima kasih, pak cik!")).toEqual(["[Terima kasih]", ", ", "[pak cik]", "!"]);
    expect(shown("Sama-sama.")).toEqual(["[Sama-sama]", "."]);
  });

  it("does not join the words of a phrase across punctuation", () => {
    expect(shown("Pak, cik")).toEqual(["Pak, cik"]);
  });

  it("gives the whole line as plain text when nothing matches or there is no glossary", () => {
    expect(shown("Panas atau ais?")).toEqual(["Panas atau ais?"]);
    expect(glossaryParts("Satu.", [])).toEqual([{ text: "Satu." }]);
  });
});
