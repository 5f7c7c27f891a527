import type { PublicSwap } from '@doppel/contract';
import { Link } from 'wouter';
import { formatTime, typeLabel } from '../format';
import { StatusBadge } from './StatusBadge';
import { TableWrap } from './TableWrap';

export function SwapTable({ swaps, caption }: { swaps: PublicSwap[]; caption: string }) {
  if (swaps.length === 0) return <p className="empty">No swaps yet. Create one with your API key: POST /api/v1/swaps.</p>;
  return (
    <TableWrap label={caption}>
      <table>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Swap</th>
            <th scope="col">Type</th>
            <th scope="col">Status</th>
            <th scope="col" className="num">Cost</th>
            <th scope="col">Created</th>
          </tr>
        </thead>
        <tbody>
          {swaps.map((swap) => (
            <tr key={swap.id}>
              <td>
                <Link href={`/swaps/${swap.id}`} className="mono">
                  {swap.id}
                </Link>
              </td>
              <td>{typeLabel(swap.type)}</td>
              <td>
                <StatusBadge status={swap.status} progress={swap.progress} />
              </td>
              <td className="num">{swap.credit_cost}</td>
              <td>{formatTime(swap.created_at)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}
