/** "1 card due", "12 cards due": how the header, My Journey and the review page say it. */
export const cardsDue = (due: number) => `${due} ${due === 1 ? "card" : "cards"} due`;
