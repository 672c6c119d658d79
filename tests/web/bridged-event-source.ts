type Fetch = (input: string, init?: RequestInit) => Promise<Response>;

const CONNECTING = 0;
const OPEN = 1;
const CLOSED = 2;

/**
 * The browser's EventSource, as much of it as the pages use, over the page's `fetch` (jsdom has no
 * EventSource; in the web-db tests `fetch` is the bridge into the app, tests/web/app-in-process.ts):
 * it GETs the URL with the page's cookies and reads the stream as it comes, firing `open`, then a
 * MessageEvent per message (its `data:` lines; comments skipped; `event:` names its type). A refusal,
 * a failure or the stream's end fire `error` and leave it CLOSED: a browser would connect again after
 * a pause, which no test here needs. `close()` cancels the stream, which the app sees as the browser
 * going away.
 */
export function eventSourceOver(fetch: Fetch) {
  return class BridgedEventSource extends EventTarget {
    static readonly CONNECTING = CONNECTING;
    static readonly OPEN = OPEN;
    static readonly CLOSED = CLOSED;
    readonly CONNECTING = CONNECTING;
    readonly OPEN = OPEN;
    readonly CLOSED = CLOSED;
    readonly url: string;
    readonly withCredentials = false;
    readyState: number = CONNECTING;
    onopen: ((event: Event) => void) | null = null;
    onmessage: ((event: MessageEvent) => void) | null = null;
    onerror: ((event: Event) => void) | null = null;
    #reader: ReadableStreamDefaultReader<Uint8Array> | null = null;

    constructor(url: string | URL) {
      super();
      this.url = String(url);
      void this.#connect();
    }

    close(): void {
      this.readyState = CLOSED;
      void this.#reader?.cancel().catch(() => undefined);
    }

    async #connect(): Promise<void> {
      try {
        const response = await fetch(this.url, { headers: { accept: "text/event-stream" } });
        const isStream = response.headers.get("content-type")?.startsWith("text/event-stream");
        if (this.readyState === CLOSED || !response.ok || !isStream || !response.body) {
          await response.body?.cancel();
        } else {
          this.#reader = response.body.getReader();
          this.readyState = OPEN;
          this.#fire(new Event("open"));
          await this.#read(this.#reader);
        }
      } catch {
        // A failed request, or a stream cut off: the `error` below says so.
      }
      if (this.readyState === CLOSED) return;
      this.readyState = CLOSED;
      this.#fire(new Event("error"));
    }

    async #read(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
      const decoder = new TextDecoder();
      let buffer = "";
      for (;;) {
        const { done, value } = await reader.read();
        if (done || this.readyState === CLOSED) return;
        buffer += decoder.decode(value, { stream: true }).replace(/\r\n?/g, "\n");
        let end = buffer.indexOf("\n\n");
        while (end >= 0) {
          this.#dispatch(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
          end = buffer.indexOf("\n\n");
        }
      }
    }

    /** One message of the stream: its `data:` lines joined, sent as its `event:` type or "message". */
    #dispatch(block: string): void {
      let type = "message";
      const data: string[] = [];
      for (const line of block.split("\n")) {
        if (line.startsWith(":")) continue;
        const colon = line.indexOf(":");
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
        if (field === "data") data.push(value);
        else if (field === "event") type = value;
      }
      if (data.length > 0) this.#fire(new MessageEvent(type, { data: data.join("\n") }));
    }

    #fire(event: Event): void {
      this.dispatchEvent(event);
      if (event.type === "open") this.onopen?.(event);
      else if (event.type === "error") this.onerror?.(event);
      else if (event.type === "message") this.onmessage?.(event as MessageEvent);
    }
  };
}
