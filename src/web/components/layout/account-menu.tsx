import { useQueryClient } from "@tanstack/react-query";
import { GraduationCap, LayoutDashboard, LogOut, Mic, Settings, ShieldCheck, UserRound } from "lucide-react";
import { useRef } from "react";
import { Link, useNavigate } from "react-router";
import { displayName } from "#course/account-rules";
import { can } from "#course/roles";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "#web/components/ui/dropdown-menu";
import { paths } from "#web/config/paths";
import type { Profile } from "#web/lib/profile";
import { type ReachedBy, useFocusKept } from "#web/lib/reach-on-demand";
import { sessionEnded } from "#web/lib/session";
import { toast } from "#web/lib/toast";
import { AccountButton } from "./account-button";

export function AccountMenu({ profile, reachedBy = "pointer" }: { profile: Profile; reachedBy?: ReachedBy }) {
  const name = displayName(profile);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const trigger = useRef<HTMLButtonElement>(null);

  // The button the user focused was the plain one this menu replaced (AccountMenuOnDemand).
  useFocusKept(trigger, reachedBy);

  async function signOut() {
    // Leave the page first (the landing page loads lazily, so wait for it): a guarded page would
    // otherwise see the session end and send the user to /login instead of home.
    await navigate(paths.home);
    // Better Auth's client (about 10 KB gzip) loads for signing out, not with every signed-in page.
    const message = await import("#web/lib/auth-client").then(
      ({ authClient, authErrorOf }) => authErrorOf(authClient.signOut()),
      () => "We could not reach the server. Check your connection and try again.",
    );
    if (message) {
      toast({ title: "Sign out Failed", description: message, variant: "destructive" });
      return;
    }
    // Nothing of this user's may linger for whoever uses the browser next.
    sessionEnded(queryClient);
  }

  return (
    // Not modal: a modal menu hides the whole page from screen readers while it is open.
    <DropdownMenu modal={false} defaultOpen={reachedBy === "press"}>
      <DropdownMenuTrigger asChild>
        <AccountButton ref={trigger} profile={profile} />
      </DropdownMenuTrigger>
      <DropdownMenuContent className="w-60">
        <DropdownMenuLabel>
          <span className="block truncate font-semibold">{name}</span>
          <span className="block truncate font-normal text-muted-foreground" title={profile.email}>
            {profile.email}
          </span>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuItem asChild>
          <Link to={paths.progress}>
            <LayoutDashboard aria-hidden="true" />
            My Journey
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem asChild>
          <Link to={paths.profile}>
            <UserRound aria-hidden="true" />
            Profile
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem asChild>
          <Link to={paths.settings}>
            <Settings aria-hidden="true" />
            Settings
          </Link>
        </DropdownMenuItem>
        {can(profile.role, "admin:view") && (
          <DropdownMenuItem asChild>
            <Link to={paths.admin}>
              <ShieldCheck aria-hidden="true" />
              Admin
            </Link>
          </DropdownMenuItem>
        )}
        {can(profile.role, "tutor:view") && (
          <DropdownMenuItem asChild>
            <Link to={paths.tutor}>
              <GraduationCap aria-hidden="true" />
              Tutor
            </Link>
          </DropdownMenuItem>
        )}
        {can(profile.role, "tutor:view") && (
          <DropdownMenuItem asChild>
            <Link to={paths.studio}>
              <Mic aria-hidden="true" />
              Voice studio
            </Link>
          </DropdownMenuItem>
        )}
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={() => void signOut()}>
          <LogOut aria-hidden="true" />
          Log out
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
