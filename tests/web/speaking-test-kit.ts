import { readFileSync } from "node:fs";
import { onTestFinished, vi } from "vitest";
import type { AppInProcess } from "./app-in-process";

/** A take Chromium's recorder made: two seconds of Opus in WebM. */
export const TAKE_WEBM = readFileSync("tests/fixtures/takes/chromium-2s.webm");

/** A take of a line, as the signed-in learner's recorder sends it: the take as the server answers it. */
export async function uploadTake(app: AppInProcess, chapterId: string, dayId: string, lineId: string) {
  const form = new FormData();
  form.set("chapterId", chapterId);
  form.set("dayId", dayId);
  form.set("lineId", lineId);
  form.set("take", new File([new Uint8Array(TAKE_WEBM)], "take.webm", { type: "audio/webm" }));
  const uploaded = await app.fetch("/api/speaking/takes", { method: "POST", body: form });
  if (uploaded.status !== 201) throw new Error(`the take was refused: ${uploaded.status} ${await uploaded.text()}`);
  return ((await uploaded.json()) as { take: { id: string; audio: string } }).take;
}

/**
 * As the signed-in learner: a take of day 1's "Apa khabar?", then the greetings role-play done alone
 * and sent. Answers the take's id and audio path, and the submission waiting for a tutor.
 */
export async function sendGreetingsAlone(app: AppInProcess) {
  const form = new FormData();
  form.set("chapterId", "chapter-1");
  form.set("dayId", "day-1");
  form.set("lineId", "phrase-apa-khabar");
  form.set("take", new File([new Uint8Array(TAKE_WEBM)], "take.webm", { type: "audio/webm" }));
  const uploaded = await app.fetch("/api/speaking/takes", { method: "POST", body: form });
  if (uploaded.status !== 201) throw new Error(`the take was refused: ${uploaded.status} ${await uploaded.text()}`);
  const { take } = (await uploaded.json()) as { take: { id: string; audio: string } };
  const sent = await (
    await app.send("POST", "/api/speaking/days/chapter-1/day-1/role-plays/live-session:greeting-practice")
  ).json();
  return { take, submissionId: (sent as { submission: { id: string } }).submission.id };
}

/**
 * A browser that can record but whose microphone this site may not use, as the Permissions API
 * tells before any tap; `allow()` changes it in the site settings.
 */
export function microphoneRefused() {
  vi.stubGlobal(
    "MediaRecorder",
    Object.assign(function MediaRecorder() {}, { isTypeSupported: () => true }),
  );
  const permission = { state: "denied" as PermissionState, onchange: null as null | (() => void) };
  const define = (name: string, value: unknown) =>
    Object.defineProperty(navigator, name, { configurable: true, value });
  define("mediaDevices", { getUserMedia: () => Promise.reject(new DOMException("refused", "NotAllowedError")) });
  define("permissions", { query: async () => permission });
  onTestFinished(() => {
    Reflect.deleteProperty(navigator, "mediaDevices");
    Reflect.deleteProperty(navigator, "permissions");
  });
  return {
    allow() {
      permission.state = "granted";
      permission.onchange?.();
    },
  };
}

/**
 * A microphone that `getUserMedia` answers for, set on the page's own `navigator` for this test
 * (not a stand-in object, whose getters such as `onLine` would throw).
 */
export function microphoneAnswering(getUserMedia: () => Promise<unknown>) {
  Object.defineProperty(navigator, "mediaDevices", { configurable: true, value: { getUserMedia } });
  onTestFinished(() => {
    Reflect.deleteProperty(navigator, "mediaDevices");
  });
}
