import { TAKE_MAX_BYTES } from "#course/speaking";
import { readTakeAudio, type TakeAudio } from "./take-audio";

/**
 * A take's upload as its worker reads it (take-reader.worker.mjs): the multipart body parsed, and the
 * take's bytes read, off the event loop. Parsing a megabyte of multipart and copying the file out of
 * it costs the event loop more than anything else an upload does (docs/decisions/060-bounded-take-parsing.md).
 * The route checks what it answers (take-upload.ts).
 */
export type TakeForm =
  | { unreadable: true }
  | {
      /** The text fields as sent: a field that is missing or is a file is null. */
      fields: { chapterId: string | null; dayId: string | null; lineId: string | null };
      /**
       * The part "take" when it is a file: its size, what its bytes are (when at most 1 MB), and the
       * bytes themselves only when they are a take to store (none when over 1 MB or refused).
       */
      take: { name: string; type: string; size: number; bytes: Uint8Array; audio: TakeAudio | null } | null;
    };

/** The last value of a field, as Hono's parseBody keeps it. */
const lastOf = (form: FormData, name: string) => form.getAll(name).at(-1);

export async function readTakeForm(body: Uint8Array<ArrayBuffer>, contentType: string): Promise<TakeForm> {
  let form: FormData;
  try {
    form = await new Response(body, { headers: { "content-type": contentType } }).formData();
  } catch {
    return { unreadable: true };
  }
  const text = (name: string) => {
    const value = lastOf(form, name);
    return typeof value === "string" ? value : null;
  };
  const file = lastOf(form, "take");
  let take: Extract<TakeForm, { fields: unknown }>["take"] = null;
  if (file instanceof File) {
    const bytes = new Uint8Array(await file.arrayBuffer());
    const audio = bytes.length <= TAKE_MAX_BYTES ? readTakeAudio(Buffer.from(bytes.buffer, 0, bytes.length)) : null;
    // A take its reading refused is never stored: its bytes stay here rather than travel back to the
    // event loop, a megabyte each for a hostile upload (docs/decisions/060-bounded-take-parsing.md).
    const kept = audio === null || "refused" in audio ? new Uint8Array(0) : bytes;
    take = { name: file.name, type: file.type, size: file.size, bytes: kept, audio };
  }
  return { fields: { chapterId: text("chapterId"), dayId: text("dayId"), lineId: text("lineId") }, take };
}
