import { Link, useSearchParams } from "react-router";
import { LoadFailed } from "#web/components/load-failed";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "#web/components/ui/tabs";
import { paths } from "#web/config/paths";
import { useMyVoice, useReviewList } from "#web/features/studio/api/studio";
import { DayLines } from "#web/features/studio/components/day-lines";
import { ReviewList } from "#web/features/studio/components/review-list";
import { useProfile } from "#web/lib/profile";

/**
 * Why a member of staff may not record, and whom to ask: an Admin names voices in the Admin
 * dashboard, and the voice consents in Settings (docs/decisions/077-voices.md). An Admin who is
 * not a voice still reviews and unpublishes.
 */
function NotAVoice({ granted, admin }: { granted: boolean; admin: boolean }) {
  return (
    <section aria-labelledby="not-a-voice-heading" className="grid gap-2 rounded-lg border bg-card p-5">
      <h2 id="not-a-voice-heading" className="text-lg font-semibold">
        {granted ? "Give your consent to record" : "You are not a voice of the course yet"}
      </h2>
      {granted ? (
        <p>
          You are a voice of the course, but nothing you record can be used until you consent to it. Read what you
          consent to and give your consent in{" "}
          <Link to={paths.settings} className="underline underline-offset-4">
            Settings
          </Link>
          , then come back to record.
        </p>
      ) : admin ? (
        <p>
          You can review takes and unpublish clips. To record lines yourself, grant yourself a voice in the{" "}
          <Link to={paths.admin} className="underline underline-offset-4">
            Admin dashboard
          </Link>{" "}
          (its users' Voice column), then give your consent in Settings.
        </p>
      ) : (
        <p>
          Only voices record the course's lines. Ask one of Jalan's Admins to grant you a voice: they do it in the Admin
          dashboard, with the name your clips are credited by and your accent. Then give your consent in Settings.
        </p>
      )}
    </section>
  );
}

/**
 * The voice studio: a voice who may record gets the day's lines to record and the takes to review;
 * an Admin gets them too, to review and unpublish; a Tutor who is no voice (or has not consented)
 * reads why, and whom to ask. Learners never reach it (the route's guard).
 */
export function StudioPage() {
  const { profile } = useProfile();
  const mine = useMyVoice();
  const admin = profile?.role === "Admin";
  const mayRecord = mine.data?.voice?.mayRecord ?? false;
  const mayReview = mayRecord || admin;
  const waiting = useReviewList(mayReview);
  // The tab is kept in the address (`?tab=review`), as the day is.
  const [search, setSearch] = useSearchParams();
  const tab = search.get("tab") === "review" ? "review" : "lines";

  if (mine.isPending) return <p role="status">Loading…</p>;
  if (mine.isError) return <LoadFailed what="Your voice" onRetry={() => void mine.refetch()} />;
  const notice = mayRecord ? null : <NotAVoice granted={mine.data.voice !== null} admin={admin} />;
  if (!mayReview) return notice;

  const count = waiting.data?.length;
  return (
    <div className="grid gap-6">
      {notice}
      <Tabs
        value={tab}
        onValueChange={(next) =>
          setSearch(
            (before) => {
              const after = new URLSearchParams(before);
              if (next === "review") after.set("tab", "review");
              else after.delete("tab");
              return after;
            },
            { replace: true },
          )
        }
      >
        <TabsList>
          <TabsTrigger value="lines">Lines</TabsTrigger>
          <TabsTrigger value="review">
            Review
            {/* Named with its count ("Review, 3 waiting"), as the header's Review link is. */}
            {count ? (
              <>
                <span className="sr-only">, {count} waiting</span>
                <span aria-hidden="true" className="rounded-full bg-primary px-1.5 text-xs text-primary-foreground">
                  {count}
                </span>
              </>
            ) : null}
          </TabsTrigger>
        </TabsList>
        <TabsContent value="lines">
          <DayLines me={profile?.id ?? ""} admin={admin} />
        </TabsContent>
        <TabsContent value="review">
          <ReviewList me={profile?.id ?? ""} />
        </TabsContent>
      </Tabs>
    </div>
  );
}
