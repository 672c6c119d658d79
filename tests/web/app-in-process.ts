import { File as NodeFile } from "node:buffer";
import { eq } from "drizzle-orm";
import { beforeEach, vi } from "vitest";
import type { CompletedDays, ProgressMap } from "#course/progress-rules";
import type { Role } from "#course/roles";
import { dayCompletion, taskProgress, tutorFeedback, user as userTable } from "#server/db/schema";
import type { FeedbackRecord } from "#server/modules/feedback/feedback.contract";
import { completeDayAsLearner } from "#tests/complete-day";
import { FIXTURE_COURSE } from "#tests/fixtures/course";
import { cookieJar, createTestApp, newUser, ORIGIN, type TestUser } from "#tests/test-app";
import { eventSourceOver } from "#tests/web/bridged-event-source";
import { AUTH_BASE } from "#web/lib/api";

/** A request as the app received it, for tests that check what the page asked for. */
export interface SeenRequest {
  method: string;
  /** Path and query, as the page wrote it (API_BASE and the route's path). */
  path: string;
  /** What it sent: a JSON body parsed, a form as the page's FormData; undefined without a body. */
  body?: unknown;
  /**
   * The status the app answered with, once it has: a test that checks what the page does not show
   * waits for the answer it would have shown, not for a guess at how long the app takes.
   */
  status?: number;
  /** The JSON the app answered with, once it has (before `status` is set); undefined for other answers. */
  answer?: unknown;
}

export interface SignedInUser extends TestUser {
  id: string;
  role: Role;
}

/**
 * The real app in process, on this test file's own database (tests/setup-db.ts), holding the
 * fixture course (tests/fixtures/course.ts), which the web-db project also serves the page as its
 * course. Before every test the page's `fetch` becomes a bridge into the app that keeps cookies like
 * a browser (and its EventSource a reader of the app's streams over that bridge), and the test starts as a visitor: the real auth client, session and API calls run
 * unmocked over it. Call once, at the top of a test file:
 *
 *     const app = await connectApp();
 *     it("…", async () => {
 *       const learner = await app.signInLearner();
 *       await app.seedProgress(learner.id, { "chapter-1": { "day-1": { "story:read-setting": "completed" } } });
 *       renderApp("/progress");
 *     });
 */
export async function connectApp(
  /** Settings of the app's environment, as createTestApp takes them: `{ RATE_LIMIT: "true" }` for real limits. */
  env: Record<string, string> = {},
) {
  const t = await createTestApp(env, { course: FIXTURE_COURSE });
  let jar = cookieJar();
  let requests: SeenRequest[] = [];
  let holds: Array<{ matches: (request: SeenRequest) => boolean; released: Promise<void> }> = [];

  /** fetch as the browser's, into the app: relative URLs are the app's, cookies are kept. */
  async function bridge(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
    const url = new URL(input instanceof Request ? input.url : String(input), ORIGIN);
    if (url.origin !== ORIGIN) throw new TypeError(`The in-process app only answers ${ORIGIN}, not ${url.origin}.`);
    const method = (init?.method ?? (input instanceof Request ? input.method : "GET")).toUpperCase();
    const headers = new Headers(input instanceof Request ? input.headers : undefined);
    for (const [name, value] of new Headers(init?.headers)) headers.set(name, value);
    // The jar of the test that sent it: an answer arriving after that test must not sign in the next.
    const cookies = jar;
    if (cookies.header) headers.set("cookie", cookies.header);
    // Browsers send Origin on every non-GET request; Better Auth and the app's CSRF check read it.
    if (method !== "GET" && method !== "HEAD" && !headers.has("origin")) headers.set("origin", ORIGIN);
    const sent = init?.body ?? (input instanceof Request && input.body ? await input.arrayBuffer() : undefined);
    // A raw body sent as the page's Blob (a recording) reaches the app as its bytes: the app's Request
    // is Node's, which cannot read a jsdom Blob.
    const body =
      sent instanceof FormData
        ? await multipart(sent, headers)
        : sent instanceof Blob
          ? await sent.arrayBuffer()
          : sent;
    const seen: SeenRequest = { method, path: url.pathname + url.search };
    // Read by name, not compared whole: a test that compares requests as { method, path, status }
    // still sees only those.
    Object.defineProperties(seen, {
      body: { value: readable(sent), enumerable: false },
      answer: { value: undefined, writable: true, enumerable: false },
    });
    requests.push(seen);
    for (const hold of holds) if (hold.matches(seen)) await hold.released;
    const request = () => t.app.request(seen.path, { method, headers, body });
    const response = cookies.store(await (sent instanceof FormData ? withNodeFiles(request) : request()));
    if (response.headers.get("content-type")?.startsWith("application/json")) {
      seen.answer = await response
        .clone()
        .json()
        .catch(() => undefined);
    }
    seen.status = response.status;
    return response;
  }

  // The page's event streams (the tutors' queue) come over the same bridge, with the same cookies.
  const BridgedEventSource = eventSourceOver(bridge);
  beforeEach(() => {
    jar = cookieJar();
    requests = [];
    holds = [];
    vi.stubGlobal("fetch", bridge);
    vi.stubGlobal("EventSource", BridgedEventSource);
  });
  // Already now, for what the test file loads after this call: Better Auth's client keeps the fetch
  // it finds when it loads, so a file that renders a component using it on its own (not through the
  // lazy routes of renderApp) imports that component after connectApp().
  vi.stubGlobal("fetch", bridge);
  vi.stubGlobal("EventSource", BridgedEventSource);

  /** A request as the signed-in user's page would send it, with a JSON body if given; fails the test when refused. */
  async function send(method: string, path: string, json?: unknown): Promise<Response> {
    const response = await bridge(path, {
      method,
      headers: json === undefined ? undefined : { "content-type": "application/json" },
      body: json === undefined ? undefined : JSON.stringify(json),
    });
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
    return response;
  }

  /** Signs an existing account in through the API, as the sign-in form does: its cookie goes into the jar. */
  async function signIn(user: Pick<TestUser, "email" | "password">) {
    await send("POST", `${AUTH_BASE}/sign-in/email`, { email: user.email, password: user.password });
  }

  /**
   * A new account, signed in through the API (sign-up, then sign-in, as the forms do), so the jar
   * holds its session cookie; staff get their role in the database, as an admin would give it.
   */
  async function signInAs(role: Role, overrides: Partial<TestUser> = {}): Promise<SignedInUser> {
    const details = newUser(overrides);
    const signedUp = await send("POST", `${AUTH_BASE}/sign-up/email`, {
      ...details,
      name: `${details.firstName} ${details.lastName}`,
    });
    const { user } = (await signedUp.json()) as { user: { id: string } };
    if (role !== "Student") await t.db.update(userTable).set({ role }).where(eq(userTable.id, user.id));
    await signIn(details);
    return { ...details, id: user.id, role };
  }

  /** Another account the signed-in user is not: a learner or a tutor to refer to, never signed in here. */
  async function createUser(role: Role, overrides: Partial<TestUser> = {}): Promise<SignedInUser> {
    const details = await t.signUp(newUser(overrides));
    const [row] = await t.db
      .update(userTable)
      .set({ role })
      .where(eq(userTable.email, details.email))
      .returning({ id: userTable.id });
    return { ...details, id: row!.id, role };
  }

  return {
    /** The app and its database, for checks the page cannot show. */
    t,
    /** The page's `fetch` in this test: the bridge into the app. */
    fetch: bridge,
    /**
     * Every request that crossed the bridge in this test, in order, each with its status once
     * answered: the page's, and those of the helpers here that go through the API (sign-in, sign-out,
     * completeDay). Filter by method and path.
     */
    get requests(): readonly SeenRequest[] {
      return requests;
    },
    send,
    /** GET `path` as the signed-in user's page would, and its JSON. */
    read: async <T>(path: string): Promise<T> => (await (await send("GET", path)).json()) as T,
    signIn,
    signInAs,
    signInLearner: (overrides: Partial<TestUser> = {}) => signInAs("Student", overrides),
    createUser,
    /** Signs out through the API: the session ends on the server and its cookie leaves the jar. */
    async signOut() {
      await send("POST", `${AUTH_BASE}/sign-out`, {});
    },
    /**
     * Completes a day as the signed-in learner does, through the API (tests/complete-day.ts): its
     * practice sets answered right and its spoken tasks spoken (lines said aloud, role-plays sent),
     * since they refuse a status write, every other task saved completed; the server records the
     * day's completion itself. Throws if the app refused a step.
     */
    async completeDay(chapterId: string, dayId: string) {
      const api = {
        course: t.course,
        request: (path: string, { method, json }: { method?: string; json?: unknown } = {}) =>
          bridge(path, { method, headers: { "content-type": "application/json" }, body: JSON.stringify(json) }),
      };
      const statuses = await completeDayAsLearner(api, "", chapterId, dayId);
      const refused = Object.entries(statuses).filter(([, outcome]) => outcome !== "done");
      if (refused.length > 0) {
        throw new Error(
          `The app refused to complete ${chapterId}/${dayId}: ${JSON.stringify(Object.fromEntries(refused))}`,
        );
      }
    },
    /**
     * Holds back the requests that match until `release` is called: the page waits as on a slow
     * network. Lasts for the test.
     */
    holdRequests(matches: (request: SeenRequest) => boolean) {
      let release = () => {};
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      holds.push({ matches, released });
      return release;
    },
    /**
     * Stores a user's progress as the server would hold it, in one go: each task's status, and the
     * days completed once (table day_completion, decision 030), which a test names explicitly.
     */
    async seedProgress(userId: string, progress: ProgressMap, completedDays: CompletedDays = []) {
      const rows = Object.entries(progress).flatMap(([chapterId, days]) =>
        Object.entries(days).flatMap(([sectionId, tasks]) =>
          Object.entries(tasks).map(([taskId, status]) => ({ userId, chapterId, sectionId, taskId, status })),
        ),
      );
      if (rows.length > 0) await t.db.insert(taskProgress).values(rows);
      if (completedDays.length > 0) {
        await t.db.insert(dayCompletion).values(completedDays.map((day) => ({ userId, ...day })));
      }
    },
    /** A user's progress and completed days as the server reads them. */
    progressOf: (userId: string) => t.modules.progress.service.read(userId),
    /**
     * Stores feedback from `tutorId` (null: a tutor whose account is gone) for `studentId`, corrected
     * at `correctedAt` and written in the session `bookingId` when given; answers its id.
     */
    async seedFeedback(
      studentId: string,
      tutorId: string | null,
      {
        createdAt,
        correctedAt,
        ...feedback
      }: Pick<FeedbackRecord, "chapterId" | "dayId" | "feedback"> & {
        createdAt: string;
        correctedAt?: string;
        bookingId?: string;
      },
    ): Promise<string> {
      const [row] = await t.db
        .insert(tutorFeedback)
        .values({
          studentId,
          tutorId,
          ...feedback,
          createdAt: new Date(createdAt),
          correctedAt: correctedAt ? new Date(correctedAt) : null,
        })
        .returning({ id: tutorFeedback.id });
      return row!.id;
    },
  };
}

export type AppInProcess = Awaited<ReturnType<typeof connectApp>>;

/** A body as a test reads it: JSON parsed, anything else as sent. */
function readable(body: BodyInit | null | undefined): unknown {
  if (typeof body !== "string") return body ?? undefined;
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
}

/**
 * Runs the app with Node's File as the global one. The app runs in the page's realm, where `File`
 * is jsdom's: the files of a form as Node parses it would fail the server's `instanceof File`,
 * which in production holds. Only while a form is on its way: the page's own files stay jsdom's.
 */
async function withNodeFiles<T>(run: () => T | Promise<T>): Promise<T> {
  const pageFile = globalThis.File;
  globalThis.File = NodeFile as typeof globalThis.File;
  try {
    return await run();
  } finally {
    globalThis.File = pageFile;
  }
}

/**
 * A form written as the browser sends it, multipart with a boundary in the content type. jsdom's
 * FormData and File are not Node's: handed to the app's Request as they are, a form would arrive as
 * the text "[object FormData]" and a file without its bytes.
 */
async function multipart(form: FormData, headers: Headers): Promise<Uint8Array<ArrayBuffer>> {
  const boundary = `----jalan-bridge-${crypto.randomUUID()}`;
  const parts: Buffer[] = [];
  for (const [name, value] of form) {
    const head =
      typeof value === "string"
        ? `Content-Disposition: form-data; name="${name}"`
        : `Content-Disposition: form-data; name="${name}"; filename="${value.name}"\r\nContent-Type: ${value.type || "application/octet-stream"}`;
    const content = typeof value === "string" ? Buffer.from(value) : Buffer.from(await value.arrayBuffer());
    parts.push(Buffer.from(`--${boundary}\r\n${head}\r\n\r\n`), content, Buffer.from("\r\n"));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  headers.set("content-type", `multipart/form-data; boundary=${boundary}`);
  return new Uint8Array(Buffer.concat(parts));
}
