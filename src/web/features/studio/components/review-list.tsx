import { courseAudioPath } from "#course/course";
import { studioTakeAudioPath } from "#course/studio";
import { accentLabel } from "#course/voices";
import { LoadFailed } from "#web/components/load-failed";
import { Button } from "#web/components/ui/button";
import { type ReviewTakeAnswer, useReviewList, useReviewTake } from "#web/features/studio/api/studio";
import { speakerName } from "#web/features/studio/components/line-row";
import { PlayClip } from "#web/features/studio/components/play-clip";
import { RejectDialog } from "#web/features/studio/components/reject-dialog";
import { mediaUrl } from "#web/lib/media";

const DATE_FORMAT = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "long",
  hour: "2-digit",
  minute: "2-digit",
});

/** One take waiting for review: the line, the voice, both clips to compare, its loudness, and the decision. */
function ReviewItem({ take, mine }: { take: ReviewTakeAnswer; mine: boolean }) {
  const review = useReviewTake();
  const name = take.voice.creditedName;
  const headingId = `review-${take.id}`;
  return (
    <li>
      <article aria-labelledby={headingId} className="grid gap-3 rounded-lg border p-4">
        <div className="grid gap-1">
          <p id={headingId} lang="ms" className="text-lg font-medium">
            {take.malay}
          </p>
          <p className="text-muted-foreground">{take.english}</p>
          <p className="text-sm text-muted-foreground">
            {speakerName(take.speaker)} · recorded by {name} ({accentLabel(take.voice.accent)}) on{" "}
            <time dateTime={take.createdAt}>{DATE_FORMAT.format(new Date(take.createdAt))}</time>
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <PlayClip src={take.clipUrl ?? studioTakeAudioPath(take.id, "clip")} what="take" />
          <PlayClip src={mediaUrl(courseAudioPath(take.chapterId, take.dayId, take.lineId))} what="synthetic clip" />
          {take.loudness && (
            <span className="text-sm text-muted-foreground">
              {take.loudness.integratedLufs.toFixed(1)} LUFS, true peak {take.loudness.truePeakDbtp.toFixed(1)} dBTP
              {take.durationMs !== null && `, ${(take.durationMs / 1000).toFixed(1)} s`}
            </span>
          )}
        </div>
        {mine ? (
          <p className="text-sm text-muted-foreground">Your own take: another voice or an Admin reviews it.</p>
        ) : (
          <div className="flex flex-wrap gap-2">
            <Button
              size="sm"
              disabled={review.isPending}
              onClick={() => review.mutate({ takeId: take.id, review: { decision: "approve" } })}
            >
              Approve
            </Button>
            <RejectDialog
              voice={name}
              pending={review.isPending}
              onReject={(reason, sent) =>
                review.mutate({ takeId: take.id, review: { decision: "reject", reason } }, { onSuccess: sent })
              }
            />
          </div>
        )}
      </article>
    </li>
  );
}

/**
 * The takes waiting for review, oldest first, for a voice who may record or an Admin. A reviewer
 * never decides on their own take: it is listed without Approve and Reject.
 */
export function ReviewList({ me }: { me: string }) {
  const waiting = useReviewList(true);
  if (waiting.isPending) return <p role="status">Loading the takes waiting for review…</p>;
  if (waiting.isError) return <LoadFailed what="The takes waiting for review" onRetry={() => void waiting.refetch()} />;
  if (waiting.data.length === 0) return <p>No take is waiting for review.</p>;
  return (
    <ol aria-label="Takes waiting for review" className="grid gap-3">
      {waiting.data.map((take) => (
        <ReviewItem key={take.id} take={take} mine={take.voice.userId === me} />
      ))}
    </ol>
  );
}
