import autocannon from 'autocannon';

/**
 * The load generator of `pnpm bench:api`, run in a process of its own so that it never shares a
 * CPU thread with the server it measures. Reads one scenario as JSON from argv, rotates the
 * request list across requests, and prints one line of JSON with the figures.
 */
export interface LoadScenario {
  url: string;
  connections: number;
  durationSeconds: number;
  /** Requests sent in turn, one after another, across all connections. */
  requests: { method: 'GET' | 'POST'; path: string; headers: Record<string, string>; body?: string }[];
}

export interface LoadResult {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  total: number;
  /** Responses by status code. */
  statuses: Record<string, number>;
  errors: number;
}

const scenario = JSON.parse(process.argv[2]!) as LoadScenario;
let next = 0;
const statuses: Record<string, number> = {};

const result = await autocannon({
  url: scenario.url,
  connections: scenario.connections,
  duration: scenario.durationSeconds,
  requests: [
    {
      setupRequest: (request) => {
        const chosen = scenario.requests[next++ % scenario.requests.length]!;
        return { ...request, ...chosen };
      },
      onResponse: (status) => {
        statuses[status] = (statuses[status] ?? 0) + 1;
      },
    },
  ],
});
const report: LoadResult = {
  requestsPerSecond: result.requests.average,
  p50: result.latency.p50,
  p99: result.latency.p99,
  total: result.requests.total,
  statuses,
  errors: result.errors + result.timeouts,
};
process.stdout.write(`${JSON.stringify(report)}\n`);
