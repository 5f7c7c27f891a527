import { useQuery } from '@tanstack/react-query';
import { api, ok } from '../api';
import { ErrorMessage } from '../components/Field';
import { SwapTable } from '../components/SwapTable';
import { UsageChart } from '../components/UsageChart';
import { formatNumber } from '../format';
import { TableWrap } from '../components/TableWrap';

const BUCKETS = [
  ['subscription', 'Subscription'],
  ['monthly', 'Monthly'],
  ['permanent', 'Permanent'],
] as const;

export function OverviewPage() {
  const overview = useQuery({ queryKey: ['overview'], queryFn: () => ok(api.overview()), refetchInterval: 10_000 });
  if (overview.error) return <ErrorMessage error={overview.error} />;
  if (!overview.data) return <p aria-busy="true">Loading…</p>;
  const { credits, budgets, daily, latest_swaps } = overview.data;
  return (
    <>
      <h1>Overview</h1>
      <section aria-labelledby="credits-title" className="stats">
        <h2 id="credits-title" className="visually-hidden">
          Credits
        </h2>
        <div className="card stat stat-total">
          <p className="stat-label">Credits available</p>
          <p className="stat-value">{formatNumber(credits.total)}</p>
        </div>
        {BUCKETS.map(([bucket, label]) => (
          <div className="card stat" key={bucket}>
            <p className="stat-label">{label}</p>
            <p className="stat-value">{formatNumber(credits[bucket])}</p>
          </div>
        ))}
      </section>

      <section className="card" aria-labelledby="usage-title">
        <h2 id="usage-title">Last 30 days</h2>
        <UsageChart daily={daily} />
      </section>

      <section className="card" aria-labelledby="budget-title">
        <h2 id="budget-title">Request budget</h2>
        {budgets.length === 0 ? (
          <p className="empty">No live API key. Create one under API keys.</p>
        ) : (
          <TableWrap label="Request budget per key">
            <table>
              <thead>
                <tr>
                  <th scope="col">Key</th>
                  <th scope="col">This minute</th>
                  <th scope="col">Today (UTC)</th>
                </tr>
              </thead>
              <tbody>
                {budgets.map((b) => (
                  <tr key={b.key_id}>
                    <td>
                      {b.key_name ?? 'Unnamed key'} <span className="mono muted">{b.prefix}…</span>
                    </td>
                    <td>
                      <Meter used={b.minute.used} limit={b.minute.limit} label="requests this minute" />
                    </td>
                    <td>
                      <Meter used={b.today.used} limit={b.today.limit} label="requests today" />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
        )}
      </section>

      <section className="card" aria-labelledby="latest-title">
        <h2 id="latest-title">Latest swaps</h2>
        <SwapTable swaps={latest_swaps} caption="Latest swaps" />
      </section>
    </>
  );
}

function Meter({ used, limit, label }: { used: number; limit: number; label: string }) {
  return (
    <span className="meter">
      <meter min={0} max={limit} value={used} aria-label={`${used} of ${limit} ${label}`} />
      <span>
        {formatNumber(used)} / {formatNumber(limit)}
      </span>
    </span>
  );
}
