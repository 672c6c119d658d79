import { useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { type Feedback, myFeedbackQuery } from "#web/features/course/api/feedback";
import { useProfile } from "#web/lib/profile";

/**
 * The feedback tutors left for the signed-in learner, newest first. Visitors make no request. A
 * failed read is only logged, as for the learner's own progress (spec section 8): the pages simply
 * show no feedback.
 */
export function useMyFeedback() {
  const { profile } = useProfile();
  const query = useQuery({ ...myFeedbackQuery, enabled: Boolean(profile) });
  useEffect(() => {
    if (query.error) console.error("Could not read feedback", query.error);
  }, [query.error]);
  return query;
}

/** The signed-in learner's feedback on one day, newest first; empty for visitors and while loading. */
export function useDayFeedback(chapterId: string, dayId: string): Feedback[] {
  const { data } = useMyFeedback();
  return (data ?? []).filter((item) => item.chapterId === chapterId && item.dayId === dayId);
}
