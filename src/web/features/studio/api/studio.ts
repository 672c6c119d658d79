import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type {
  StudioDay,
  StudioDays,
  StudioLine,
  StudioReviewList,
  StudioTake,
  TakeReview,
} from "#server/modules/studio/studio.contract";
import type { Trim } from "#web/features/studio/auto-trim";
import { apiClient, call, describeError, pathParams, sendBody } from "#web/lib/api";
import {
  myVoiceQueryKey,
  studioDayQueryKey,
  studioDaysQueryKey,
  studioQueryKey,
  studioReviewQueryKey,
  studioTakeQueryKey,
} from "#web/lib/query-keys";
import { toast } from "#web/lib/toast";

/** An answer as it arrives over JSON: its dates are ISO strings. */
type Wire<T> = T extends Date
  ? string
  : T extends (infer Item)[]
    ? Wire<Item>[]
    : T extends object
      ? { [K in keyof T]: Wire<T[K]> }
      : T;

export type DayAnswer = Wire<StudioDay>;
export type LineAnswer = Wire<StudioLine>;
export type TakeAnswer = Wire<StudioTake>;
export type ReviewTakeAnswer = Wire<StudioReviewList["takes"][number]>;

/** A line of a day, by its ids: where a take is recorded and a clip unpublished. */
export interface LineAddress {
  chapterId: string;
  dayId: string;
  lineId: string;
}

/**
 * The signed-in member of staff's grant as a voice (null: none) and whether they may record: the
 * page's first question (GET /api/voices/me, the Settings page's read, under the same key).
 */
export function useMyVoice() {
  return useQuery({ queryKey: myVoiceQueryKey, queryFn: () => call(apiClient.voices.me.$get()) });
}

/** Every day of the course with how many of its lines have a native voice. */
export function useStudioDays(enabled: boolean) {
  return useQuery({
    queryKey: studioDaysQueryKey,
    queryFn: async (): Promise<Wire<StudioDays>> => call(apiClient.studio.days.$get()),
    enabled,
  });
}

/** A day's spoken lines, each with its clip, state and latest take. */
export function useStudioDay(day: { chapterId: string; dayId: string } | null) {
  return useQuery({
    queryKey: studioDayQueryKey(day?.chapterId ?? "", day?.dayId ?? ""),
    queryFn: async (): Promise<DayAnswer> =>
      call(apiClient.studio.days[":chapterId"][":dayId"].$get({ param: pathParams(day!) })),
    enabled: day !== null,
  });
}

/** How often, and how long at most, a take being processed is read again. */
const TAKE_POLL_MS = 1000;
export const TAKE_POLL_LIMIT_MS = 60_000;

/** A take, read every TAKE_POLL_MS while it is processed (for TAKE_POLL_LIMIT_MS at most). */
export const takeQuery = (takeId: string, savedAt: number) =>
  queryOptions({
    queryKey: studioTakeQueryKey(takeId),
    queryFn: async (): Promise<TakeAnswer> =>
      (await call(apiClient.studio.takes[":takeId"].$get({ param: pathParams({ takeId }) }))).take,
    refetchInterval: (query) =>
      query.state.data?.state === "processing" && Date.now() - savedAt < TAKE_POLL_LIMIT_MS ? TAKE_POLL_MS : false,
  });

/**
 * Sends a recorded master (the WAV as it is) with the part kept on the waveform; the server answers
 * the take in `processing`. The day's lines are read again: the line is now recorded.
 */
export function useSaveTake() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ line, master, trim }: { line: LineAddress; master: Blob; trim: Trim | null }) => {
      // Without a trim (the waveform could not be drawn) the server keeps the whole master.
      const path = apiClient.studio.days[":chapterId"][":dayId"].lines[":lineId"].takes.$path({
        param: pathParams(line),
        query: trim ? { trimStartMs: String(trim.startMs), trimEndMs: String(trim.endMs) } : {},
      });
      const answer = await sendBody<{ take: TakeAnswer }>(path, {
        method: "POST",
        headers: { "content-type": "audio/wav" },
        body: master,
      });
      return answer.take;
    },
    onSuccess: (take) => {
      queryClient.setQueryData(studioTakeQueryKey(take.id), take);
      void queryClient.invalidateQueries({ queryKey: studioDaysQueryKey });
    },
  });
}

/** The takes waiting for review, oldest first. */
export function useReviewList(enabled: boolean) {
  return useQuery({
    queryKey: studioReviewQueryKey,
    queryFn: async (): Promise<ReviewTakeAnswer[]> => (await call(apiClient.studio.review.$get())).takes,
    enabled,
  });
}

/**
 * Approves (publishes) or rejects a take, and says so; the review list, the lines and their coverage
 * are read again. Said here, not by the item: the list read again drops the item reviewed, and with
 * it any callback of its own.
 */
export function useReviewTake() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ takeId, review }: { takeId: string; review: TakeReview }): Promise<TakeAnswer> =>
      (await call(apiClient.studio.takes[":takeId"].review.$post({ param: pathParams({ takeId }), json: review })))
        .take,
    onSuccess: (take, { review }) => {
      const name = take.voice.creditedName;
      toast(
        review.decision === "approve"
          ? { title: "Take approved", description: `Published: learners now hear ${name} on this line.` }
          : { title: "Take sent back", description: `Sent back to ${name} with your reason.` },
      );
    },
    onError: (error) =>
      toast({
        title: "Could not review the take",
        description: describeError(error, "Please try again."),
        variant: "destructive",
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: studioQueryKey }),
  });
}

/** Takes a line's published clip down, and says so: espeak is heard again. */
export function useUnpublish() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (line: LineAddress): Promise<TakeAnswer> =>
      (
        await call(
          apiClient.studio.days[":chapterId"][":dayId"].lines[":lineId"].clip.$delete({ param: pathParams(line) }),
        )
      ).take,
    onSuccess: () =>
      toast({ title: "Unpublished", description: "Learners hear the synthetic voice on this line again." }),
    onError: (error) =>
      toast({
        title: "Could not unpublish",
        description: describeError(error, "Please try again."),
        variant: "destructive",
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: studioQueryKey }),
  });
}
