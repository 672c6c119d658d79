import { useId, useState } from "react";
import { Button } from "#web/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#web/components/ui/card";
import { Input } from "#web/components/ui/input";
import { Label } from "#web/components/ui/label";
import {
  type MadeCalendarFeed,
  useCalendarFeed,
  useMakeCalendarFeed,
  useTurnOffCalendarFeed,
} from "#web/features/settings/api/calendar-feed";
import { toast } from "#web/lib/toast";

const DATE_FORMAT = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "long", year: "numeric" });

/** One form of the link, read-only, with its Copy button and a toast either way. */
function LinkField({ label, value }: { label: string; value: string }) {
  const id = useId();
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      toast({ title: "Link copied", description: "Paste it into your calendar app's “subscribe by URL”." });
    } catch {
      toast({
        title: "Could not copy the link",
        description: "Select it and copy it yourself.",
        variant: "destructive",
      });
    }
  }
  return (
    <div className="grid gap-1">
      <Label htmlFor={id}>{label}</Label>
      <div className="flex gap-2">
        <Input id={id} readOnly value={value} onFocus={(event) => event.currentTarget.select()} />
        <Button type="button" variant="outline" aria-label={`Copy the ${label}`} onClick={copy}>
          Copy
        </Button>
      </div>
    </div>
  );
}

/**
 * A private calendar feed of the user's live sessions (docs/decisions/082-calendar-feed.md): a link a
 * calendar app subscribes to. Jalan keeps only a hash of it, so the link is shown once, when it is
 * made or made again; making it again or turning the feed off stops the old link at once.
 */
export function CalendarFeed() {
  const state = useCalendarFeed();
  const make = useMakeCalendarFeed();
  const turnOff = useTurnOffCalendarFeed();
  const [made, setMade] = useState<MadeCalendarFeed | null>(null);
  const feed = state.data?.feed;
  const pending = make.isPending || turnOff.isPending;

  const makeLink = (again: boolean) => make.mutate(again, { onSuccess: setMade });
  const stop = () => turnOff.mutate(undefined, { onSuccess: () => setMade(null) });

  return (
    <Card aria-labelledby="calendar-feed-heading" role="region">
      <CardHeader>
        <CardTitle id="calendar-feed-heading">Calendar feed</CardTitle>
        <CardDescription>
          A private link your calendar app subscribes to: your live sessions, as learner and as tutor, upcoming and of
          the last 30 days, kept up to date when they move or are cancelled.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4 text-sm">
        {state.isPending && <p className="text-muted-foreground">Loading…</p>}
        {feed && made && (
          <>
            <p>
              Copy your link now: it is shown only this once, as Jalan keeps no copy of it. Anyone with the link can see
              your sessions, so keep it to yourself.
            </p>
            <LinkField label="https link" value={made.url} />
            <LinkField label="webcal link" value={made.webcal} />
          </>
        )}
        {feed && !made && (
          <p>
            Your calendar feed's link was made on{" "}
            <time dateTime={String(feed.createdAt)}>{DATE_FORMAT.format(new Date(feed.createdAt))}</time>. It is shown
            only when it is made: to see a link again, make a new one (the old one then stops working).
          </p>
        )}
        {state.data && (
          <div className="flex flex-wrap gap-2">
            {feed ? (
              <>
                <Button variant="outline" disabled={pending} onClick={() => makeLink(true)}>
                  Regenerate link
                </Button>
                <Button variant="outline" disabled={pending} onClick={stop}>
                  Turn off
                </Button>
              </>
            ) : (
              <Button disabled={pending} onClick={() => makeLink(false)}>
                {make.isPending ? "Making…" : "Create link"}
              </Button>
            )}
          </div>
        )}
      </CardContent>
    </Card>
  );
}
