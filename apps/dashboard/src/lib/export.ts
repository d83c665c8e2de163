/** A cell of an exported table: numbers stay numbers, a missing figure is an empty cell. */
export type ExportCell = string | number | boolean | null | undefined;

/** An exported table: its column names, then one array of cells per row, in the columns' order. */
export interface ExportTable {
  columns: readonly string[];
  rows: readonly (readonly ExportCell[])[];
}

/** One CSV field per RFC 4180: quoted (quotes doubled) only when it holds a quote, a comma or a line break. */
function csvField(cell: ExportCell): string {
  if (cell === null || cell === undefined) return '';
  const text = String(cell);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The table as RFC 4180 CSV: a header row, CRLF between records. */
export function toCsv(table: ExportTable): string {
  return [table.columns, ...table.rows].map((row) => row.map(csvField).join(',')).join('\r\n') + '\r\n';
}

/** The table as JSON: one object per row, keyed by column; a missing figure is null, not left out. */
export function toJsonRows(table: ExportTable): Record<string, ExportCell>[] {
  return table.rows.map((row) => Object.fromEntries(table.columns.map((column, index) => [column, row[index] ?? null])));
}

/** Hands the text to the browser as a file download. */
export function download(filename: string, text: string, type: 'text/csv' | 'application/json'): void {
  const url = URL.createObjectURL(new Blob([text], { type: `${type};charset=utf-8` }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked later, not at once: a browser may still be reading the blob when click() returns (FileSaver.js waits 40 s).
  setTimeout(() => URL.revokeObjectURL(url), 40_000);
}
