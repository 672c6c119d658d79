import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type { SelfRating } from "#course/speaking";
import type { Completed } from "#server/modules/speaking/speaking.contract";
import { apiClient, call, pathParams } from "#web/lib/api";
import { sendNowOrKeep } from "#web/lib/offline/send-now-or-keep";
import { progressQueryKey, speakingDayQueryKey, tutorListeningQueryKey } from "#web/lib/query-keys";

export interface DayRef {
  chapterId: string;
  dayId: string;
}

const readDay = ({ chapterId, dayId }: DayRef) =>
  call(apiClient.speaking.days[":chapterId"][":dayId"].$get({ param: pathParams({ chapterId, dayId }) }));

/** A day's lines as the API sends them (dates as ISO strings). */
export type SpeakingDay = Awaited<ReturnType<typeof readDay>>;
export type LinePractice = SpeakingDay["lines"][number];
export type Take = NonNullable<LinePractice["take"]>;

/** The signed-in learner's lines of a day: marks, latest takes, the day's mode, what they sent. */
export const speakingDayQuery = (day: DayRef) =>
  queryOptions({ queryKey: speakingDayQueryKey(day.chapterId, day.dayId), queryFn: () => readDay(day) });

/** Puts a line as the server answered it into the cached day, and reads progress again when a task completed. */
function useLineAnswer(day: DayRef) {
  const queryClient = useQueryClient();
  return (line: LinePractice, completed: Completed) => {
    queryClient.setQueryData(speakingDayQueryKey(day.chapterId, day.dayId), (cached: SpeakingDay | undefined) =>
      cached ? { ...cached, lines: cached.lines.map((each) => (each.lineId === line.lineId ? line : each)) } : cached,
    );
    if (completed.completedTasks.length > 0) void queryClient.invalidateQueries({ queryKey: progressQueryKey });
  };
}

/** Marks a line listened to or said aloud. */
export function useMarkLine(day: DayRef) {
  const answered = useLineAnswer(day);
  return useMutation({
    mutationFn: ({ lineId, ...marks }: { lineId: string; listened?: true; saidAloud?: true }) => {
      const param = pathParams({ ...day, lineId });
      const path = `/speaking/days/${param.chapterId}/${param.dayId}/lines/${param.lineId}`;
      const submission = {
        kind: "mark" as const,
        label: `Your practice of a line in ${day.dayId}`,
        request: { method: "PUT" as const, path, body: marks },
      };
      return sendNowOrKeep(submission, () =>
        call(apiClient.speaking.days[":chapterId"][":dayId"].lines[":lineId"].$put({ param, json: marks })),
      );
    },
    onSuccess: (answer) => answered(answer.line, answer),
  });
}

/** Uploads a take of a line; the line then shows it as its latest. */
export function useSaveTake(day: DayRef) {
  const answered = useLineAnswer(day);
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ lineId, take }: { lineId: string; take: File }) =>
      call(apiClient.speaking.takes.$post({ form: { ...day, lineId, take } })),
    onSuccess: (answer, { lineId }) => {
      const cached = queryClient.getQueryData<SpeakingDay>(speakingDayQueryKey(day.chapterId, day.dayId));
      const line = cached?.lines.find((each) => each.lineId === lineId);
      answered(
        { lineId, listened: line?.listened ?? false, saidAloud: line?.saidAloud ?? false, take: answer.take },
        answer,
      );
    },
  });
}

/** The learner's own rating of their latest take of a line. */
export function useRateTake(day: DayRef) {
  const answered = useLineAnswer(day);
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ takeId, rating }: { takeId: string; rating: SelfRating }) =>
      call(
        apiClient.speaking.takes[":takeId"]["self-rating"].$put({ param: pathParams({ takeId }), json: { rating } }),
      ),
    onSuccess: ({ take }) => {
      const cached = queryClient.getQueryData<SpeakingDay>(speakingDayQueryKey(day.chapterId, day.dayId));
      const line = cached?.lines.find((each) => each.lineId === take.lineId);
      if (line) answered({ ...line, take }, { completedTasks: [] });
    },
  });
}

/** Turns the day's "I can't speak now" mode on or off. */
export function useSetQuiet(day: DayRef) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (quiet: boolean) =>
      call(apiClient.speaking.days[":chapterId"][":dayId"].quiet.$put({ param: pathParams(day), json: { quiet } })),
    onSuccess: ({ quiet }) =>
      queryClient.setQueryData(speakingDayQueryKey(day.chapterId, day.dayId), (cached: SpeakingDay | undefined) =>
        cached ? { ...cached, quiet } : cached,
      ),
  });
}

/** Who will listen to what a learner sends: the tutors taking learners, and the first open hour of any. */
export interface Listening {
  tutors: number;
  /** The earliest open slot of any tutor (ISO), or null when none is open in their horizon. */
  nextAt: string | null;
  /** The zone the learner reads times in. */
  timeZone: string;
}

/** Listening, read from the day's open slots (GET /api/bookings/days/:chapterId/:dayId/slots). */
export const listeningQuery = (day: DayRef) =>
  queryOptions({
    queryKey: [...tutorListeningQueryKey, day.chapterId, day.dayId],
    queryFn: async (): Promise<Listening> => {
      const open = await call(
        apiClient.bookings.days[":chapterId"][":dayId"].slots.$get({ param: pathParams(day), query: {} }),
      );
      const starts = open.slots.map((slot) => slot.startsAt).sort();
      return { tutors: open.tutors.length, nextAt: starts[0] ?? null, timeZone: open.timeZone };
    },
  });

/** Submits a role-play done alone: its task completes, and its takes wait for a tutor. */
export function useSubmitRolePlay(day: DayRef) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (taskId: string) =>
      call(
        apiClient.speaking.days[":chapterId"][":dayId"]["role-plays"][":taskId"].$post({
          param: pathParams({ ...day, taskId }),
        }),
      ),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: speakingDayQueryKey(day.chapterId, day.dayId) });
      void queryClient.invalidateQueries({ queryKey: progressQueryKey });
    },
  });
}

/** Sends the latest takes of these lines to a tutor. */
export function useSendLines(day: DayRef) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (lineIds: string[]) =>
      call(apiClient.speaking.days[":chapterId"][":dayId"].sent.$post({ param: pathParams(day), json: { lineIds } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: speakingDayQueryKey(day.chapterId, day.dayId) }),
  });
}
