import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { user } from "#server/db/schema";
import { answerResponseSchema } from "#server/modules/answers/answers.contract";
import { completeDayAsLearner } from "./complete-day";
import { createTestApp } from "./test-app";

// Native answers to the course's own items, sent as a learner sends them: graded by the
// server as a Malaysian would accept them (docs/decisions/065-grading-malaysian-speech.md).
const t = await createTestApp();

async function learner() {
  const session = await t.signedInUser();
  await t.db.update(user).set({ role: "Student" }).where(eq(user.email, session.user.email));
  return session.cookie;
}

async function answer(cookie: string, itemId: string, text: string, dayId = "day-1") {
  const response = await t.request("/api/answers", {
    method: "POST",
    cookie,
    json: {
      clientId: randomUUID(),
      chapterId: "chapter-1",
      dayId,
      taskId: "codebook:practice",
      itemId,
      given: { text },
    },
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return answerResponseSchema.parse(await response.json());
}

describe("POST /api/answers grades what a Malaysian says", () => {
  it("takes a title where a speaker puts it, and keeps a wrong drink and nak for tak wrong", async () => {
    const cookie = await learner();
    expect(await answer(cookie, "reply-nak-minum-apa", "Pak cik, teh tarik satu.")).toMatchObject({
      result: "right",
      typo: false,
    });
    expect(await answer(cookie, "reply-nak-minum-apa", "Teh tarik satu ya, pak cik.")).toMatchObject({
      result: "right",
    });
    expect(await answer(cookie, "reply-nak-minum-apa", "Pak cik, kopi satu.")).toMatchObject({ result: "wrong" });
    // Day 4's breakfast teaches "Saya tak faham": open it as a learner does, day by day.
    for (const dayId of ["day-1", "day-2", "day-3"]) await completeDayAsLearner(t, cookie, "chapter-1", dayId);
    const swapped = await answer(cookie, "reply-tak-faham", "Saya nak faham.", "day-4");
    expect(swapped).toMatchObject({ result: "wrong", typo: false });
    expect(swapped.correct.text).toBe("Saya tak faham.");
    expect(await answer(cookie, "type-khabar-baik-terima-kasih", "Khabar naik, terima kasih.")).toMatchObject({
      result: "wrong",
      slip: null,
    });
    // A slip that makes no word is forgiven, and named.
    expect(await answer(cookie, "type-khabar-baik-terima-kasih", "Khabar baik, terima kasi.")).toMatchObject({
      result: "right",
      typo: true,
      slip: { typed: "kasi", right: "kasih" },
    });
  });
});
