import { isTerminalSwapStatus } from '@doppel/contract';
import type { Delivery, SwapDetail } from '@doppel/contract/dashboard';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'wouter';
import { api, ok } from '../api';
import { ErrorMessage } from '../components/Field';
import { StatusBadge } from '../components/StatusBadge';
import { formatTime, typeLabel } from '../format';
import { TableWrap } from '../components/TableWrap';

const LIVE_MS = 2000;

export function SwapPage({ swapId }: { swapId: string }) {
  const client = useQueryClient();
  // After a resend: the number of attempts seen then, polled past until the new attempt shows.
  const [resentAt, setResentAt] = useState<number | null>(null);
  const detail = useQuery({
    queryKey: ['swap', swapId],
    queryFn: () => ok(api.getSwap({ params: { swapId } })),
    // Live progress and delivery attempts: poll until the swap is over and no delivery is pending.
    refetchInterval: (query) => {
      const data = query.state.data;
      if (!data) return LIVE_MS;
      const attempts = data.deliveries.reduce((n, d) => n + d.attempts.length, 0);
      const settled = isTerminalSwapStatus(data.swap.status) && !data.deliveries.some((d) => d.status === 'pending');
      return settled && (resentAt === null || attempts > resentAt) ? false : LIVE_MS;
    },
  });
  const refresh = () => client.invalidateQueries({ queryKey: ['swap', swapId] });
  const cancel = useMutation({ mutationFn: () => ok(api.cancelSwap({ params: { swapId }, body: {} })), onSuccess: refresh });
  if (detail.error) return <ErrorMessage error={detail.error} />;
  if (!detail.data) return <p aria-busy="true">Loading…</p>;
  const { swap, cancelable, previews, deliveries } = detail.data;
  return (
    <>
      <p className="breadcrumb">
        <Link href="/swaps">Swaps</Link> / <span className="mono">{swap.id}</span>
      </p>
      <div className="title-row">
        <h1>{typeLabel(swap.type)} swap</h1>
        {cancelable && (
          <button type="button" className="danger" onClick={() => cancel.mutate()} disabled={cancel.isPending}>
            Cancel
          </button>
        )}
      </div>
      <ErrorMessage error={cancel.error} />
      <section className="card facts" aria-label="Swap">
        <dl>
          <div>
            <dt>Status</dt>
            <dd>
              <StatusBadge status={swap.status} progress={swap.progress} />
            </dd>
          </div>
          <div>
            <dt>Cost</dt>
            <dd>{swap.credit_cost === 1 ? '1 credit' : `${swap.credit_cost} credits`}</dd>
          </div>
          <div>
            <dt>Created</dt>
            <dd>{formatTime(swap.created_at)}</dd>
          </div>
          <div>
            <dt>Webhook</dt>
            <dd className="mono wrap">{swap.webhook_url ?? '—'}</dd>
          </div>
        </dl>
        {swap.error && (
          <p className="error" role="status">
            {swap.error}
          </p>
        )}
      </section>

      <section className="card" aria-labelledby="previews-title">
        <h2 id="previews-title">Previews</h2>
        <div className="previews">
          {previews.map((p) => (
            <figure key={`${p.role}-${p.index}`} className="preview">
              <img src={p.src} alt={`${previewLabel(p, previews)} of swap ${swap.id}`} loading="lazy" />
              <figcaption>{previewLabel(p, previews)}</figcaption>
            </figure>
          ))}
          {swap.status !== 'done' && (
            <figure className="preview pending">
              <div className="placeholder">{isTerminalSwapStatus(swap.status) ? 'No result' : `${swap.progress}%`}</div>
              <figcaption>Result</figcaption>
            </figure>
          )}
        </div>
      </section>

      <section className="card" aria-labelledby="metadata-title">
        <h2 id="metadata-title">Metadata</h2>
        {swap.metadata ? <pre className="code">{JSON.stringify(swap.metadata, null, 2)}</pre> : <p className="empty">None.</p>}
      </section>

      <section className="card" aria-labelledby="deliveries-title">
        <h2 id="deliveries-title">Webhook deliveries</h2>
        <Deliveries
          deliveries={deliveries}
          onResent={() => {
            setResentAt(deliveries.reduce((n, d) => n + d.attempts.length, 0));
            void refresh();
          }}
        />
      </section>
    </>
  );
}

function previewLabel(p: SwapDetail['previews'][number], all: SwapDetail['previews']): string {
  if (p.role === 'result') return 'Result';
  if (p.role === 'target') return 'Target';
  return all.filter((x) => x.role === 'source').length > 1 ? `Source ${p.index + 1}` : 'Source';
}

function Deliveries({ deliveries, onResent }: { deliveries: Delivery[]; onResent: () => void }) {
  const last = deliveries.at(-1);
  const resend = useMutation({ mutationFn: (id: string) => ok(api.resendDelivery({ params: { deliveryId: id }, body: {} })), onSuccess: onResent });
  if (!last) return <p className="empty">No webhook events: the swap has no webhook URL, or has not finished.</p>;
  return (
    <>
      {deliveries.map((d) => (
        <div key={d.id} className="delivery">
          <div className="title-row">
            <h3>
              <span className="mono">{d.event}</span> <span className={`badge badge-${d.status}`}>{d.status}</span>
            </h3>
            {d === last && (
              <button type="button" onClick={() => resend.mutate(d.id)} disabled={resend.isPending}>
                Resend
              </button>
            )}
          </div>
          <p className="muted mono wrap">{d.url}</p>
          {resend.isSuccess && d === last && <p role="status">Queued one more attempt.</p>}
          <ErrorMessage error={resend.error} />
          <TableWrap label={`Attempts of ${d.event}`}>
            <table>
              <caption className="visually-hidden">Attempts of {d.event}</caption>
              <thead>
                <tr>
                  <th scope="col">#</th>
                  <th scope="col">Time</th>
                  <th scope="col">Status code</th>
                  <th scope="col" className="num">
                    Duration
                  </th>
                  <th scope="col">Error</th>
                </tr>
              </thead>
              <tbody>
                {d.attempts.map((a) => (
                  <tr key={a.attempt}>
                    <td>{a.attempt}</td>
                    <td>{formatTime(a.started_at)}</td>
                    <td className={a.status_code !== null && a.status_code < 300 ? 'ok' : 'bad'}>{a.status_code ?? '—'}</td>
                    <td className="num">{a.duration_ms} ms</td>
                    <td className="wrap">{a.error ?? '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
        </div>
      ))}
    </>
  );
}
