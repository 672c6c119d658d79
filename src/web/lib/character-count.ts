const number = new Intl.NumberFormat("en");

/** How much of a text box's limit is used, as every counter says it: "1,234 / 4,000 characters". */
export function characterCount(used: number, limit: number): string {
  return `${number.format(used)} / ${number.format(limit)} characters`;
}
