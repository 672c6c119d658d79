import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { CallRoom, RateInput, SessionRecord } from "#server/modules/calls/calls.contract";
import { apiClient, call, pathParams } from "#web/lib/api";
import { callRoomQueryKey, sessionBriefQueryKey } from "#web/lib/query-keys";

/** What the learner struggles with on the session's day: asked only on the tutor's side. */
export function useSessionBrief(bookingId: string, enabled: boolean) {
  return useQuery({
    queryKey: sessionBriefQueryKey(bookingId),
    queryFn: () => call(apiClient.calls[":bookingId"].brief.$get({ param: pathParams({ bookingId }) })),
    enabled,
    staleTime: 5 * 60_000,
  });
}

/** The room's cached record, replaced by what the server answered. */
function useSetRecord(bookingId: string) {
  const queryClient = useQueryClient();
  return (record: SessionRecord) =>
    queryClient.setQueryData<CallRoom>(callRoomQueryKey(bookingId), (room) => (room ? { ...room, record } : room));
}

/**
 * Rates a role-play phrase (null clears it), shown at once: the cached record changes before the
 * server answers and goes back if it refuses (the caller tells the tutor).
 */
export function useRatePhrase(bookingId: string) {
  const queryClient = useQueryClient();
  const setRecord = useSetRecord(bookingId);
  const key = callRoomQueryKey(bookingId);
  return useMutation({
    mutationFn: (input: RateInput) =>
      call(apiClient.calls[":bookingId"].ratings.$put({ param: pathParams({ bookingId }), json: input })),
    onMutate: async (input) => {
      await queryClient.cancelQueries({ queryKey: key, exact: true });
      const previous = queryClient.getQueryData<CallRoom>(key);
      if (previous) {
        setRecord({
          ...previous.record,
          rolePlays: previous.record.rolePlays.map((card) =>
            card.taskId !== input.taskId
              ? card
              : {
                  ...card,
                  phrases: card.phrases.map((phrase) =>
                    phrase.id === input.lineId ? { ...phrase, rating: input.rating } : phrase,
                  ),
                },
          ),
        });
      }
      return { previous };
    },
    onError: (_error, _input, context) => {
      if (context?.previous) queryClient.setQueryData(key, context.previous);
    },
    onSuccess: setRecord,
  });
}

/** Saves the tutor's notes (the box keeps what they typed whatever the answer). */
export function useSaveNotes(bookingId: string) {
  return useMutation({
    mutationFn: (notes: string) =>
      call(apiClient.calls[":bookingId"].notes.$put({ param: pathParams({ bookingId }), json: { notes } })),
  });
}

/** Ends the session: the record comes back with its end, and the room is read again. */
export function useEndSession(bookingId: string) {
  const setRecord = useSetRecord(bookingId);
  return useMutation({
    mutationFn: () => call(apiClient.calls[":bookingId"].end.$post({ param: pathParams({ bookingId }) })),
    onSuccess: setRecord,
  });
}
