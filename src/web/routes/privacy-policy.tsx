import { Link } from "react-router";
import { Page } from "#web/components/page";
import { publicPageMeta } from "#web/config/page-meta";
import { paths } from "#web/config/paths";
import { site } from "#web/config/site";
import { Prose } from "#web/features/marketing/prose";

/** The date this policy's text last changed. Update it with every change to the text below. */
export const POLICY_REVISED = "2026-11-23";

const revisedLabel = new Date(`${POLICY_REVISED}T00:00:00Z`).toLocaleDateString("en-GB", {
  day: "numeric",
  month: "long",
  year: "numeric",
  timeZone: "UTC",
});

const contactLink = (
  <Link to={paths.contact} className="font-medium text-primary underline underline-offset-4">
    contact page
  </Link>
);

export function Component() {
  return (
    <Page
      title={publicPageMeta[paths.privacyPolicy].title}
      intro={
        <>
          Last updated: <time dateTime={POLICY_REVISED}>{revisedLabel}</time>
        </>
      }
    >
      <Prose>
        <p>
          This policy explains what {site.name} stores about you, why, and what you can do about it. We keep it short
          and true to how the app works.
        </p>
        <ol className="space-y-2 [&>li]:ml-0 [&>li]:list-none">
          <li>
            <h2>1. Who we are</h2>
            <p>
              {site.name} is run by {site.companyName}. Our own server runs the app and its database; we do not use a
              hosted backend service, analytics or advertising networks, and the pages load nothing from other
              companies' servers. Questions go to <a href={`mailto:${site.contactEmail}`}>{site.contactEmail}</a> or
              through our {contactLink}.
            </p>
          </li>
          <li>
            <h2>2. What we store</h2>
            <ul>
              <li>Your account: first and last name, email address, and your password as a one-way hash.</li>
              <li>Your profile: an optional nickname and, if you upload one, your profile picture, which we resize.</li>
              <li>Your learning progress: which tasks of which days you have started or completed.</li>
              <li>Feedback your tutors write about your live sessions.</li>
              <li>Messages you send through the contact form, with the name and email you give.</li>
              <li>Your settings: your colour theme and whether we may email you.</li>
              <li>
                If you turn on two-factor sign-in: the secret your authenticator app shares with us and your backup
                codes, stored encrypted.
              </li>
              <li>
                For each signed-in session: when it started and was last used, your browser's user agent and IP address,
                so you can recognise your devices.
              </li>
            </ul>
          </li>
          <li>
            <h2>3. Why we use it</h2>
            <p>
              To run your account, save your progress and unlock the next day, let your tutor prepare your live session,
              answer your messages, keep the service secure (for example by limiting repeated sign-in attempts), and
              send the emails you ask for, such as confirming your address or resetting your password. We never sell
              your data or use it for advertising.
            </p>
          </li>
          <li>
            <h2>4. Cookies and storage in your browser</h2>
            <p>
              We set one cookie: a session cookie that keeps you signed in. It is HttpOnly (scripts cannot read it) and
              is sent only to our own site. While you enter a two-factor code we set a second, short-lived cookie that
              remembers the first step of your sign-in. Your browser also remembers your colour theme. There are no
              tracking or advertising cookies.
            </p>
          </li>
          <li>
            <h2>5. Who can see it</h2>
            <p>
              You. Tutors and admins of {site.name} can see learners' names, email addresses and progress so they can
              teach and support you; admins can read contact messages. When we send you an email it passes through our
              mail provider. We share nothing else unless the law requires it.
            </p>
          </li>
          <li>
            <h2>6. How long we keep it</h2>
            <p>
              We keep your account, progress and feedback for as long as you have an account. Sessions end when you sign
              out or after 30 days without use. Server logs, which record requests but never passwords, are kept for a
              short time to keep the service running and secure.
            </p>
          </li>
          <li>
            <h2>7. Your choices and rights</h2>
            <p>
              You can correct your name and picture on your profile page at any time. On your settings page you can
              download everything we store about you as one file (Export My Data), see the devices you are signed in on
              and sign them out, and delete your account: that removes your account, progress, the feedback about you,
              the contact messages linked to your account and your picture at once, and cannot be undone. For anything
              else, write to us through the {contactLink}.
            </p>
          </li>
        </ol>
      </Prose>
    </Page>
  );
}
