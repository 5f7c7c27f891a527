import type { SwapStatus } from '@doppel/contract';

/** The status in words and colour, with the progress bar while a swap runs. */
export function StatusBadge({ status, progress }: { status: SwapStatus; progress?: number }) {
  const running = status === 'queued' || status === 'preparing' || status === 'processing';
  return (
    <span className="status">
      <span className={`badge badge-${status}`}>{status}</span>
      {running && progress !== undefined && (
        <progress max={100} value={progress} aria-label={`Progress ${progress}%`}>
          {progress}%
        </progress>
      )}
    </span>
  );
}
