import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { type NavigateFunction, useLocation, useNavigate } from "react-router";
import { sessionEnded } from "./session";
import { type ToastMessage, toast } from "./toast";

type Farewell = Pick<ToastMessage, "title" | "description">;
interface EndSessionState {
  endSession: Farewell;
}

function isEndSessionState(state: unknown): state is EndSessionState {
  return typeof state === "object" && state !== null && "endSession" in state;
}

/**
 * Leaves the current page for `to`, and only once that page is on screen ends the session in the
 * app and says goodbye. Ending it first would let a guarded page (settings) see "signed out" while
 * the router's transition to `to` is still pending, and send the visitor to sign up instead.
 */
export function leaveAndEndSession(navigate: NavigateFunction, to: string, farewell: Farewell) {
  return navigate(to, { replace: true, state: { endSession: farewell } satisfies EndSessionState });
}

/** Mounted once in the layout: finishes what leaveAndEndSession started, after the new page commits. */
export function useEndSessionOnArrival() {
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const state: unknown = location.state;
  useEffect(() => {
    if (!isEndSessionState(state)) return;
    sessionEnded(queryClient);
    toast(state.endSession);
    void navigate(location.pathname + location.search, { replace: true, state: null });
  }, [state, queryClient, navigate, location.pathname, location.search]);
}
