import { z } from 'zod';

export const MAX_URL_LENGTH = 2048;

const DOTTED_QUAD = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/**
 * The host exactly as written in the URL text, before WHATWG parsing normalises it. For https the
 * parser ends the authority at a backslash too (`https://0x7f.1\@127.0.0.1/` has host `0x7f.1`),
 * so the backslash ends it here as well.
 */
function rawHost(text: string): string {
  const authority = /^[a-z][a-z0-9+.-]*:\/\/([^/\\?#]*)/i.exec(text)?.[1] ?? '';
  const host = authority.slice(authority.lastIndexOf('@') + 1);
  if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1);
  const colon = host.lastIndexOf(':');
  return (colon === -1 ? host : host.slice(0, colon)).toLowerCase();
}

/**
 * Why a URL is not an acceptable public HTTPS URL, or null when it is. IP literals must be
 * written in canonical form: `0x7f.1`, `2130706433` or `0177.0.0.1` all parse to loopback, as do
 * `[0:0:0:0:0:0:0:1]` and `[::FFFF:127.0.0.1]`, and such spellings are only ever used to sneak
 * past address filters. Canonical IPv6 is what the URL parser itself writes: lower case, zeros
 * compressed, no embedded IPv4.
 */
export function httpsUrlProblem(text: string): string | null {
  // The URL parser would percent-encode these, but the text itself is stored and echoed.
  if (/[\p{Cc}\p{Cs}]/u.test(text)) return 'must not contain control characters or unpaired surrogates';
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.protocol !== 'https:') return 'must use https';
  if (!url.hostname) return 'must have a host';
  if (url.username || url.password) return 'must not contain credentials';
  if (DOTTED_QUAD.test(url.hostname) && rawHost(text) !== url.hostname) {
    return 'must write an IP address in canonical dotted-decimal form';
  }
  if (url.hostname.startsWith('[') && rawHost(text) !== url.hostname) {
    return `must write an IPv6 address in canonical form, as ${url.hostname}`;
  }
  return null;
}

export const HttpsUrlSchema = z
  .string()
  .max(MAX_URL_LENGTH)
  .superRefine((value, ctx) => {
    const problem = httpsUrlProblem(value);
    if (problem) ctx.addIssue({ code: z.ZodIssueCode.custom, message: problem });
  })
  .describe('Absolute public HTTPS URL (no credentials, at most 2048 characters).');
