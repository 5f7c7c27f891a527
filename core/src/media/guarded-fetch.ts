import { httpsUrlProblem } from '@doppel/contract';
import type { IncomingHttpHeaders } from 'node:http';
import { Agent, request, type RequestOptions } from 'node:https';
import { createSecureContext, type ConnectionOptions, type SecureContext, type TLSSocket } from 'node:tls';
import { GuardedFetchError } from './fetch-failure';
import type { FetchGuard } from './fetch-guard';
import { readCappedBody } from './read-capped-body';
import { vetTarget, type VettedTarget } from './vet-target';

/**
 * HTTPS requests to caller-supplied URLs that can only reach vetted public addresses. Each hop
 * is resolved once and the socket is opened to the vetted address itself (the host name only
 * goes into SNI, certificate verification and the Host header), so a DNS answer that changes
 * between vetting and connecting cannot redirect us (no DNS-rebinding window).
 */

export const MAX_REDIRECTS = 5;
export const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;
export const DEFAULT_MEDIA_TIMEOUT_MS = 30_000;
export const DEFAULT_WEBHOOK_TIMEOUT_MS = 15_000;

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const USER_AGENT = 'Doppel-Fetcher/1';
/** TLS sessions remembered per guard; beyond this the oldest is dropped. */
const MAX_TLS_SESSIONS = 1_000;
/** An idle kept-alive connection is closed after this (servers commonly close theirs after 5 s). */
const IDLE_CONNECTION_MS = 4_000;

/**
 * What each guard's connections share: one TLS context (its trusted roots, built once rather than
 * per connection), the TLS sessions by host name, vetted address and port, so a new connection to
 * the same server resumes its session instead of a full handshake, and idle connections kept for
 * the next GET. The agent pools connections by the address connected to, the port and the name
 * sent in SNI (node's https.Agent names them so), which are what a fetch vets and verifies: a
 * kept connection is only ever reused for the same vetted address and certificate name.
 */
interface TlsState {
  readonly context: SecureContext;
  readonly sessions: Map<string, Buffer>;
  readonly agent: Agent;
}
const tlsStates = new WeakMap<FetchGuard, TlsState>();

function tlsStateOf(guard: FetchGuard): TlsState {
  let state = tlsStates.get(guard);
  if (!state) {
    state = {
      context: createSecureContext(guard.ca ? { ca: guard.ca } : {}),
      sessions: new Map(),
      agent: new Agent({ keepAlive: true, timeout: IDLE_CONNECTION_MS, scheduling: 'lifo' }),
    };
    tlsStates.set(guard, state);
  }
  return state;
}

export interface GuardedRequestOptions {
  readonly guard: FetchGuard;
  readonly method?: 'GET' | 'POST';
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string | Buffer;
  /** The body is aborted as soon as it grows past this, whatever Content-Length says. */
  readonly maxBytes: number;
  /** Asked for every chunk before it is kept; false aborts the body (`over_budget`). */
  readonly admit?: (bytes: number) => boolean;
  /** False for webhooks: a 3xx is returned as the response instead of being followed. */
  readonly followRedirects?: boolean;
  readonly maxRedirects?: number;
  /** TCP plus TLS handshake, per address tried. */
  readonly connectTimeoutMs?: number;
  /** Everything: DNS, every hop, the whole body. */
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
}

export interface GuardedResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
  /** The URL that produced this response, after redirects. */
  readonly url: string;
  /** Every URL that answered with a redirect, in order. */
  readonly redirects: readonly string[];
  readonly timing: { readonly dnsMs: number; readonly totalMs: number };
}

interface Hop {
  readonly method: 'GET' | 'POST';
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | Buffer | undefined;
}

/** Any method, any status: the caller decides what a non-2xx means (webhook retries). */
export async function guardedRequest(url: string, options: GuardedRequestOptions): Promise<GuardedResponse> {
  const started = performance.now();
  const timeoutMs = options.timeoutMs ?? DEFAULT_MEDIA_TIMEOUT_MS;
  const deadline = AbortSignal.any([AbortSignal.timeout(timeoutMs), ...(options.signal ? [options.signal] : [])]);
  const maxRedirects = options.maxRedirects ?? MAX_REDIRECTS;
  const redirects: string[] = [];
  let dnsMs = 0;
  let hop: Hop = { method: options.method ?? 'GET', headers: options.headers ?? {}, body: options.body };
  let current = url;

  try {
    for (;;) {
      const dnsStarted = performance.now();
      const target = await vetTarget(current, options.guard, deadline);
      dnsMs += performance.now() - dnsStarted;
      const response = await exchangeWithAny(target, hop, options, deadline);
      const location = response.headers.location;
      if (options.followRedirects === false || !REDIRECT_STATUSES.has(response.status) || !location) {
        const timing = { dnsMs, totalMs: performance.now() - started };
        return { ...response, url: target.url.href, redirects, timing };
      }
      if (redirects.length >= maxRedirects) {
        throw new GuardedFetchError('too_many_redirects', `more than ${maxRedirects} redirects`);
      }
      redirects.push(target.url.href);
      const next = redirectTarget(location, target.url);
      hop = nextHop(hop, response.status, target.url, next);
      current = next.href;
    }
  } catch (error) {
    throw asFetchError(error, deadline, options.signal, timeoutMs);
  }
}

/** A GET that must end in a 2xx; anything else is a GuardedFetchError. */
export async function guardedFetch(
  url: string,
  options: Omit<GuardedRequestOptions, 'method' | 'body'>,
): Promise<GuardedResponse> {
  const response = await guardedRequest(url, options);
  if (response.status < 200 || response.status > 299) {
    throw new GuardedFetchError('http_status', `${response.url} answered HTTP ${response.status}`, {
      status: response.status,
    });
  }
  return response;
}

/**
 * The next URL, checked as written: WHATWG parsing would turn `https://0x7f.1/` into
 * `https://127.0.0.1/`, so a non-canonical literal must be caught before resolution.
 */
function redirectTarget(location: string, base: URL): URL {
  const text = location.trim();
  const absolute = /^[\\/]{2}/.test(text) ? `${base.protocol}${text}` : text;
  if (URL.canParse(absolute)) {
    const problem = httpsUrlProblem(absolute);
    if (problem) throw new GuardedFetchError('redirect_refused', `redirect target ${problem}`);
  }
  if (!URL.canParse(text, base.href)) throw new GuardedFetchError('redirect_refused', 'redirect target is not a URL');
  const next = new URL(text, base);
  const problem = httpsUrlProblem(next.href);
  if (problem) throw new GuardedFetchError('redirect_refused', `redirect target ${problem}`);
  return next;
}

/** 303, and 301/302 after a POST, turn into a GET as browsers do; caller headers stay with their origin. */
function nextHop(hop: Hop, status: number, from: URL, to: URL): Hop {
  const headers = from.origin === to.origin ? hop.headers : {};
  const becomesGet = status === 303 || ((status === 301 || status === 302) && hop.method === 'POST');
  return becomesGet ? { method: 'GET', headers, body: undefined } : { ...hop, headers };
}

interface RawResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

/** Tries the vetted addresses in order; only a failure before the TLS handshake moves on. */
async function exchangeWithAny(
  target: VettedTarget,
  hop: Hop,
  options: GuardedRequestOptions,
  deadline: AbortSignal,
): Promise<RawResponse> {
  let lastFailure: unknown;
  for (const address of target.addresses) {
    deadline.throwIfAborted();
    try {
      return await exchange(target, address, hop, options, deadline, { reuse: true }).catch((error: unknown) => {
        if (!(error instanceof StaleConnection)) throw error;
        // The server closed the kept connection as the request went out: once more, on a new one.
        return exchange(target, address, hop, options, deadline, { reuse: false });
      });
    } catch (error) {
      if (!(error instanceof ConnectFailure)) throw error;
      lastFailure = error.cause;
    }
  }
  throw new GuardedFetchError('connect_failed', `could not connect to ${target.url.host}`, { cause: lastFailure });
}

class ConnectFailure extends Error {}
/** A kept-alive connection failed before any answer to a GET: the request may be sent again. */
class StaleConnection extends Error {}

function exchange(
  target: VettedTarget,
  address: string,
  hop: Hop,
  options: GuardedRequestOptions,
  deadline: AbortSignal,
  connection: { reuse: boolean },
): Promise<RawResponse> {
  const { url, servername } = target;
  const following = options.followRedirects !== false;
  const headers: Record<string, string | number> = {
    'user-agent': USER_AGENT,
    'accept-encoding': 'identity',
    ...hop.headers,
    host: url.host,
  };
  if (hop.body !== undefined) headers['content-length'] = Buffer.byteLength(hop.body);

  const { context, sessions, agent } = tlsStateOf(options.guard);
  const sessionKey = `${servername ?? ''} ${address} ${url.port || 443}`;
  // Only a GET is sent again on a new connection when a kept one turns out closed; anything
  // else (a webhook's POST) gets a connection of its own.
  const pooled = connection.reuse && hop.method === 'GET';
  return new Promise((resolve, reject) => {
    let handshakeDone = false;
    let answered = false;
    const fail = (error: unknown) => {
      if (req.reusedSocket && !answered) reject(new StaleConnection('kept connection closed', { cause: error }));
      else reject(handshakeDone ? error : new ConnectFailure('connect failed', { cause: error }));
    };
    // https passes the TLS options through to tls.connect, whose types name secureContext.
    const requestOptions: RequestOptions & Pick<ConnectionOptions, 'secureContext'> = {
      host: address,
      port: url.port || 443,
      path: `${url.pathname}${url.search}`,
      method: hop.method,
      headers,
      agent: pooled ? agent : false,
      signal: deadline,
      ...(servername ? { servername } : {}),
      secureContext: context,
      ...(sessions.has(sessionKey) ? { session: sessions.get(sessionKey) } : {}),
    };
    const req = request(requestOptions);
    const connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
    const connectTimer = setTimeout(
      () => req.destroy(new Error(`no TLS connection within ${connectTimeoutMs} ms`)),
      connectTimeoutMs,
    );
    req.on('socket', (socket: TLSSocket) => {
      if (req.reusedSocket) {
        handshakeDone = true;
        clearTimeout(connectTimer);
        return;
      }
      socket.once('secureConnect', () => {
        handshakeDone = true;
        clearTimeout(connectTimer);
      });
      socket.on('session', (session: Buffer) => {
        sessions.delete(sessionKey);
        if (sessions.size >= MAX_TLS_SESSIONS) sessions.delete(sessions.keys().next().value!);
        sessions.set(sessionKey, session);
      });
    });
    req.on('close', () => clearTimeout(connectTimer));
    req.on('error', fail);
    req.on('response', (res) => {
      answered = true;
      const status = res.statusCode ?? 0;
      if (following && REDIRECT_STATUSES.has(status) && res.headers.location) {
        // The body of a redirect is never needed; do not spend bandwidth on it.
        res.destroy();
        resolve({ status, headers: res.headers, body: Buffer.alloc(0) });
        return;
      }
      readCappedBody(res, {
        maxBytes: options.maxBytes,
        tooLarge: (what) => new GuardedFetchError('too_large', `${what} exceeds the cap of ${options.maxBytes} bytes`),
        broken: () => new GuardedFetchError('broken_response', 'connection closed before the body ended'),
        admit: options.admit,
        refused: () => new GuardedFetchError('over_budget', 'the media intake budget of this process is used up'),
      }).then((body) => resolve({ status, headers: res.headers, body }), reject);
    });
    req.end(hop.body);
  });
}

function asFetchError(error: unknown, deadline: AbortSignal, signal: AbortSignal | undefined, timeoutMs: number): unknown {
  if (signal?.aborted) return signal.reason;
  if (deadline.aborted) return new GuardedFetchError('timeout', `no complete response within ${timeoutMs} ms`, { cause: error });
  if (error instanceof GuardedFetchError) return error;
  return new GuardedFetchError('broken_response', 'the request failed', { cause: error });
}
