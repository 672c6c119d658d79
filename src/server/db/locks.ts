/**
 * Every PostgreSQL advisory lock the app takes, in one table, so no two uses share a key by
 * accident (the takes once shared the review's class, and a learner's review waited on their
 * upload). Two-part locks (pg_advisory_xact_lock(class, hashtext(id))) take their first half from
 * LOCK_CLASSES; single 64-bit locks take LOCK_KEYS. PostgreSQL keeps the two forms apart, so a
 * class never meets a key. Values stay as they are once shipped: instances of two releases running
 * side by side must take the same lock for the same thing.
 */
export const LOCK_CLASSES = {
  /** The contact form, per client key: its limit is checked in turn. */
  contact: 740_214,
  /** A user's practice answers: two answers finishing a set at once cannot each miss the other's. */
  answers: 740_215,
  /** A learner's review answers: a card's reviews are logged and the card rebuilt one at a time. */
  review: 740_216,
  /** A learner's takes: saving, pruning to the quota and sending take turns. */
  takes: 740_217,
  /** A learner's bookings: their limits are checked in turn. */
  learnerBookings: 740_517,
  /** A story section's whole-dialogue recording (the studio): one build writes it at a time. */
  studioDialogue: 740_518,
} as const;

export const LOCK_KEYS = {
  /** Instances starting at once apply the migrations one after another. */
  migration: 7_346_214_901,
  /** Every change to the set of Admins (role changes, account deletions): the last Admin stays. */
  adminChange: 7_346_214_902,
  /** Instances starting at once create the queue's queues one after another (queue/queue.ts). */
  queueCreation: 7_346_214_903,
} as const;
