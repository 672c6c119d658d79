import { useMatches } from "react-router";

/** What a route tells the layout around it, through React Router's `handle`. */
export interface RouteHandle {
  /** Only for signed-in visitors (behind RouteGuard): until the session is known the header keeps a
   * place for the account menu rather than offering Get Started. */
  signedInOnly?: boolean;
  /**
   * The page draws its own frame while the session is read, instead of the guard's "Loading…", so
   * the build can prerender it with the page's real layout. Until useLearner knows who is looking,
   * the page must show nothing of anyone's: a signed-out visitor sees that frame too before the
   * guard sends them to sign in.
   */
  framesItsLoading?: boolean;
}

/** The handles of every route the URL matches, merged: the innermost route wins. */
export function useRouteHandle(): RouteHandle {
  return Object.assign({}, ...useMatches().map((match) => match.handle as RouteHandle | undefined));
}
