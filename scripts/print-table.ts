/**
 * Prints a benchmark's table: the first column left-aligned, the others right-aligned, each as wide
 * as its widest cell, two spaces apart; every line starts with `indent`.
 */
export function printTable(header: string[], rows: (string | number)[][], indent = "") {
  const widths = header.map((cell, column) => Math.max(cell.length, ...rows.map((row) => String(row[column]).length)));
  for (const row of [header, ...rows]) {
    const cells = row.map((cell, column) =>
      column === 0 ? String(cell).padEnd(widths[0]!) : String(cell).padStart(widths[column]!),
    );
    console.log(`${indent}${cells.join("  ")}`);
  }
}
