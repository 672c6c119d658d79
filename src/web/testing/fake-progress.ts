import type { ProgressMap } from "#course/progress-rules";
import { json } from "./fake-api";

/**
 * An in-memory progress API for component tests, to pass as stubApi's handler: GET /api/progress
 * answers the map, PUT /api/progress/:chapter/:day/:task records the status (completed stays
 * completed, as on the server). `failWrites` makes every PUT answer 500. `store.progress` shows what
 * was saved; `store.writes` lists each PUT.
 */
export function fakeProgressApi(initial: ProgressMap = {}, { failWrites = false } = {}) {
  const store = {
    progress: structuredClone(initial),
    writes: [] as { chapterId: string; dayId: string; taskId: string; status: string }[],
    handler: ({ method, path, body }: { method: string; path: string; body: unknown }) => {
      if (method === "GET" && path === "/api/progress") return json(200, { progress: store.progress });
      const match = /^\/api\/progress\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(path);
      if (method !== "PUT" || !match) return undefined;
      const [chapterId, dayId, taskId] = match.slice(1).map(decodeURIComponent) as [string, string, string];
      const status = (body as { status: "in-progress" | "completed" }).status;
      store.writes.push({ chapterId, dayId, taskId, status });
      if (failWrites) return json(500, { error: { code: "INTERNAL", message: "Something went wrong." } });
      const chapter = store.progress[chapterId] ?? {};
      const day = chapter[dayId] ?? {};
      chapter[dayId] = day;
      store.progress[chapterId] = chapter;
      if (day[taskId] !== "completed") day[taskId] = status;
      return json(200, { progress: store.progress });
    },
  };
  return store;
}
