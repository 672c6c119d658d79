import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { BookingView, TutorHoursInput } from "#server/modules/bookings/bookings.contract";
import { apiClient, call, callForResponse, pathParams } from "#web/lib/api";
import {
  bookingQueryKey,
  bookingsQueryKey,
  daySlotsQueryKey,
  moveTimesQueryKey,
  mySessionsQueryKey,
  tutorHoursQueryKey,
  tutorWeekQueryKey,
} from "#web/lib/query-keys";
import { saveFile } from "#web/lib/save-file";
import { toast } from "#web/lib/toast";

/** The signed-in user's sessions, as learner or tutor, with the zone they read times in. */
export function useMySessions(enabled = true) {
  return useQuery({
    queryKey: mySessionsQueryKey,
    queryFn: () => call(apiClient.bookings.mine.$get()),
    enabled,
  });
}

/** The open slots of a day's live session, of one tutor or of every tutor (null: first available). */
export function useDaySlots(chapterId: string, dayId: string, tutorId: string | null, enabled = true) {
  return useQuery({
    queryKey: daySlotsQueryKey(chapterId, dayId, tutorId),
    queryFn: () =>
      call(
        apiClient.bookings.days[":chapterId"][":dayId"].slots.$get({
          param: pathParams({ chapterId, dayId }),
          query: tutorId ? { tutorId } : {},
        }),
      ),
    enabled,
    // Another tutor chosen: the times shown stay until theirs come, and the form keeps its place.
    placeholderData: keepPreviousData,
  });
}

/** The open times a session may move to, for the signed-in side, in the zone they read them in. */
export function useMoveTimes(bookingId: string, enabled = true) {
  return useQuery({
    queryKey: moveTimesQueryKey(bookingId),
    queryFn: () => call(apiClient.bookings[":bookingId"].times.$get({ param: pathParams({ bookingId }) })),
    enabled,
  });
}

/** One session, as the signed-in side sees it. */
export function useBooking(bookingId: string, enabled = true) {
  return useQuery({
    queryKey: bookingQueryKey(bookingId),
    queryFn: () => call(apiClient.bookings[":bookingId"].$get({ param: pathParams({ bookingId }) })),
    enabled,
  });
}

/** After any change to a booking, everything about sessions is read again (slots, lists, the week). */
function useRefreshSessions() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: bookingsQueryKey });
}

/**
 * Books a slot. Told here, not by the caller: once the list is read again the booking form gives
 * way to the session, and a caller's own callbacks would not run.
 */
export function useBook(chapterId: string, dayId: string) {
  const refresh = useRefreshSessions();
  return useMutation({
    mutationFn: (input: { tutorId: string; startsAt: string }) =>
      call(
        apiClient.bookings.days[":chapterId"][":dayId"].$post({ param: pathParams({ chapterId, dayId }), json: input }),
      ),
    onSuccess: () => toast({ title: "Session booked", description: "The invite is in your email." }),
    onSettled: refresh,
  });
}

type BookingChangeInput =
  | { kind: "cancel"; id: string; reason?: string }
  | { kind: "propose"; id: string; startsAt: string; reason?: string }
  | { kind: "answer"; id: string; accept: boolean }
  | { kind: "no-show"; id: string }
  | { kind: "message"; id: string; text: string };

/** What each change's toast says once the server has it. */
function changeDone(change: BookingChangeInput): string {
  switch (change.kind) {
    case "cancel":
      return "Session cancelled.";
    case "propose":
      return "New time asked for.";
    case "answer":
      return change.accept ? "The session has moved." : "The session stays at its time.";
    case "no-show":
      return "No-show marked.";
    case "message":
      return "Message sent.";
  }
}

/** The changes either side makes to a booking, each answered with the booking as it now stands. */
export function useBookingChange() {
  const refresh = useRefreshSessions();
  const session = apiClient.bookings[":bookingId"];
  const param = (id: string) => ({ param: pathParams({ bookingId: id }) });
  return useMutation({
    mutationFn: (change: BookingChangeInput): Promise<{ booking: BookingView }> => {
      switch (change.kind) {
        case "cancel":
          return call(session.cancel.$post({ ...param(change.id), json: { reason: change.reason } }));
        case "propose":
          return call(
            session.propose.$post({
              ...param(change.id),
              json: { startsAt: change.startsAt, reason: change.reason },
            }),
          );
        case "answer":
          return call(session.proposal.$post({ ...param(change.id), json: { accept: change.accept } }));
        case "no-show":
          return call(session["no-show"].$post({ ...param(change.id), json: {} }));
        case "message":
          return call(session.messages.$post({ ...param(change.id), json: { text: change.text } }));
      }
    },
    onSuccess: (_answer, change) => toast({ title: changeDone(change) }),
    onSettled: refresh,
  });
}

/** Saves a booking's calendar event as a file (.ics), which a calendar app opens to add it. */
export function useSaveInvite() {
  return useMutation({
    mutationFn: async (bookingId: string) => {
      const response = await callForResponse(
        apiClient.bookings[":bookingId"]["invite.ics"].$get({ param: pathParams({ bookingId }) }),
      );
      saveFile({ blob: await response.blob(), filename: "jalan-session.ics" });
    },
  });
}

/** The signed-in tutor's hours and profile. */
export function useTutorHours() {
  return useQuery({ queryKey: tutorHoursQueryKey, queryFn: () => call(apiClient.bookings.hours.$get()) });
}

export function useSaveTutorHours() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (hours: TutorHoursInput) => call(apiClient.bookings.hours.$put({ json: hours })),
    onSuccess: (saved) => {
      queryClient.setQueryData(tutorHoursQueryKey, saved);
      void queryClient.invalidateQueries({ queryKey: bookingsQueryKey });
    },
  });
}

/** The signed-in tutor's sessions this week and the learners waiting for one. */
export function useTutorWeek() {
  return useQuery({ queryKey: tutorWeekQueryKey, queryFn: () => call(apiClient.bookings.week.$get()) });
}
