import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { InferResponseType } from "hono/client";
import { apiClient, call, describeError } from "#web/lib/api";
import { calendarFeedQueryKey } from "#web/lib/query-keys";
import { toast } from "#web/lib/toast";

/** A link just made: its https and webcal:// forms, which the server answers this once. */
export type MadeCalendarFeed = InferResponseType<typeof apiClient.calendar.feed.$post, 201>;

/** Whether the signed-in user has a calendar feed, and when its link was made. */
export function useCalendarFeed() {
  return useQuery({ queryKey: calendarFeedQueryKey, queryFn: () => call(apiClient.calendar.feed.$get()) });
}

/** Makes a link, replacing any: the old one stops at once. `again` names it a regeneration in the toasts. */
export function useMakeCalendarFeed() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (_again: boolean) => call(apiClient.calendar.feed.$post()),
    onSuccess: (made, again) => {
      queryClient.setQueryData(calendarFeedQueryKey, { feed: made.feed });
      toast({
        title: again ? "New calendar link made" : "Calendar link made",
        description: again
          ? "The old link has stopped working: subscribe your calendar to the new one."
          : "Copy it into your calendar app now: it is shown only this once.",
      });
    },
    onError: (error, again) =>
      toast({
        title: again ? "Could not make a new link" : "Could not make the link",
        description: describeError(error, "Please try again."),
        variant: "destructive",
      }),
  });
}

/** Turns the feed off: its link stops working. */
export function useTurnOffCalendarFeed() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => call(apiClient.calendar.feed.$delete()),
    onSuccess: (state) => {
      queryClient.setQueryData(calendarFeedQueryKey, state);
      toast({ title: "Calendar feed turned off", description: "Its link no longer works." });
    },
    onError: (error) =>
      toast({
        title: "Could not turn the calendar feed off",
        description: describeError(error, "Please try again."),
        variant: "destructive",
      }),
  });
}
