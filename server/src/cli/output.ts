import type { Balances } from '@doppel/core/accounts/credits';
import { creditBuckets } from '@doppel/core/db/schema';
import type { Result } from './command';

/** Aligned `label  value` lines. */
export function fields(rows: [label: string, value: string | number][]): string {
  const width = Math.max(...rows.map(([label]) => label.length));
  return rows.map(([label, value]) => `${label.padEnd(width)}  ${value}`).join('\n');
}

export function table(headers: string[], rows: string[][]): string {
  const widths = headers.map((header, i) => Math.max(header.length, ...rows.map((row) => row[i]!.length)));
  return [headers, ...rows].map((row) => row.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd()).join('\n');
}

/** UTC to the second: listings stay narrow and sort as text. */
export function timestamp(date: Date | null, absent = '-'): string {
  return date ? date.toISOString().replace(/\.\d{3}Z$/, 'Z') : absent;
}

export function balanceFields(balances: Balances): [string, number][] {
  return [...creditBuckets.map((bucket): [string, number] => [bucket, balances[bucket]]), ['total', balances.total]];
}

/** What goes to stdout and stderr; JSON output is always a single document. */
export function render(result: Result, json: boolean): { stdout: string; stderr: string } {
  return {
    stdout: json ? `${JSON.stringify(result.json, null, 2)}\n` : `${result.text}\n`,
    stderr: result.notice ? `${result.notice}\n` : '',
  };
}
