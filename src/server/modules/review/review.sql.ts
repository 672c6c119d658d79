import type { Grade } from "#course/grading";
import type { ReviewGiven } from "#course/review-items";
import type { LentRead } from "#server/db/lent-read";

/**
 * What a review answer reads, in one statement: the account's zone (no row: no such account), the
 * card (nulls when the learner does not hold it), the review already sent with this clientId, and
 * when the server received the learner's previous review.
 */
export const ANSWER_CONTEXT = `
  select account.time_zone as account_zone,
    card.met_at, card.state, card.reps, card.last_reviewed_at, card.due,
    sent.chapter_id as sent_chapter_id, sent.day_id as sent_day_id, sent.phrase_id as sent_phrase_id,
    sent.skill as sent_skill, sent.given as sent_given, sent.grade as sent_grade, sent.rating as sent_rating,
    sent.local_date as sent_local_date, sent.time_zone as sent_time_zone,
    (select max(received_at) from review_log where user_id = $1) as previous_received_at
  from person account
  left join review_card card
    on card.user_id = account.id and card.chapter_id = $2 and card.day_id = $3 and card.phrase_id = $4 and card.skill = $5
  left join review_log sent on sent.user_id = account.id and sent.client_id = $6
  where account.id = $1`;

/**
 * A learner's days of reviews as JSON, oldest last review first, from `rows` (review_day's columns);
 * what the summary and a review answer judge the goal and the streak by (goalStanding).
 */
const daysJson = (rows: string) => `(select coalesce(json_agg(json_build_object(
    'date', local_date, 'timeZone', time_zone, 'reviews', reviews, 'durationMs', counted_ms, 'lastAt', last_at
  ) order by last_at), '[]'::json) from (${rows}) review_days)`;

/** The learner's ($1) days of reviews from the date `since` on, as review_day keeps them. */
const dayRows = (since: string) =>
  `select local_date, time_zone, reviews, counted_ms, last_at from review_day where user_id = $1 and local_date >= ${since}`;

/**
 * An in-order review in one statement: the card is locked and must still be as it was read ($7
 * reps, $8 last review, $25 met), with the account's zone ($26, when the review took it) and the
 * learner's latest review ($27) as they were read; then the review is logged (a clientId sent
 * before logs nothing), the card takes its next state, and the review is added to its day
 * (review_day). `fresh` false: something read changed since (another review landed first, the zone
 * changed), and nothing was written. It also answers the goal (`goalRead`, lent by settings) and
 * the learner's days of reviews from $28 on as they are after the review (its own day as written,
 * the others as read), so the answer says whether the goal is met and the streak without another
 * statement.
 */
export const logInOrderSql = (goalRead: string) => `
  with card as (
    select 1 from review_card
    where user_id = $1 and chapter_id = $2 and day_id = $3 and phrase_id = $4 and skill = $5
      and reps = $7 and last_reviewed_at is not distinct from $8::timestamptz and met_at = $25
      and ($26::text is null or exists (select from person where id = $1 and time_zone = $26))
      and (select max(received_at) from review_log where user_id = $1) is not distinct from $27::timestamptz
    for update
  ),
  logged as (
    insert into review_log (user_id, client_id, chapter_id, day_id, phrase_id, skill, given, grade, rating,
      hinted, duration_ms, reviewed_at, time_zone, local_date, received_at)
    select $1, $6, $2, $3, $4, $5, $9::jsonb, $10, $11, $12, $13, $14, $15, $16, $17 from card
    on conflict (user_id, client_id) do nothing
    returning 1
  ),
  saved as (
    update review_card set state = $18::jsonb, due = $19, reps = $20, lapses = $21, last_reviewed_at = $22,
      first_reviewed_on = coalesce(first_reviewed_on, $16),
      pinned_at = case when pinned_at <= $14 then null else pinned_at end,
      pinned_by = case when pinned_at <= $14 then null else pinned_by end
    where user_id = $1 and chapter_id = $2 and day_id = $3 and phrase_id = $4 and skill = $5
      and exists (select from logged)
    returning 1
  ),
  counted as (
    insert into review_day (user_id, local_date, time_zone, reviews, counted_ms, last_at)
    select $1, $16, $15, 1, $23, $24 from logged
    on conflict (user_id, local_date, time_zone) do update set
      reviews = review_day.reviews + 1,
      counted_ms = review_day.counted_ms + excluded.counted_ms,
      last_at = greatest(review_day.last_at, excluded.last_at)
    returning local_date, time_zone, reviews, counted_ms, last_at
  )
  select exists (select from card) as fresh, exists (select from logged) as logged,
    (select reviews from counted) as day_reviews, (select counted_ms from counted) as day_counted_ms,
    ${goalRead} as goal,
    ${daysJson(`${dayRows("$28")} and not (local_date = $16 and time_zone = $15)
      union all select local_date, time_zone, reviews, counted_ms, last_at from counted`)} as days`;

/**
 * The goal (`goalRead`, lent by settings) and the learner's days of reviews from $2 on, in one
 * statement: what a review answer that did not take the in-order way judges the goal and the
 * streak by, once it is written.
 */
export const goalDaysSql = (goalRead: string) => `
  select ${goalRead} as goal,
    ${daysJson(dayRows("$2"))} as days`;

/**
 * The round's due cards ($2 is now; new ones among them before the daily limit) with what an answer
 * to each needs (their state, the account's zone, the learner's latest review), and the skill their
 * phrase was last reviewed in, in one statement.
 */
export const ROUND_CARDS = `
  select card.chapter_id, card.day_id, card.phrase_id, card.skill, card.reps, card.lapses, card.due, card.pinned_at,
    card.met_at, card.state, card.last_reviewed_at,
    account.time_zone as account_zone,
    (select max(received_at) from review_log where user_id = $1) as previous_received_at,
    (select sibling.skill from review_card sibling
      where sibling.user_id = $1 and sibling.chapter_id = card.chapter_id and sibling.day_id = card.day_id
        and sibling.phrase_id = card.phrase_id and sibling.last_reviewed_at is not null
      order by sibling.last_reviewed_at desc limit 1) as phrase_last_skill
  from review_card card join person account on account.id = card.user_id
  where card.user_id = $1 and (card.due <= $2 or card.pinned_at is not null)`;

/**
 * A learner's deck as the summary counts it ($1 the user, $3 now, $4-$6 three dates): its size, the
 * started cards due (reviewed before, or pinned by a tutor: never limited), the new cards due (met,
 * never reviewed: the daily limit picks from these), when the next started card falls due, and the
 * new cards started on each of the three dates (yesterday, today and tomorrow in UTC: the learner's
 * today is one of them, whatever their zone).
 */
const DECK_COUNTS = `
  select json_build_object(
    'deck', count(*),
    'startedDue', count(*) filter (where pinned_at is not null or (reps > 0 and due <= $3)),
    'newDue', count(*) filter (where pinned_at is null and reps = 0 and due <= $3),
    'next', min(due) filter (where pinned_at is null and due > $3),
    'startedOn', json_build_array(
      count(*) filter (where first_reviewed_on = $4),
      count(*) filter (where first_reviewed_on = $5),
      count(*) filter (where first_reviewed_on = $6))
  )
  from review_card where user_id = $1`;

/**
 * What a summary reads, in one statement: the reads other modules lend it (each yields one JSON
 * value for the user $1), the learner's days of reviews on or after $2 (oldest last review first),
 * the deck's size, due count ($3 is now) and next due time, and the cards held per day (what the
 * deck's sync compares with the days met).
 */
export const summaryReadsSql = (lent: readonly LentRead<unknown>[]) => `
  select
    json_build_array(${lent.map((read) => read.sql).join(", ")}) as lent,
    ${daysJson(dayRows("$2"))} as days,
    (${DECK_COUNTS}) as counts,
    (select coalesce(json_agg(json_build_object('chapterId', chapter_id, 'dayId', day_id, 'cards', cards)), '[]'::json)
      from (select chapter_id, day_id, count(*)::int as cards from review_card where user_id = $1 group by chapter_id, day_id) held
    ) as held`;

/** A learner's reviews of one local date in one zone, as the summary reads them. */
export interface ReviewDayRow {
  date: string;
  timeZone: string;
  reviews: number;
  durationMs: number;
  lastAt: Date;
}

/**
 * The deck's size, the started cards due now and the new ones, when the next started card not yet
 * due falls due, and the new cards started per date (of the three dates asked about).
 */
export interface DeckCounts {
  deck: number;
  startedDue: number;
  newDue: number;
  next: Date | null;
  startedOn: Map<string, number>;
}

/** The three UTC dates around `at`: the learner's local date is one of them, in any zone. */
export function datesAround(at: Date): [string, string, string] {
  const utc = (days: number) => new Date(at.getTime() + days * 86_400_000).toISOString().slice(0, 10);
  return [utc(-1), utc(0), utc(1)];
}

/** The cards a learner holds of a day. */
export interface HeldCards {
  chapterId: string;
  dayId: string;
  cards: number;
}

/** What ANSWER_CONTEXT reads. */
export interface AnswerContext {
  account_zone: string;
  met_at: Date | null;
  state: unknown;
  reps: number | null;
  last_reviewed_at: Date | null;
  due: Date | null;
  sent_chapter_id: string | null;
  sent_day_id: string | null;
  sent_phrase_id: string | null;
  sent_skill: string | null;
  sent_given: ReviewGiven | null;
  sent_grade: Grade | null;
  sent_rating: number | null;
  sent_local_date: string | null;
  sent_time_zone: string | null;
  previous_received_at: Date | null;
}

/** DECK_COUNTS as the statement answers it. */
export interface StoredCounts {
  deck: number;
  startedDue: number;
  newDue: number;
  next: string | null;
  startedOn: [number, number, number];
}

export function deckCounts(counts: StoredCounts, at: Date): DeckCounts {
  const dates = datesAround(at);
  return {
    deck: counts.deck,
    startedDue: counts.startedDue,
    newDue: counts.newDue,
    next: counts.next === null ? null : new Date(counts.next),
    startedOn: new Map(dates.map((date, index) => [date, counts.startedOn[index]!])),
  };
}
