import { describe, expect, it } from "vitest";
import { loadCourse } from "#server/course/content";
import { dayBlocks } from "./day-blocks";
import type { ExerciseItem } from "./exercise-schema";
import { grade } from "./grading";
import { numbersAsDigits } from "./malay-forms";
import { reviewItem } from "./review-items";
import { coursePhrases } from "./review-rules";
import { taughtWords } from "./taught-words";

// What a Kuala Lumpur speaker types to the course's own items (docs: CONTENT.md, "What the grader
// accepts"), graded as practice grades them: right when a Malaysian would say it, wrong when it
// says something else.
const course = loadCourse({ publicDir: null });
const words = taughtWords(course);
const items = new Map<string, ExerciseItem>(
  course.flatMap((chapter) =>
    chapter.days.flatMap((day) =>
      dayBlocks(day).flatMap(({ block }) =>
        block.type === "practice" ? block.items.map((item) => [`${day.id}/${item.id}`, item] as const) : [],
      ),
    ),
  ),
);
const practice = (id: string, text: string) => {
  const item = items.get(id);
  if (!item) throw new Error(`no item ${id}`);
  return grade(item, { text }, { forgiveSlips: true, taughtWords: words });
};

describe("grading that knows Malaysian speech", () => {
  it.each([
    ["day-1/reply-nak-minum-apa", "Pak cik, teh tarik satu."],
    ["day-1/reply-nak-minum-apa", "Teh tarik satu ya, pak cik."],
    ["day-1/reply-nak-minum-apa", "Saya nak teh tarik satu, boss."],
    ["day-2/reply-berapa-orang", "Pak cik, empat orang."],
    ["day-3/reply-nak-roti-bakar", "Takpe, terima kasih pak cik."],
    ["day-3/reply-nak-roti-bakar", "Tak apalah pak cik, terima kasih."],
    ["day-3/type-no-ice", "Tak nak ais lah."],
    ["day-4/reply-dah-habis", "Takpe, mak cik. Ada apa lagi?"],
    ["day-6/reply-cakap-perlahan", "Maaf makcik, boleh cakap perlahan sikit?"],
    ["day-7/reply-cari-tempat-berhenti", "Bang, berhenti sini, boleh?"],
    ["day-8/reply-nak-apa-lagi", "Itu je, terima kasih kak."],
    ["day-8/reply-cuba-rasa", "Wah, manis! Bagi sekilo, kak."],
    ["day-9/reply-tunai-saja", "Takpe kak, saya bayar cash."],
    ["day-10/type-where-is-the-toilet", "Tandas kat mana, bang?"],
    ["day-2/type-air-kosong", "Saya mahu air kosong satu."],
    ["day-2/reply-berapa-orang", "4 orang."],
    // Native answers a reader gave, now listed.
    ["day-3/type-can-i-help", "Nak saya tolong?"],
    ["day-5/type-takeaway", "Bawa balik."],
    ["day-8/reply-cuba-rasa", "Bagi sekilo, kak."],
    ["day-9/reply-untuk-abang", "Kalau saya beli dua, berapa?"],
    ["day-4/reply-check-total", "11 ringgit 50 sen?"],
    ["day-4/reply-check-total", "Sebelas ringgit setengah?"],
    ["day-4/reply-check-total", "Sebelas ringgit lima puluh sen, mak cik?"],
  ])("%s: %s is right", (id, text) => {
    expect(practice(id, text)).toMatchObject({ grade: "right", typo: false });
  });

  it.each([
    // A wrong drink, a wrong number, a different question stay wrong, title or not.
    ["day-1/reply-nak-minum-apa", "Pak cik, kopi satu."],
    ["day-1/reply-nak-minum-apa", "Pak cik, teh tarik dua."],
    ["day-2/reply-berapa-orang", "Tiga orang, pak cik."],
    ["day-2/reply-berapa-orang", "3 orang."],
    ["day-1/reply-nak-minum-apa", "Teh tarik dua."],
    // One letter apart, another drink: kopi-O is black with sugar, kopi-C with evaporated milk.
    ["day-2/reply-lagi-kopi-c", "Bagi kopi-O panas dua."],
    ["day-4/reply-check-total", "Sebelas ringgit lima puluh lima sen?"],
    ["day-4/reply-check-total", "Dua belas ringgit setengah?"],
    ["day-4/reply-dah-habis", "Tak apa, mak cik. Berapa semua?"],
    ["day-10/type-where-is-the-toilet", "Tandas berapa, bang?"],
    // A title alone is not the answer; a taught closing word is kept where it is the answer.
    ["day-8/reply-nak-apa-lagi", "Kak."],
    ["day-8/reply-nak-apa-lagi", "Itu."],
  ])("%s: %s is wrong", (id, text) => {
    expect(practice(id, text).grade).toBe("wrong");
  });

  it("keeps a title the item teaches: every answer has it", () => {
    expect(practice("day-5/type-good-afternoon-puan", "Puan, selamat petang. Apa khabar?").grade).toBe("right");
    expect(practice("day-5/type-good-afternoon-puan", "Selamat petang. Apa khabar?").grade).not.toBe("right");
  });

  it("takes dictation as heard: a title or a spelling the clip does not say is not what was heard", () => {
    expect(practice("day-3/type-heard-puan", "Puan nak minum apa?").grade).toBe("right");
    expect(practice("day-3/type-heard-puan", "Nak minum apa?").grade).not.toBe("right");
    expect(practice("day-1/type-heard-nak-minum-apa", "Mahu minum apa?").grade).not.toBe("right");
  });

  it("counts a slip that makes another taught word as that word, wrong: nak for tak, naik for baik", () => {
    expect(practice("day-4/reply-tak-faham", "Saya nak faham.")).toMatchObject({ grade: "wrong", typo: false });
    expect(practice("day-1/type-khabar-baik-terima-kasih", "Khabar naik, terima kasih.")).toMatchObject({
      grade: "wrong",
      typo: false,
    });
    // A slip that makes no word is still forgiven, and named.
    expect(practice("day-1/type-khabar-baik-terima-kasih", "Khabar baik, terima kasi.")).toMatchObject({
      grade: "right",
      typo: true,
      slip: { typed: "kasi", right: "kasih" },
    });
    expect(practice("day-1/type-khabar-baik-terima-kasih", "Khabar baik, terimakasih.").slip).toEqual({
      typed: "terimakasih",
      right: "terima kasih",
    });
  });

  it("shows the listed answer nearest to what was typed", () => {
    expect(practice("day-2/type-air-kosong", "Saya mahu air kosong satu.").correct.text).toBe(
      "Saya mahu air kosong satu.",
    );
    expect(practice("day-3/reply-nak-roti-bakar", "Takpe, terima kasih.").correct.text).toBe("Tak apa, terima kasih.");
  });

  it("reads numbers in words as digits, setengah after ringgit as 50, and sen after a number as said", () => {
    const digits = (text: string) => numbersAsDigits(text.split(" ")).join(" ");
    expect(digits("dua puluh lima ringgit")).toBe("25 ringgit");
    expect(digits("seratus tiga puluh ringgit sehelai")).toBe("130 ringgit sehelai");
    expect(digits("dua belas")).toBe("12");
    expect(digits("lima ratus ribu")).toBe("500000");
    expect(digits("seribu dua ratus")).toBe("1200");
    expect(digits("sebelas ringgit setengah")).toBe("11 ringgit 50");
    expect(digits("setengah kilo tomato")).toBe("setengah kilo tomato");
    expect(digits("lima puluh sen")).toBe("50");
    expect(digits("satu dua tiga")).toBe("1 2 3");
    expect(digits("dua puluh lima enam")).toBe("25 6");
  });

  const build = (id: string, tileIds: string[]) => {
    const item = items.get(id);
    if (!item) throw new Error(`no item ${id}`);
    return grade(item, { tileIds }, { forgiveSlips: true, taughtWords: words }).grade;
  };

  it("takes every native order a build-sentence item's tiles allow, and a title at either end", () => {
    expect(build("day-7/build-saya-turun-di-mana", ["di", "mana", "saya", "turun"])).toBe("right");
    expect(build("day-8/build-ada-rambutan-tak", ["ada", "tak", "rambutan"])).toBe("right");
    expect(build("day-2/build-kopi-c-panas-dua", ["dua", "kopi-c", "panas"])).toBe("right");
    expect(build("day-2/build-bagi-teh-tarik", ["bagi", "satu", "teh-tarik"])).toBe("right");
    expect(build("day-6/build-tandas-di-mana", ["mana", "tandas"])).toBe("right");
    expect(build("day-7/build-pergi-ke-pasar-seni", ["saya", "nak", "ke", "pasar-seni"])).toBe("right");
    expect(build("day-4/build-kira-berapa-semua", ["kira", "berapa", "semua", "pak-cik"])).toBe("right");
    // Orders listed compactly ({kopi-o ~ satu}, [saya]): each spelled-out order is right.
    expect(build("day-1/build-saya-nak-kopi-o", ["nak", "kopi-o", "satu"])).toBe("right");
    expect(build("day-1/build-saya-nak-kopi-o", ["satu", "kopi-o"])).toBe("right");
    expect(build("day-2/build-teh-o-ais", ["satu", "teh-o", "ais", "kurang", "manis"])).toBe("right");
    expect(build("day-4/build-kira-berapa-semua", ["pak-cik", "kira", "semua", "berapa"])).toBe("right");
    expect(build("day-4/build-roti-canai-bungkus", ["satu", "roti-canai", "kosong", "bungkus"])).toBe("right");
    expect(build("day-5/build-nasi-lemak-makan-sini", ["makan", "sini", "satu", "nasi-lemak"])).toBe("right");
    expect(build("day-3/build-encik-nak-minum-apa", ["minum", "apa", "encik"])).toBe("right");
    expect(build("day-1/build-saya-nak-kopi-o", ["saya", "nak", "dua", "kopi-o"])).toBe("wrong");
    expect(build("day-1/build-saya-nak-kopi-o", ["kopi-o", "saya", "nak", "satu"])).toBe("wrong");
    expect(build("day-5/build-nasi-lemak-makan-sini", ["saya", "nak", "nasi-lemak", "satu", "bungkus"])).toBe("wrong");
    // Another place, another question, a title left out where the item teaches it: wrong.
    expect(build("day-7/build-saya-turun-di-mana", ["saya", "naik", "di", "mana"])).toBe("wrong");
    expect(build("day-2/build-kopi-c-panas-dua", ["dua", "kopi-c", "ais"])).toBe("wrong");
    expect(build("day-4/build-kira-berapa-semua", ["kira", "berapa", "semua"])).toBe("wrong");
    expect(build("day-8/build-ada-rambutan-tak", ["tak", "ada", "rambutan"])).toBe("wrong");
  });

  it("takes in review's recall every form a card teaches, and another taught word stays wrong", () => {
    const phrases = coursePhrases(course);
    const recall = (id: string, text: string) => {
      const phrase = phrases.find((each) => each.id === id);
      if (!phrase) throw new Error(`no card ${id}`);
      return grade(reviewItem(phrase, "recall", phrases), { text }, { taughtWords: words }).grade;
    };
    expect(recall("lagi-satu", "Satu lagi")).toBe("right");
    expect(recall("sekejap", "Kejap")).toBe("right");
    expect(recall("berapa-harga", "Berapa harganya?")).toBe("right");
    expect(recall("bungkus", "Tapau")).toBe("right");
    expect(recall("takde", "Tak ada")).toBe("right");
    expect(recall("tak-ada", "Takde")).toBe("right");
    expect(recall("itu-saja", "Itu je")).toBe("right");
    expect(recall("lagi-satu", "Lagi dua")).toBe("wrong");
    expect(recall("takde", "Tak apa")).toBe("wrong");
  });

  it("never offers a synonym card's meaning as a wrong choice: Ais and Peng, Bungkus and Tapau, Tak apalah and Tak payah", () => {
    const phrases = coursePhrases(course);
    const pairs = [
      ["ais", "peng"],
      ["bungkus", "tapau"],
      ["tak-apalah", "tak-payah"],
      ["takde", "tak-ada"],
    ] as const;
    for (const [one, other] of pairs) {
      for (const [id, synonym] of [
        [one, other],
        [other, one],
      ] as const) {
        const phrase = phrases.find((each) => each.id === id)!;
        const gloss = phrases.find((each) => each.id === synonym)!.english;
        for (const skill of ["recognise", "listen"] as const) {
          const item = reviewItem(phrase, skill, phrases);
          if (!("choices" in item)) throw new Error(`${id} ${skill} has no choices`);
          expect(
            item.choices.map((choice) => choice.text),
            `${id} ${skill}`,
          ).not.toContain(gloss);
        }
      }
    }
  });
});
