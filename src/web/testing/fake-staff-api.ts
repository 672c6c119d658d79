import { displayName } from "#course/account-rules";
import type { Feedback } from "#course/feedback";
import type { ProgressMap } from "#course/progress-rules";
import { TASK_STATUSES, type TaskStatus } from "#course/progress-status";
import { isRole } from "#course/roles";
import { OUTLINE } from "#web/features/course/course-data";
import type { UserSummary } from "#web/features/staff/api/staff";
import { json } from "./fake-api";

/** The staff routes the fake answers, named for `failures`. */
export type StaffRoute =
  | "listUsers"
  | "changeRole"
  | "getProgress"
  | "setTaskStatus"
  | "resetProgress"
  | "submitFeedback"
  | "listFeedback";

export interface FakeFailure {
  status: number;
  message: string;
  code?: string;
}

export interface StoredFeedback extends Feedback {
  studentId: string;
  tutorId: string;
}

export function makeUserSummary(overrides: Partial<UserSummary> = {}): UserSummary {
  return {
    id: "student-1",
    firstName: "Aisyah",
    lastName: "Rahman",
    nickname: null,
    email: "aisyah@example.com",
    role: "Student",
    ...overrides,
  };
}

/** Accounts the fake starts with unless told otherwise: two learners, a tutor and an admin. */
export const FAKE_USERS: readonly UserSummary[] = [
  makeUserSummary(),
  makeUserSummary({
    id: "student-2",
    firstName: "Ben",
    lastName: "Carter",
    nickname: "Benny",
    email: "ben@example.com",
  }),
  makeUserSummary({ id: "tutor-1", firstName: "Farid", lastName: "Ismail", email: "farid@example.com", role: "Tutor" }),
  makeUserSummary({ id: "admin-1", firstName: "Mei", lastName: "Lin", email: "mei@example.com", role: "Admin" }),
];

type Request = { method: string; path: string; body: unknown };

const error = (status: number, code: string, message: string) => json(status, { error: { code, message } });

/**
 * An in-memory server for the staff routes, to pass as stubApi's handler (fake-api.ts), the way the
 * real API answers them: GET /api/users (search over names and email, page, perPage), PATCH
 * /api/users/:id/role (409 LAST_ADMIN for the last admin), GET/DELETE /api/users/:id/progress, PUT
 * /api/users/:id/progress/:chapter/:day/:task (upserts any status, day locking bypassed; unknown tasks 404),
 * POST /api/feedback (empty → 400 "Feedback cannot be empty") and GET /api/feedback (the viewer's
 * received feedback, newest first).
 *
 * `viewerId` is the signed-in user (stubApi's profile id): the author of feedback they submit and the
 * learner GET /api/feedback answers for. `failures` makes a route answer an error (settable at any
 * time, e.g. `store.failures.setTaskStatus = { status: 500, message: "Database unavailable." }`).
 * `store.requests` lists every staff request answered, in order.
 */
export function fakeStaffApi({
  users = FAKE_USERS,
  progress = {},
  feedback = [],
  viewerId = "user-1",
  failures = {},
}: {
  users?: readonly UserSummary[];
  /** Stored progress by user id. */
  progress?: Record<string, ProgressMap>;
  feedback?: readonly StoredFeedback[];
  viewerId?: string;
  failures?: Partial<Record<StaffRoute, FakeFailure>>;
} = {}) {
  const store = {
    users: users.map((user) => ({ ...user })),
    progress: structuredClone(progress),
    feedback: feedback.map((item) => ({ ...item })),
    failures: { ...failures },
    requests: [] as Request[],
    /** A user's stored progress (empty when none). */
    progressOf: (userId: string): ProgressMap => store.progress[userId] ?? {},
    handler: (request: Request): Response | undefined => {
      const answer = route(request);
      if (answer) store.requests.push(request);
      return answer;
    },
  };

  const failure = (name: StaffRoute) => {
    const failing = store.failures[name];
    return failing && error(failing.status, failing.code ?? "ERROR", failing.message);
  };
  const findUser = (id: string) => store.users.find((user) => user.id === id);
  const noUser = () => error(404, "NOT_FOUND", "No such user.");

  function route({ method, path, body }: Request): Response | undefined {
    const url = new URL(path, "http://jalan.test");
    const segments = url.pathname.split("/").filter(Boolean).map(decodeURIComponent);
    if (segments[0] !== "api") return undefined;

    if (segments[1] === "users" && segments.length === 2 && method === "GET") {
      return failure("listUsers") ?? listUsers(url.searchParams);
    }
    if (segments[1] === "users" && segments.length >= 4) {
      const userId = segments[2]!;
      const rest = segments.slice(3);
      if (rest[0] === "role" && rest.length === 1 && method === "PATCH") {
        return failure("changeRole") ?? changeRole(userId, body);
      }
      if (rest[0] === "progress" && rest.length === 1 && method === "GET") {
        return (
          failure("getProgress") ?? (findUser(userId) ? json(200, { progress: store.progressOf(userId) }) : noUser())
        );
      }
      if (rest[0] === "progress" && rest.length === 1 && method === "DELETE") {
        return failure("resetProgress") ?? resetProgress(userId);
      }
      if (rest[0] === "progress" && rest.length === 4 && method === "PUT") {
        const [, chapterId, dayId, taskId] = rest as [string, string, string, string];
        return failure("setTaskStatus") ?? setTaskStatus(userId, chapterId, dayId, taskId, body);
      }
      return undefined;
    }
    if (segments[1] === "feedback" && segments.length === 2) {
      if (method === "POST") return failure("submitFeedback") ?? submitFeedback(body);
      if (method === "GET") {
        if (failure("listFeedback")) return failure("listFeedback");
        const mine = store.feedback
          .filter((item) => item.studentId === viewerId)
          .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
          .map(({ studentId: _student, tutorId: _tutor, ...item }) => item);
        return json(200, { feedback: mine });
      }
    }
    return undefined;
  }

  function listUsers(params: URLSearchParams) {
    const search = (params.get("search") ?? "").trim().toLowerCase();
    const page = Math.max(1, Number(params.get("page") ?? 1) || 1);
    const perPage = Math.max(1, Number(params.get("perPage") ?? 20) || 20);
    const matching = store.users.filter((user) =>
      [user.firstName, user.lastName, user.nickname ?? "", user.email, `${user.firstName} ${user.lastName}`].some(
        (field) => field.toLowerCase().includes(search),
      ),
    );
    const start = (page - 1) * perPage;
    return json(200, { users: matching.slice(start, start + perPage), total: matching.length, page, perPage });
  }

  function changeRole(userId: string, body: unknown) {
    const user = findUser(userId);
    if (!user) return noUser();
    const role = (body as { role?: unknown } | null)?.role;
    if (!isRole(role)) return error(400, "VALIDATION", "Choose Student, Tutor or Admin.");
    const admins = store.users.filter((candidate) => candidate.role === "Admin");
    if (user.role === "Admin" && role !== "Admin" && admins.length === 1) {
      return error(409, "LAST_ADMIN", "Jalan needs at least one admin. Make someone else an admin first.");
    }
    user.role = role;
    return json(200, { user });
  }

  function resetProgress(userId: string) {
    if (!findUser(userId)) return noUser();
    const stored = store.progressOf(userId);
    const deleted = Object.values(stored).reduce(
      (sum, days) => sum + Object.values(days).reduce((daySum, tasks) => daySum + Object.keys(tasks).length, 0),
      0,
    );
    delete store.progress[userId];
    return json(200, { deleted });
  }

  function setTaskStatus(userId: string, chapterId: string, dayId: string, taskId: string, body: unknown) {
    if (!findUser(userId)) return noUser();
    const day = OUTLINE.find((candidate) => candidate.chapterId === chapterId && candidate.dayId === dayId);
    if (!day?.taskIds.includes(taskId)) return error(404, "NOT_FOUND", "No such task in the course.");
    const status = (body as { status?: unknown } | null)?.status;
    if (!(TASK_STATUSES as readonly unknown[]).includes(status)) {
      return error(400, "VALIDATION", "Status must be not-started, in-progress or completed.");
    }
    const progress = store.progressOf(userId);
    const chapter = progress[chapterId] ?? {};
    const tasks = chapter[dayId] ?? {};
    tasks[taskId] = status as TaskStatus;
    chapter[dayId] = tasks;
    progress[chapterId] = chapter;
    store.progress[userId] = progress;
    return json(200, { progress });
  }

  function submitFeedback(body: unknown) {
    const input = (body ?? {}) as Partial<Record<"studentId" | "chapterId" | "dayId" | "feedback", unknown>>;
    if (typeof input.feedback !== "string" || !input.feedback.trim()) {
      return error(400, "VALIDATION", "Feedback cannot be empty");
    }
    if (typeof input.studentId !== "string" || !findUser(input.studentId)) return noUser();
    const { chapterId, dayId } = input;
    if (typeof chapterId !== "string" || typeof dayId !== "string") {
      return error(400, "VALIDATION", "Choose the day the feedback is about.");
    }
    if (!OUTLINE.some((day) => day.chapterId === chapterId && day.dayId === dayId)) {
      return error(404, "NOT_FOUND", "No such day in the course.");
    }
    const tutor = findUser(viewerId);
    const item: StoredFeedback = {
      id: `feedback-${store.feedback.length + 1}`,
      studentId: input.studentId,
      tutorId: viewerId,
      chapterId,
      dayId,
      feedback: input.feedback.trim(),
      createdAt: new Date(Date.now() + store.feedback.length).toISOString(),
      tutorName: tutor ? displayName(tutor) : null,
    };
    store.feedback.push(item);
    const { studentId: _student, tutorId: _tutor, ...answer } = item;
    return json(201, { feedback: answer });
  }

  return store;
}
