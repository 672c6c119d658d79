import { Hono } from "hono";
import { requireRole, requireUser, signedIn, withRole } from "#server/auth/session";
import type { AppEnv } from "#server/http/context";
import { limitTakes, type RequestLimiter } from "#server/http/request-limit";
import { jsonBody } from "#server/http/validation";
import {
  type LineMarked,
  lineMarkSchema,
  type NoticeList,
  quietSchema,
  type RolePlaySubmitted,
  reviewInputSchema,
  type SpeakingDay,
  type SpeakingQueue,
  type SubmissionForTutor,
  selfRatingSchema,
  sendLinesSchema,
  type Take,
  type TakeSaved,
} from "./speaking.contract";
import type { QueueChanges } from "./speaking.queue-changes";
import type { SpeakingService } from "./speaking.service";
import type { TutorService } from "./speaking.tutor";
import type { TakeReader } from "./take-reader";
import { audioResponse, takeRangeOf } from "./take-response";
import { takeBodyLimit, takeForm } from "./take-upload";

/**
 * The signed-in learner's voice: the user always comes from the session, never the URL or the form.
 * The tutors' queue's changes come to the queue's staff as an event stream, not JSON (speaking.queue-changes.ts).
 */
export function speakingRoutes(
  speaking: SpeakingService,
  tutor: TutorService,
  limiter: RequestLimiter,
  takeReader: TakeReader,
  queueChanges: QueueChanges,
) {
  return new Hono<AppEnv>()
    .post("/takes", takeBodyLimit, signedIn, limitTakes(limiter), takeForm(takeReader), async (c) => {
      const { bytes, audio, ...line } = c.req.valid("form");
      const body: TakeSaved = await speaking.saveTake(requireUser(c), line, bytes, audio ?? undefined);
      return c.json(body, 201);
    })
    .get("/takes/:takeId", signedIn, async (c) => {
      const range = takeRangeOf(c);
      const { take, file } = await speaking.takeAudio(requireUser(c), c.req.param("takeId"), range);
      return audioResponse(c, take, file, range);
    })
    .put("/takes/:takeId/self-rating", signedIn, jsonBody(selfRatingSchema), async (c) => {
      const take: Take = await speaking.rateOwnTake(requireUser(c), c.req.param("takeId"), c.req.valid("json").rating);
      return c.json({ take });
    })
    .get("/days/:chapterId/:dayId", signedIn, async (c) => {
      const body: SpeakingDay = await speaking.day(requireUser(c), c.req.param());
      return c.json(body);
    })
    .put("/days/:chapterId/:dayId/lines/:lineId", signedIn, jsonBody(lineMarkSchema), async (c) => {
      const body: LineMarked = await speaking.markLine(requireUser(c), c.req.param(), c.req.valid("json"));
      return c.json(body);
    })
    .put("/days/:chapterId/:dayId/quiet", signedIn, jsonBody(quietSchema), async (c) => {
      return c.json(await speaking.setQuiet(requireUser(c), c.req.param(), c.req.valid("json").quiet));
    })
    .post("/days/:chapterId/:dayId/role-plays/:taskId", signedIn, async (c) => {
      const body: RolePlaySubmitted = await speaking.submitRolePlay(requireUser(c), c.req.param());
      return c.json(body, 201);
    })
    .post(
      "/days/:chapterId/:dayId/sent",
      signedIn,
      jsonBody(sendLinesSchema, { messageFromIssues: true }),
      async (c) => {
        const body = await speaking.sendLines(requireUser(c), c.req.param(), c.req.valid("json").lineIds);
        return c.json(body, 201);
      },
    )
    .get("/queue", withRole("tutor:view"), async (c) => {
      const body: SpeakingQueue = await tutor.queue(requireRole(c, "tutor:view"));
      return c.json(body);
    })
    .get("/queue/changes", withRole("tutor:view"), (c) => queueChanges.stream(c))
    .get("/submissions/:submissionId", withRole("tutor:view"), async (c) => {
      const submission: SubmissionForTutor = await tutor.submission(
        requireRole(c, "tutor:view"),
        c.req.param("submissionId"),
      );
      return c.json({ submission });
    })
    .post(
      "/submissions/:submissionId/review",
      withRole("tutor:view"),
      jsonBody(reviewInputSchema, { messageFromIssues: true }),
      async (c) => {
        const submission: SubmissionForTutor = await tutor.review(
          requireRole(c, "tutor:view"),
          c.req.param("submissionId"),
          c.req.valid("json"),
        );
        return c.json({ submission }, 201);
      },
    )
    .get("/notices", signedIn, async (c) => {
      const body: NoticeList = await tutor.notices(requireUser(c).id);
      return c.json(body);
    })
    .post("/notices/read", signedIn, async (c) => {
      const body: NoticeList = await tutor.readNotices(requireUser(c).id);
      return c.json(body);
    });
}
