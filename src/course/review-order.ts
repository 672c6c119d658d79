import { type LocalDate, localDate, PRODUCING_SKILLS, REVIEW_SKILLS, type ReviewSkill } from "./review-rules";

/**
 * Which due cards a review round serves, and in what order (docs/decisions/055-new-cards-per-day.md).
 * Pure, so the rules are tested without a database.
 */

/** How many more new cards may enter the due pile today: the daily limit less those started today. */
export const newCardsLeft = (perDay: number, startedToday: number) => Math.max(0, perDay - startedToday);

/**
 * Where a new card stands among the new cards of phrases met at the same moment: the first card of
 * every phrase before the second of any, so that a day's new cards spread over its phrases and a
 * phrase's skills enter on different days. A phrase starts with its meaning, read or heard (the two
 * alternate from one phrase to the next, so a round's new cards mix them); the Malay itself, built
 * or said aloud (the two alternate likewise), comes once the phrase has been reviewed another way.
 */
export function newCardRank(skill: ReviewSkill, phraseIndex: number): number {
  const producing = PRODUCING_SKILLS.includes(skill) ? 2 : 0;
  return producing + ((REVIEW_SKILLS.indexOf(skill) + phraseIndex) % 2);
}

/** A due card as a round picks and orders it: its phrase (any key naming one phrase), skill, and whether it is new. */
export interface RoundCandidate {
  phrase: string;
  skill: ReviewSkill;
  isNew: boolean;
}

/**
 * Up to `size` of the due cards (given in priority order), ordered for the learner:
 * - one card per phrase before a second of any phrase (the rest stay due for a later round);
 * - of a phrase's due cards, one already started before a new one (a review is not put off for a
 *   new card); among those, one in another skill than the phrase was last reviewed in (`lastSkill`),
 *   so a phrase is asked a different way from one review to the next; a phrase never reviewed is
 *   not first asked for the Malay (recalled or said);
 * - among those, the skill the round has served least so far, then the first in priority;
 * - no two cards in a row of the same skill or the same phrase, wherever the round allows it: twenty
 *   "What does X mean?" in a row become meaning, listening and recall in turn.
 */
export function roundOf<T extends RoundCandidate>(
  due: readonly T[],
  size: number,
  lastSkill: (phrase: string) => ReviewSkill | null,
): T[] {
  const byPhrase = new Map<string, T[]>();
  for (const card of due) {
    const cards = byPhrase.get(card.phrase);
    if (cards) cards.push(card);
    else byPhrase.set(card.phrase, [card]);
  }
  const groups = [...byPhrase.values()];
  const picked: T[] = [];
  const served = new Map<ReviewSkill, number>();
  while (picked.length < size && groups.some((cards) => cards.length > 0)) {
    for (const cards of groups) {
      if (picked.length === size) break;
      if (cards.length === 0) continue;
      const last = lastSkill(cards[0]!.phrase);
      const avoid: readonly ReviewSkill[] = last ? [last] : PRODUCING_SKILLS;
      const started = cards.filter((card) => !card.isNew);
      const kind = started.length > 0 ? started : cards;
      const preferred = kind.filter((card) => !avoid.includes(card.skill));
      const candidates = preferred.length > 0 ? preferred : kind;
      const card = candidates.reduce((best, each) =>
        (served.get(each.skill) ?? 0) < (served.get(best.skill) ?? 0) ? each : best,
      );
      cards.splice(cards.indexOf(card), 1);
      served.set(card.skill, (served.get(card.skill) ?? 0) + 1);
      picked.push(card);
    }
  }
  return interleaved(picked);
}

/** The cards in their order, each next one the first that differs from the one before in skill and phrase. */
function interleaved<T extends RoundCandidate>(cards: readonly T[]): T[] {
  const left = [...cards];
  const ordered: T[] = [];
  while (left.length > 0) {
    const previous = ordered.at(-1);
    let index = 0;
    if (previous) {
      const unlike = left.findIndex((card) => card.skill !== previous.skill && card.phrase !== previous.phrase);
      const otherPhrase = left.findIndex((card) => card.phrase !== previous.phrase);
      index = unlike >= 0 ? unlike : Math.max(otherPhrase, 0);
    }
    ordered.push(...left.splice(index, 1));
  }
  return ordered;
}

/**
 * When the next local day begins in a time zone after `at` (to the minute): when the new cards held
 * back today may enter. Searched by the zone's own dates, so offsets of half an hour and daylight
 * saving need no table.
 */
export function nextLocalDay(at: Date, timeZone: string): Date {
  const today: LocalDate = localDate(at, timeZone);
  let before = at.getTime();
  let after = before + 27 * 3_600_000;
  while (after - before > 60_000) {
    const middle = before + Math.floor((after - before) / 2);
    if (localDate(new Date(middle), timeZone) === today) before = middle;
    else after = middle;
  }
  return new Date(Math.floor(after / 60_000) * 60_000);
}
