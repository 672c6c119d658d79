import { useEffect, useState } from "react";
import { Button } from "#web/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#web/components/ui/card";
import { type ContactMessage, useContactMessages } from "#web/features/admin/api/get-contact-messages";
import { describeError } from "#web/lib/api";
import { toast } from "#web/lib/toast";

const dateFormat = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short" });

/** Messages sent through the contact form, newest first, a page at a time. */
export function ContactInbox() {
  const [page, setPage] = useState(1);
  const inbox = useContactMessages(page);

  useEffect(() => {
    if (!inbox.error) return;
    toast({
      title: "Error fetching messages",
      description: describeError(inbox.error, "Could not load the messages."),
      variant: "destructive",
    });
  }, [inbox.error]);

  const data = inbox.data;
  const pageCount = data ? Math.max(1, Math.ceil(data.total / data.perPage)) : 1;

  return (
    <Card aria-labelledby="inbox-heading" role="region">
      <CardHeader>
        <CardTitle id="inbox-heading">Inbox</CardTitle>
        <CardDescription>Messages sent through the contact form, newest first.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {inbox.isPending ? (
          <p role="status" className="text-muted-foreground">
            Loading messages…
          </p>
        ) : !data ? (
          <div className="grid justify-items-start gap-3">
            <p>The messages could not be loaded.</p>
            <Button variant="outline" onClick={() => inbox.refetch()} disabled={inbox.isFetching}>
              Try again
            </Button>
          </div>
        ) : data.total === 0 ? (
          <p className="text-muted-foreground">No messages yet.</p>
        ) : (
          <>
            <ol className="grid gap-3" aria-busy={inbox.isPlaceholderData || undefined}>
              {data.messages.map((message) => (
                <li key={message.id}>
                  <InboxMessage message={message} />
                </li>
              ))}
            </ol>
            <nav aria-label="Inbox pages" className="flex flex-wrap items-center justify-between gap-3">
              <p className="text-sm text-muted-foreground" aria-live="polite">
                Page {data.page} of {pageCount} · {data.total} {data.total === 1 ? "message" : "messages"}
              </p>
              <div className="flex gap-2">
                <Button variant="outline" size="sm" disabled={page <= 1} onClick={() => setPage(page - 1)}>
                  Previous
                </Button>
                <Button
                  variant="outline"
                  size="sm"
                  disabled={inbox.isPlaceholderData || page >= pageCount}
                  onClick={() => setPage(page + 1)}
                >
                  Next
                </Button>
              </div>
            </nav>
          </>
        )}
      </CardContent>
    </Card>
  );
}

function InboxMessage({ message }: { message: ContactMessage }) {
  return (
    <article className="grid gap-2 rounded-lg border p-4">
      <header className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
        <h3 className="font-semibold break-words">{message.fullName}</h3>
        <a href={`mailto:${message.email}`} className="text-sm break-all text-primary underline underline-offset-4">
          {message.email}
        </a>
        <time dateTime={message.createdAt} className="text-sm text-muted-foreground">
          {dateFormat.format(new Date(message.createdAt))}
        </time>
        {message.userId && <span className="text-sm text-muted-foreground">Sent while signed in</span>}
      </header>
      {/* Rendered as text: React escapes it, and line breaks are kept by CSS, never turned into HTML. */}
      <p className="whitespace-pre-wrap break-words">{message.message}</p>
    </article>
  );
}
