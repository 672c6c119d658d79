import { useEffect } from "react";
import { Navigate, Outlet, useLocation } from "react-router";
import { can, type Policy } from "#course/roles";
import { paths } from "#web/config/paths";
import { useProfile } from "#web/lib/profile";
import { useRouteHandle } from "#web/lib/route-handle";
import { toast } from "#web/lib/toast";

/**
 * The one guard for signed-in routes (spec section 6). Signed-out visitors go to `signedOutTo` with
 * the page they wanted in `state.from`, so signing in can bring them back; a role without the
 * policy is told so and goes to My Journey. While the session is read the guard shows "Loading…", or the page's
 * own frame when its route says it draws one (RouteHandle.framesItsLoading).
 */
export function RouteGuard({ policy, signedOutTo = paths.login }: { policy?: Policy; signedOutTo?: string }) {
  const location = useLocation();
  const { isPending, profile } = useProfile();
  const { framesItsLoading } = useRouteHandle();
  if (isPending) {
    if (framesItsLoading) return <Outlet />;
    return (
      <p role="status" className="mx-auto max-w-5xl px-4 py-16 text-center text-muted-foreground">
        Loading…
      </p>
    );
  }
  if (!profile) return <Navigate to={signedOutTo} replace state={{ from: location }} />;
  if (policy && !can(profile.role, policy)) return <NoAccess />;
  return <Outlet />;
}

/** A page the user's role may not open: said in a toast, then on to My Journey. */
function NoAccess() {
  useEffect(() => {
    toast({
      title: "No Access",
      description: "You don't have access to that page, so we've taken you to My Journey.",
      variant: "destructive",
    });
  }, []);
  return <Navigate to={paths.progress} replace />;
}
