import type { RouteObject } from "react-router";
import { RootLayout } from "./components/layout/root-layout";
import { RouteError } from "./components/layout/route-error";
import { RouteGuard } from "./components/route-guard";
import { paths } from "./config/paths";
import { OfflineBanner } from "./features/offline/components/offline-banner";
import { UpdatePrompt } from "./features/offline/components/update-prompt";
import { AccountTheme } from "./features/settings/components/account-theme";
import { DeviceZonePrompt } from "./features/settings/components/device-zone-prompt";
import type { RouteHandle } from "./lib/route-handle";

const signedInOnly: RouteHandle = { signedInOnly: true };

/**
 * The layout of every page, with the account's theme applied once the settings are read, the offer
 * of this device's time zone when the account's differs, and the offline line and the new version's
 * prompt when they apply (decision 087).
 */
function Root() {
  return (
    <>
      <AccountTheme />
      <RootLayout
        notice={
          <>
            <DeviceZonePrompt />
            <OfflineBanner />
            <UpdatePrompt />
          </>
        }
      />
    </>
  );
}

/**
 * Every page's code is loaded on demand, so a first visit downloads only the shell and its own page.
 * Course routes take their chapter and day from the URL; the page shows "not found" for ids the
 * course does not have.
 */
export const routes: RouteObject[] = [
  {
    path: paths.home,
    Component: Root,
    ErrorBoundary: RouteError,
    HydrateFallback: () => null,
    children: [
      { index: true, lazy: () => import("./routes/landing") },
      { path: paths.login, lazy: () => import("./routes/login") },
      { path: paths.signup, lazy: () => import("./routes/signup") },
      { path: paths.checkEmail, lazy: () => import("./routes/check-email") },
      { path: paths.emailConfirmed, lazy: () => import("./routes/email-confirmed") },
      { path: paths.forgotPassword, lazy: () => import("./routes/forgot-password") },
      { path: paths.resetPassword, lazy: () => import("./routes/reset-password") },
      { path: paths.about, lazy: () => import("./routes/about") },
      { path: paths.aboutMission, lazy: () => import("./routes/about-mission") },
      { path: paths.aboutStory, lazy: () => import("./routes/about-story") },
      { path: paths.aboutTeam, lazy: () => import("./routes/about-team") },
      { path: paths.contact, lazy: () => import("./routes/contact") },
      { path: paths.privacyPolicy, lazy: () => import("./routes/privacy-policy") },
      { path: paths.review, lazy: () => import("./routes/review") },
      { path: paths.unsubscribe, lazy: () => import("./routes/unsubscribe") },
      {
        element: <RouteGuard />,
        handle: signedInOnly,
        children: [
          { path: paths.progress, lazy: () => import("./routes/progress") },
          { path: paths.profile, lazy: () => import("./routes/profile") },
          { path: paths.sessionRoom, lazy: () => import("./routes/session-room") },
        ],
      },
      {
        element: <RouteGuard signedOutTo={paths.signup} />,
        handle: signedInOnly,
        children: [{ path: paths.settings, lazy: () => import("./routes/settings") }],
      },
      {
        element: <RouteGuard policy="admin:view" />,
        handle: signedInOnly,
        children: [{ path: paths.admin, lazy: () => import("./routes/admin") }],
      },
      {
        element: <RouteGuard policy="tutor:view" />,
        handle: signedInOnly,
        children: [
          { path: paths.tutor, lazy: () => import("./routes/tutor") },
          { path: paths.tutorHours, lazy: () => import("./routes/tutor-hours") },
          { path: paths.studio, lazy: () => import("./routes/studio") },
        ],
      },
      { path: ":chapterId", lazy: () => import("./routes/chapter") },
      { path: ":chapterId/:dayId", lazy: () => import("./routes/day") },
      { path: ":chapterId/:dayId/codebook", lazy: () => import("./routes/codebook") },
      { path: ":chapterId/:dayId/live-session", lazy: () => import("./routes/live-session") },
      { path: "*", lazy: () => import("./routes/not-found") },
    ],
  },
];
