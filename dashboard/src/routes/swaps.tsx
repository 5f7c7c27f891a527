import { isTerminalSwapStatus, swapStatuses, SwapStatusSchema, swapTypes, SwapTypeSchema, type SwapStatus, type SwapType } from '@doppel/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { api, ok } from '../api';
import { ErrorMessage } from '../components/Field';
import { SwapTable } from '../components/SwapTable';
import { typeLabel } from '../format';

const PAGE_SIZE = 20;
const LIVE_MS = 2000;

export function SwapsPage() {
  const [status, setStatus] = useState<SwapStatus | ''>('');
  const [type, setType] = useState<SwapType | ''>('');
  // Cursors of the pages seen so far: the last one is the current page's.
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const cursor = cursors.at(-1);
  const statusId = useId();
  const typeId = useId();
  const swaps = useQuery({
    queryKey: ['swaps', status, type, cursor],
    queryFn: () => ok(api.listSwaps({ query: { status: status || undefined, type: type || undefined, cursor, limit: PAGE_SIZE } })),
    placeholderData: keepPreviousData,
    // Live progress: poll while anything shown is still running.
    refetchInterval: (query) => (query.state.data?.data.some((s) => !isTerminalSwapStatus(s.status)) ? LIVE_MS : false),
  });
  const restart = () => setCursors([undefined]);
  return (
    <>
      <h1>Swaps</h1>
      <div className="card filters">
        <div className="field">
          <label htmlFor={statusId}>Status</label>
          <select id={statusId} value={status} onChange={(e) => (setStatus(SwapStatusSchema.safeParse(e.target.value).data ?? ''), restart())}>
            <option value="">All statuses</option>
            {swapStatuses.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={typeId}>Type</label>
          <select id={typeId} value={type} onChange={(e) => (setType(SwapTypeSchema.safeParse(e.target.value).data ?? ''), restart())}>
            <option value="">All types</option>
            {swapTypes.map((t) => (
              <option key={t} value={t}>
                {typeLabel(t)}
              </option>
            ))}
          </select>
        </div>
      </div>
      <section className="card">
        <ErrorMessage error={swaps.error} />
        {swaps.data && <SwapTable swaps={swaps.data.data} caption="Swaps" />}
        <nav className="pager" aria-label="Pages">
          <button type="button" disabled={cursors.length === 1} onClick={() => setCursors((c) => c.slice(0, -1))}>
            Previous
          </button>
          <span>Page {cursors.length}</span>
          <button
            type="button"
            disabled={!swaps.data?.next_cursor}
            onClick={() => setCursors((c) => [...c, swaps.data?.next_cursor ?? undefined])}
          >
            Next
          </button>
        </nav>
      </section>
    </>
  );
}
