import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GuardedFetchError, type FetchFailure } from '../../src/media/fetch-failure';
import { createFetchGuard, type FetchGuard } from '../../src/media/fetch-guard';
import { guardedFetch, guardedRequest } from '../../src/media/guarded-fetch';
import { vetTarget } from '../../src/media/vet-target';
import { startDohServer, startSilentServer, type DohAnswer, type DohServer } from '../support/doh-server';
import {
  answerStatus,
  redirectTo,
  sendBytes,
  stallAfterHeaders,
  startMediaServer,
  streamBytes,
  type MediaRoute,
  type MediaServer,
} from '../support/media-server';
import { createTestCa } from '../support/test-ca';

const IMAGE = Buffer.from('pretend these are image bytes');
const MIB = 1024 * 1024;

let ca: string;
let media: MediaServer;
let media6: MediaServer;
let doh: DohServer;
/** What the DoH server answers; tests add names as they need them. */
const dns = new Map<string, DohAnswer | ((type: 'A' | 'AAAA') => DohAnswer)>();

const here = (path: string) => media.url('media.test', path);

/** Serves IMAGE once `release` is called; `arrived` settles when the request is in. */
function heldUntilReleased() {
  let arrive!: () => void;
  let release!: () => void;
  const arrived = new Promise<void>((resolve) => (arrive = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  const route: MediaRoute = (req, res, body) => {
    arrive();
    void released.then(() => sendBytes(IMAGE)(req, res, body));
  };
  return { route, arrived, release };
}
const held = heldUntilReleased();

/** Serves IMAGE, but the first time a request arrives on a kept-alive connection, closes it instead. */
function closeKeptConnectionOnce(): MediaRoute {
  const served = new WeakSet<object>();
  let closed = false;
  return (req, res, body) => {
    if (served.has(req.socket) && !closed) {
      closed = true;
      req.socket.destroy();
      return;
    }
    served.add(req.socket);
    sendBytes(IMAGE)(req, res, body);
  };
}

beforeAll(async () => {
  ca = (await createTestCa()).certPem;
  doh = await startDohServer({
    answers: (name, type) => {
      const answer = dns.get(name);
      return typeof answer === 'function' ? answer(type) : answer;
    },
  });
  media = await startMediaServer({
    routes: {
      '/image': sendBytes(IMAGE, { 'content-type': 'text/html' }),
      '/closes-kept': closeKeptConnectionOnce(),
      '/held': held.route,
      '/missing': answerStatus(404),
      '/relative': redirectTo('/image', 301),
      '/r1': redirectTo('/image'),
      '/r2': redirectTo('/r1'),
      '/r3': redirectTo('/r2'),
      '/r4': redirectTo('/r3'),
      '/r5': redirectTo('/r4'),
      '/r6': redirectTo('/r5'),
      '/to-http': (_req, res) => res.writeHead(302, { location: `http://media.test:${media.port}/image` }).end(),
      '/to-private-name': (_req, res) => res.writeHead(302, { location: `https://private.test:${media.port}/image` }).end(),
      '/to-private-literal': redirectTo('https://10.0.0.1/image', 307),
      '/to-metadata': redirectTo('https://169.254.169.254/latest/meta-data/'),
      '/to-metadata-name': redirectTo('https://metadata.google.internal/computeMetadata/v1/'),
      '/to-hex-loopback': (_req, res) => res.writeHead(302, { location: `https://0x7f.1:${media.port}/image` }).end(),
      '/to-slashes-hex': (_req, res) => res.writeHead(302, { location: `//0x7f.1:${media.port}/image` }).end(),
      '/to-credentials': (_req, res) => res.writeHead(302, { location: `https://user:pw@media.test:${media.port}/image` }).end(),
      '/to-other-origin': (_req, res) => res.writeHead(307, { location: `https://cdn.media.test:${media.port}/echo` }).end(),
      '/echo': (req, res, body) =>
        res.writeHead(202, { 'content-type': 'application/json' }).end(JSON.stringify({ method: req.method, body: body.toString(), token: req.headers['x-token'] ?? null })),
      '/see-other': redirectTo('/echo', 303),
      '/declared-big': streamBytes(2 * MIB, 2 * MIB),
      '/endless': streamBytes(64 * MIB),
      '/exactly-cap': streamBytes(100_000),
      '/stall': stallAfterHeaders(),
    },
  });
  media6 = await startMediaServer({ listen: '::1', routes: { '/image': sendBytes(IMAGE) } });
  dns.set('media.test', { addresses: ['127.0.0.1'] });
  dns.set('cdn.media.test', { addresses: ['127.0.0.1'] });
  dns.set('private.test', { addresses: ['10.0.0.5'] });
});

afterAll(async () => {
  await Promise.all([media.close(), media6.close(), doh.close()]);
});

const guard = (allowPrivateCidrs: string[] = ['127.0.0.0/8']): FetchGuard =>
  createFetchGuard({ dohResolvers: [doh.url], allowPrivateCidrs, ca });

async function failureOf(promise: Promise<unknown>): Promise<FetchFailure> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(GuardedFetchError);
  return (error as GuardedFetchError).failure;
}

const requestsTo = (path: string) => media.requests.filter((request) => request.path === path).length;

describe('vetting a URL before any connection', () => {
  const privateAnswers = [
    '0.0.0.0', '10.1.2.3', '100.64.0.1', '127.0.0.1', '169.254.1.1', '169.254.169.254', '172.16.5.4', '192.0.0.170',
    '192.0.2.1', '192.168.0.1', '198.18.0.1', '198.51.100.1', '203.0.113.1', '224.0.0.251', '240.0.0.1',
    '255.255.255.255', '100.100.100.200',
    '::1', '::', 'fe80::1', 'fc00::1', 'fd00:ec2::254', 'fec0::1', 'ff02::1', '2001:db8::1', '100::1',
    '::ffff:127.0.0.1', '::ffff:10.0.0.1', '::127.0.0.1', '::a00:1', '2002:7f00:1::', '2002:a9fe:a9fe::',
    '64:ff9b::10.0.0.1', '64:ff9b::7f00:1', '64:ff9b:1::a00:1', '2001::1',
  ];

  it.each(privateAnswers)('refuses a name that DoH resolves to %s', async (address) => {
    const name = `ssrf-${address.replace(/[.:]/g, '-')}.test`.replace(/-+/g, '-');
    dns.set(name, { addresses: [address] });
    expect(await failureOf(vetTarget(`https://${name}/x.jpg`, guard([])))).toBe('refused_address');
  });

  it.each(privateAnswers)('refuses the IP literal %s in a URL', async (address) => {
    // Written as the URL parser writes it: other IPv6 spellings are refused earlier, as invalid URLs.
    const host = address.includes(':') ? new URL(`https://[${address}]/`).hostname : address;
    expect(await failureOf(vetTarget(`https://${host}/x.jpg`, guard([])))).toBe('refused_address');
  });

  it.each(['https://0x7f.1/', 'https://2130706433/', 'https://0177.0.0.1/', 'https://127.1/', 'https://0x7f000001/', 'https://10.0.1/'])(
    'refuses the non-canonical IPv4 literal %s as an invalid URL',
    async (url) => {
      expect(await failureOf(vetTarget(url, guard(['0.0.0.0/0'])))).toBe('invalid_url');
    },
  );

  it.each(['http://media.test/x', 'https://user:pw@media.test/x', 'ftp://media.test/x', 'not a url'])(
    'refuses %s as an invalid URL',
    async (url) => {
      expect(await failureOf(vetTarget(url, guard()))).toBe('invalid_url');
    },
  );

  it.each(['localhost', 'metadata.google.internal', 'metadata', 'instance-data', 'db.internal', 'app.localhost'])(
    'refuses the host name %s without asking DNS',
    async (name) => {
      const before = doh.queries.length;
      expect(await failureOf(vetTarget(`https://${name}/`, guard(['0.0.0.0/0', '::/0'])))).toBe('refused_name');
      expect(doh.queries.length).toBe(before);
    },
  );

  it('refuses a name with one public and one private address', async () => {
    dns.set('mixed.test', { addresses: ['93.184.215.14', '10.0.0.7'] });
    expect(await failureOf(vetTarget('https://mixed.test/', guard([])))).toBe('refused_address');
    dns.set('mixed6.test', (type) => ({ addresses: type === 'A' ? ['93.184.215.14'] : ['fd00::7'] }));
    expect(await failureOf(vetTarget('https://mixed6.test/', guard([])))).toBe('refused_address');
  });

  it('refuses a name whose CNAME leads to a private address', async () => {
    dns.set('friendly.test', { cname: 'inside.test' });
    dns.set('inside.test', { addresses: ['192.168.10.10'] });
    expect(await failureOf(vetTarget('https://friendly.test/', guard([])))).toBe('refused_address');
  });

  it('reports a name that does not exist as a DNS failure', async () => {
    expect(await failureOf(vetTarget('https://nowhere.test/', guard()))).toBe('dns_failed');
  });

  it('lets a public name through with every address it resolved to', async () => {
    dns.set('public.test', (type) => ({ addresses: type === 'A' ? ['93.184.215.14'] : ['2606:4700::6810:84e5'] }));
    const target = await vetTarget('https://public.test/a.png', guard([]));
    expect(target.addresses).toEqual(['93.184.215.14', '2606:4700::6810:84e5']);
    expect(target.servername).toBe('public.test');
  });
});

describe('guarded fetch', () => {
  it('fetches over verified TLS from the vetted address, sending the host name only in SNI and Host', async () => {
    const response = await guardedFetch(here('/image'), { guard: guard(), maxBytes: MIB });
    expect(response.status).toBe(200);
    expect(response.body.equals(IMAGE)).toBe(true);
    expect(response.url).toBe(here('/image'));
    const connection = media.connections.at(-1);
    expect(connection).toEqual({ localAddress: '127.0.0.1', servername: 'media.test', resumed: false });
    expect(media.requests.at(-1)?.headers.host).toBe(`media.test:${media.port}`);
  });

  it('fetches over IPv6 when the name has an allow-listed AAAA address', async () => {
    dns.set('v6.media.test', (type) => ({ addresses: type === 'AAAA' ? ['::1'] : [] }));
    const response = await guardedFetch(media6.url('v6.media.test', '/image'), { guard: guard(['::1/128']), maxBytes: MIB });
    expect(response.body.equals(IMAGE)).toBe(true);
    expect(media6.connections.at(-1)).toEqual({ localAddress: '::1', servername: 'v6.media.test', resumed: false });
  });

  it('fetches from an allow-listed IP literal, checking the certificate against the IP', async () => {
    const response = await guardedFetch(media.url('127.0.0.1', '/image'), { guard: guard(), maxBytes: MIB });
    expect(response.body.equals(IMAGE)).toBe(true);
    expect(media.connections.at(-1)?.servername).toBe(false);
  });

  it('keeps the connection for the next GET from the same server, and resumes its TLS session on a new one', async () => {
    const same = guard();
    const before = media.connections.length;
    await guardedFetch(here('/image'), { guard: same, maxBytes: MIB });
    // This one takes the kept connection and holds it; the next needs one more, which resumes the session.
    const holding = guardedFetch(here('/held'), { guard: same, maxBytes: MIB });
    await held.arrived;
    expect((await guardedFetch(here('/image'), { guard: same, maxBytes: MIB })).body.equals(IMAGE)).toBe(true);
    held.release();
    expect((await holding).body.equals(IMAGE)).toBe(true);
    expect(media.connections.slice(before)).toEqual([
      { localAddress: '127.0.0.1', servername: 'media.test', resumed: false },
      { localAddress: '127.0.0.1', servername: 'media.test', resumed: true },
    ]);
    // Another name on the same address gets a connection of its own and a full handshake, with
    // its own certificate check.
    await guardedFetch(media.url('cdn.media.test', '/image'), { guard: same, maxBytes: MIB });
    expect(media.connections.at(-1)).toEqual({ localAddress: '127.0.0.1', servername: 'cdn.media.test', resumed: false });
    expect(media.connections.length).toBe(before + 3);
  });

  it('sends a GET again on a new connection when the server closed the kept one as the request went out', async () => {
    const same = guard();
    const before = media.connections.length;
    await guardedFetch(here('/closes-kept'), { guard: same, maxBytes: MIB });
    const response = await guardedFetch(here('/closes-kept'), { guard: same, maxBytes: MIB });
    expect(response.body.equals(IMAGE)).toBe(true);
    expect(media.connections.slice(before).map((c) => c.resumed)).toEqual([false, true]);
  });

  it('refuses loopback when nothing is allow-listed, without connecting', async () => {
    const before = media.connections.length;
    expect(await failureOf(guardedFetch(here('/image'), { guard: guard([]), maxBytes: MIB }))).toBe('refused_address');
    expect(media.connections.length).toBe(before);
  });

  it('refuses a server whose certificate does not name the host', async () => {
    dns.set('impostor.test', { addresses: ['127.0.0.1'] });
    const before = media.requests.length;
    expect(await failureOf(guardedFetch(media.url('impostor.test', '/image'), { guard: guard(), maxBytes: MIB }))).toBe(
      'connect_failed',
    );
    expect(media.requests.length).toBe(before);
  });

  it('connects only to the address it vetted, even when the name rebinds to a private one', async () => {
    let answered = 0;
    dns.set('rebind.media.test', (type) => {
      if (type === 'AAAA') return { addresses: [] };
      answered++;
      return { addresses: [answered === 1 ? '127.0.0.1' : '10.0.0.1'], ttl: 0 };
    });
    const connectionsBefore = media.connections.length;

    const response = await guardedFetch(media.url('rebind.media.test', '/image'), {
      guard: guard(),
      maxBytes: MIB,
    });
    expect(response.body.equals(IMAGE)).toBe(true);
    // Resolved exactly once for the whole fetch, and the one connection went to that answer.
    expect(doh.queries.filter((query) => query.name === 'rebind.media.test' && query.type === 'A')).toHaveLength(1);
    expect(media.connections.slice(connectionsBefore)).toEqual([{ localAddress: '127.0.0.1', servername: 'rebind.media.test', resumed: false }]);

    expect(await failureOf(guardedFetch(media.url('rebind.media.test', '/image'), { guard: guard(), maxBytes: MIB }))).toBe(
      'refused_address',
    );
    expect(media.connections.length).toBe(connectionsBefore + 1);
  });

  it('treats a non-2xx answer as a failure carrying the status', async () => {
    const error = await guardedFetch(here('/missing'), { guard: guard(), maxBytes: MIB }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(GuardedFetchError);
    expect((error as GuardedFetchError).failure).toBe('http_status');
    expect((error as GuardedFetchError).status).toBe(404);
  });
});

describe('redirects', () => {
  it('follows five redirects, vetting each hop', async () => {
    const response = await guardedFetch(here('/r5'), { guard: guard(), maxBytes: MIB });
    expect(response.body.equals(IMAGE)).toBe(true);
    expect(response.redirects).toEqual(['/r5', '/r4', '/r3', '/r2', '/r1'].map(here));
    expect(response.url).toBe(here('/image'));
  });

  it('refuses a sixth redirect', async () => {
    const before = requestsTo('/image');
    expect(await failureOf(guardedFetch(here('/r6'), { guard: guard(), maxBytes: MIB }))).toBe('too_many_redirects');
    expect(requestsTo('/image')).toBe(before);
  });

  it('follows a relative redirect', async () => {
    const response = await guardedFetch(here('/relative'), { guard: guard(), maxBytes: MIB });
    expect(response.url).toBe(here('/image'));
  });

  it.each([
    ['/to-http', 'redirect_refused'],
    ['/to-credentials', 'redirect_refused'],
    ['/to-hex-loopback', 'redirect_refused'],
    ['/to-slashes-hex', 'redirect_refused'],
    ['/to-private-name', 'refused_address'],
    ['/to-private-literal', 'refused_address'],
    ['/to-metadata', 'refused_address'],
    ['/to-metadata-name', 'refused_name'],
  ] as const)('refuses the redirect of %s (%s) and never follows it', async (path, failure) => {
    const before = requestsTo('/image');
    expect(await failureOf(guardedFetch(here(path), { guard: guard(), maxBytes: MIB }))).toBe(failure);
    expect(requestsTo('/image')).toBe(before);
  });

  it('returns a redirect as the answer when told not to follow redirects', async () => {
    const response = await guardedRequest(here('/r1'), { guard: guard(), maxBytes: MIB, followRedirects: false });
    expect(response.status).toBe(302);
    expect(response.headers.location).toBe('/image');
    expect(response.redirects).toEqual([]);
  });
});

describe('requests with a body', () => {
  it('sends a POST with its body and headers and returns any status with timing', async () => {
    const response = await guardedRequest(here('/echo'), {
      guard: guard(),
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-token': 'secret' },
      body: '{"event":"swap.completed"}',
      maxBytes: 64 * 1024,
      followRedirects: false,
    });
    expect(response.status).toBe(202);
    expect(JSON.parse(response.body.toString())).toEqual({ method: 'POST', body: '{"event":"swap.completed"}', token: 'secret' });
    expect(media.requests.at(-1)?.headers['content-type']).toBe('application/json');
    expect(response.timing.totalMs).toBeGreaterThan(0);
    expect(response.timing.dnsMs).toBeLessThanOrEqual(response.timing.totalMs);
  });

  it('turns a POST into a GET on 303', async () => {
    const response = await guardedRequest(here('/see-other'), { guard: guard(), method: 'POST', body: 'x', maxBytes: MIB });
    expect(JSON.parse(response.body.toString())).toMatchObject({ method: 'GET', body: '' });
  });

  it('keeps method and body on 307 but leaves caller headers with the original origin', async () => {
    const response = await guardedRequest(here('/to-other-origin'), {
      guard: guard(),
      method: 'POST',
      headers: { 'x-token': 'secret' },
      body: 'payload',
      maxBytes: MIB,
    });
    expect(response.url).toBe(media.url('cdn.media.test', '/echo'));
    expect(JSON.parse(response.body.toString())).toEqual({ method: 'POST', body: 'payload', token: null });
  });
});

describe('byte cap and timeouts', () => {
  it('refuses a body whose Content-Length exceeds the cap before reading it', async () => {
    expect(await failureOf(guardedFetch(here('/declared-big'), { guard: guard(), maxBytes: MIB }))).toBe('too_large');
    expect(await media.requests.at(-1)?.closed).toEqual({ finished: false });
  });

  it('aborts a body without Content-Length as soon as it passes the cap', async () => {
    expect(await failureOf(guardedFetch(here('/endless'), { guard: guard(), maxBytes: 100_000 }))).toBe('too_large');
    expect(await media.requests.at(-1)?.closed).toEqual({ finished: false });
  });

  it('accepts a body of exactly the cap', async () => {
    const response = await guardedFetch(here('/exactly-cap'), { guard: guard(), maxBytes: 100_000 });
    expect(response.body.length).toBe(100_000);
  });

  it('gives up when the whole exchange outlasts the total timeout', async () => {
    // The body never ends, so only the timeout can end the exchange; it leaves time to get that far.
    expect(await failureOf(guardedFetch(here('/stall'), { guard: guard(), maxBytes: MIB, timeoutMs: 2_000 }))).toBe('timeout');
    expect(media.requests.at(-1)?.path).toBe('/stall');
    expect(await media.requests.at(-1)?.closed).toEqual({ finished: false });
  });

  it('gives up on a host that accepts TCP but never completes TLS', async () => {
    const silent = await startSilentServer();
    try {
      const url = silent.url.replace('/dns-query', '/image');
      expect(await failureOf(guardedFetch(url, { guard: guard(), maxBytes: MIB, connectTimeoutMs: 200 }))).toBe(
        'connect_failed',
      );
      await silent.connected;
    } finally {
      await silent.close();
    }
  });

  it('stops when the caller aborts, with the caller’s reason', async () => {
    const controller = new AbortController();
    const reason = new Error('shutting down');
    const pending = guardedFetch(here('/stall'), { guard: guard(), maxBytes: MIB, signal: controller.signal });
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
  });
});
