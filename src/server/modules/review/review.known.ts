import { type CardKey, cardId } from "#course/review-rules";

/** A card as an in-order answer moves it on: its stored state, and what the write checks is still so. */
export interface KnownCard {
  metAt: Date;
  state: unknown;
  reps: number;
  lastReviewedAt: Date | null;
}

/** What an answer reads besides its card: the account's zone and the learner's latest review. */
export interface KnownLearner {
  accountZone: string;
  previousReceivedAt: Date | null;
}

interface Entry extends KnownLearner {
  cards: Map<string, KnownCard>;
  seenAt: number;
}

/** Learners remembered at once; the one unseen longest is forgotten first. */
const MAX_LEARNERS = 2_000;
/** Cards remembered per learner: a round's and those answered since. */
const MAX_CARDS = 60;
/** A learner unseen this long is read afresh. */
const FORGET_AFTER_MS = 30 * 60_000;

/**
 * What this instance last read or wrote of a learner's cards, so that an in-order review answer
 * needs no read before its write (docs/decisions/049-lent-reads.md). Nothing here is trusted: the
 * write checks in PostgreSQL that the card, the account's zone and the learner's latest review are
 * still as remembered, and when another instance (or anything else) changed them it writes nothing,
 * this learner is forgotten, and the answer reads them afresh.
 */
export function createKnownCards(now: () => number) {
  const learners = new Map<string, Entry>();

  /** The learner's entry while fresh, moved to the back of the queue of those to forget. */
  function entryOf(userId: string): Entry | undefined {
    const entry = learners.get(userId);
    if (!entry) return undefined;
    learners.delete(userId);
    if (now() - entry.seenAt > FORGET_AFTER_MS) return undefined;
    entry.seenAt = now();
    learners.set(userId, entry);
    return entry;
  }

  function remember(userId: string, learner: KnownLearner, cards: Iterable<[CardKey, KnownCard]>) {
    const entry = entryOf(userId) ?? { ...learner, cards: new Map<string, KnownCard>(), seenAt: now() };
    entry.accountZone = learner.accountZone;
    entry.previousReceivedAt = learner.previousReceivedAt;
    for (const [key, card] of cards) {
      const id = cardId(key);
      entry.cards.delete(id);
      entry.cards.set(id, card);
    }
    for (const id of entry.cards.keys()) {
      if (entry.cards.size <= MAX_CARDS) break;
      entry.cards.delete(id);
    }
    learners.set(userId, entry);
    for (const id of learners.keys()) {
      if (learners.size <= MAX_LEARNERS) break;
      learners.delete(id);
    }
  }

  return {
    /** The learner and the card as last seen here, when both are remembered. */
    get(userId: string, key: CardKey): (KnownLearner & { card: KnownCard }) | undefined {
      const entry = entryOf(userId);
      const card = entry?.cards.get(cardId(key));
      return entry && card
        ? { accountZone: entry.accountZone, previousReceivedAt: entry.previousReceivedAt, card }
        : undefined;
    },

    /** Remembers the learner and their cards as a read found them. */
    learn: remember,

    /** Forgets the learner: something changed that this instance did not write. */
    forget(userId: string): void {
      learners.delete(userId);
    },
  };
}

export type KnownCards = ReturnType<typeof createKnownCards>;
