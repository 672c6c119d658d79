import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import "#web/lib/zod-without-eval";
import { struggleReportSchema } from "#server/modules/review/review.contract";
import { apiClient, call, pathParams } from "#web/lib/api";
import { struggleReportQueryKey } from "#web/lib/query-keys";

/** A learner's weakest phrases, due count, streak and last activity, as staff see them. */
const struggleReportQuery = (userId: string) =>
  queryOptions({
    queryKey: struggleReportQueryKey(userId),
    queryFn: async () =>
      struggleReportSchema.parse(await call(apiClient.users[":userId"].review.$get({ param: pathParams({ userId }) }))),
  });

export function useStruggleReport(userId: string | undefined) {
  return useQuery({ ...struggleReportQuery(userId ?? ""), enabled: userId !== undefined && userId !== "" });
}

/** Pins a phrase into the learner's review (staff), then reads their struggles again. */
export function usePinPhrase(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (phrase: { chapterId: string; dayId: string; phraseId: string }) =>
      call(apiClient.users[":userId"].review.pins.$post({ param: pathParams({ userId }), json: phrase })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: struggleReportQueryKey(userId) }),
  });
}
