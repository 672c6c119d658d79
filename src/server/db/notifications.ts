import pg from "pg";
import type { Logger } from "pino";

/** A channel's name: PostgreSQL identifiers we choose, never a user's text. */
const CHANNEL = /^[a-z_][a-z0-9_]{0,62}$/;
/** Waits before connecting again after the listener's connection is lost: 0.25 s, doubling to 5 s. */
const FIRST_RETRY_MS = 250;
const LAST_RETRY_MS = 5_000;

type Handler = (payload: string) => void;
/** Told when the connection is back, with when it was lost: what was sent since may have been missed. */
type ReconnectHandler = (lostAt: Date) => void;

/**
 * PostgreSQL's LISTEN/NOTIFY for this instance: one dedicated connection (a pooled one would lose its
 * LISTENs when returned), its channels listened again after a reconnect, and every handler of a
 * channel called with each payload. What one instance sends with `notify` reaches every instance on
 * the database, itself included, once the sending transaction commits.
 *
 * While the connection is down, notifications sent meanwhile are lost: `onReconnect` handlers run
 * once it is back, told when it was lost, so a user of the channel can catch up from its tables.
 */
export function createNotifications(url: string, logger: Logger) {
  const handlers = new Map<string, Set<Handler>>();
  const reconnected = new Set<ReconnectHandler>();

  function dispatch(channel: string, payload: string) {
    for (const handler of handlers.get(channel) ?? []) {
      try {
        handler(payload);
      } catch (error) {
        logger.error({ err: error, channel }, "a notification's handler failed");
      }
    }
  }

  const connection = createConnection(url, logger, {
    channels: () => handlers.keys(),
    dispatch,
    reconnected: (lostAt) => {
      for (const handler of reconnected) handler(lostAt);
    },
  });

  return {
    /**
     * Calls `handler` with each payload sent on `channel`, once the channel is listened to (when
     * this resolves); the function it resolves to unsubscribes.
     */
    async subscribe(channel: string, handler: Handler): Promise<() => void> {
      if (!CHANNEL.test(channel)) throw new Error(`"${channel}" is not a channel name.`);
      let channelHandlers = handlers.get(channel);
      const added = !channelHandlers;
      if (!channelHandlers) {
        channelHandlers = new Set();
        handlers.set(channel, channelHandlers);
      }
      channelHandlers.add(handler);
      // A connection made now listens to every channel it finds; one already open needs telling.
      const open = connection.client;
      await connection.ready();
      if (added && open && connection.client === open) await listen(open, channel);
      const subscribed = channelHandlers;
      return () => subscribed.delete(handler);
    },

    /** Runs `handler` each time the connection comes back after it was lost, with when it was lost. */
    onReconnect(handler: ReconnectHandler): () => void {
      reconnected.add(handler);
      return () => reconnected.delete(handler);
    },

    /** Whether notifications reach this instance now. */
    get listening(): boolean {
      return connection.client !== null;
    },

    close: connection.close,
  };
}

const listen = (target: pg.Client, channel: string) => target.query(`listen ${channel}`);

/** What the listening connection serves: the channels to listen to, where payloads go, who hears of a reconnect. */
interface Listeners {
  channels: () => Iterable<string>;
  dispatch: (channel: string, payload: string) => void;
  reconnected: (lostAt: Date) => void;
}

/**
 * The dedicated connection: made on first use (an instance whose rooms stay empty never opens it),
 * made again after it is lost, waiting longer after each failed try, until closed.
 */
function createConnection(url: string, logger: Logger, listeners: Listeners) {
  let lostAt: Date | null = null;
  let client: pg.Client | null = null;
  let connecting: Promise<void> | null = null;
  let closed = false;
  let retryMs = FIRST_RETRY_MS;
  let retry: NodeJS.Timeout | undefined;

  /**
   * Opens a connection and listens to every channel. Notifications that arrive before the caller
   * has run what comes first (a reconnect's catch-up) are held: the function it resolves to lets
   * them through, in the order they came.
   */
  async function connect(): Promise<() => void> {
    const { next, release } = openClient(url, logger, listeners.dispatch, () => {
      if (client === next) {
        client = null;
        lostAt ??= new Date();
      }
      if (!closed) scheduleReconnect();
    });
    await next.connect();
    for (const channel of listeners.channels()) await listen(next, channel);
    if (closed) {
      await next.end();
      return () => undefined;
    }
    client = next;
    retryMs = FIRST_RETRY_MS;
    return release;
  }

  function scheduleReconnect() {
    if (retry || closed) return;
    retry = setTimeout(() => {
      retry = undefined;
      connecting = connect()
        .then((release) => {
          const since = lostAt ?? new Date();
          lostAt = null;
          // What was missed first, then what arrived while it was being asked for.
          listeners.reconnected(since);
          release();
        })
        .catch((error: Error) => {
          logger.warn({ reason: error.message }, "the notifications connection could not be made again");
          retryMs = Math.min(retryMs * 2, LAST_RETRY_MS);
          scheduleReconnect();
        })
        .finally(() => {
          connecting = null;
        });
    }, retryMs);
    retry.unref();
  }

  return {
    /** The connection, made on first use. */
    async ready(): Promise<void> {
      if (client || closed) return;
      if (!connecting) {
        connecting = connect()
          .then((release) => release())
          .finally(() => {
            connecting = null;
          });
      }
      await connecting;
    },

    /** The open connection; null while there is none. */
    get client(): pg.Client | null {
      return client;
    },

    async close(): Promise<void> {
      closed = true;
      clearTimeout(retry);
      await connecting?.catch(() => undefined);
      const open = client;
      client = null;
      await open?.end().catch(() => undefined);
    },
  };
}

/**
 * A client whose notifications are held until `release` is called, then dispatched as they come;
 * `onEnd` runs when its connection ends, lost or closed.
 */
function openClient(url: string, logger: Logger, dispatch: Listeners["dispatch"], onEnd: () => void) {
  const next = new pg.Client({ connectionString: url });
  let held: { channel: string; payload: string }[] | null = [];
  next.on("notification", ({ channel, payload }) => {
    if (held) held.push({ channel, payload: payload ?? "" });
    else dispatch(channel, payload ?? "");
  });
  const release = () => {
    const early = held ?? [];
    held = null;
    for (const each of early) dispatch(each.channel, each.payload);
  };
  next.on("error", (error: Error & { code?: string }) => {
    logger.warn({ code: error.code, reason: error.message }, "the notifications connection was lost");
  });
  next.on("end", onEnd);
  return { next, release };
}

export type Notifications = ReturnType<typeof createNotifications>;
