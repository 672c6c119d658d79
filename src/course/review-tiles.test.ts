import { describe, expect, it } from "vitest";
import { tileWords } from "./review-tiles";

describe("review's tiles", () => {
  it("show a phrase's words without the marks or the first capital that would tell their place", () => {
    expect(tileWords("Maaf, boleh ulang?")).toEqual(["maaf", "boleh", "ulang"]);
    expect(tileWords("Satu, dua, tiga, empat, lima")).toEqual(["satu", "dua", "tiga", "empat", "lima"]);
    expect(tileWords("… di mana?")).toEqual(["di", "mana"]);
    // Marks inside a word stay: they are its spelling.
    expect(tileWords("Saya nak kopi-O satu")).toEqual(["saya", "nak", "kopi-O", "satu"]);
    expect(tileWords("Kad Touch 'n Go")).toEqual(["kad", "Touch", "'n", "Go"]);
  });

  it("keep the capital of a name: a word the course writes with a capital inside a sentence", () => {
    const course = [{ malay: "Nama saya Alex." }, { malay: "Selamat pagi, Alex!" }];
    expect(tileWords("Alex nak minum apa?", course)).toEqual(["Alex", "nak", "minum", "apa"]);
    expect(tileWords("Alex nak minum apa?")).toEqual(["alex", "nak", "minum", "apa"]);
    expect(tileWords("KLCC dekat sini?")).toEqual(["KLCC", "dekat", "sini"]);
  });
});
