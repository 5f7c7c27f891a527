import type { Overview } from '@doppel/contract/dashboard';

const WIDTH = 720;
const HEIGHT = 240;
const PAD = { top: 16, right: 16, bottom: 28, left: 36 };

/** A round maximum for the axis: 1, 2, 5, 10, 20, 50 ... at least the largest value. */
function niceMax(value: number): number {
  if (value <= 4) return 4;
  const step = 10 ** Math.floor(Math.log10(value));
  return [1, 2, 5, 10].map((m) => m * step).find((v) => v >= value) ?? value;
}

/** Swaps (bars) and credits spent (line) per day over 30 days, with a table for screen readers. */
export function UsageChart({ daily }: { daily: Overview['daily'] }) {
  const max = niceMax(Math.max(...daily.map((d) => Math.max(d.swaps, d.credits)), 0));
  const innerW = WIDTH - PAD.left - PAD.right;
  const innerH = HEIGHT - PAD.top - PAD.bottom;
  const slot = innerW / daily.length;
  const y = (v: number) => PAD.top + innerH - (v / max) * innerH;
  const ticks = [0, max / 4, max / 2, (3 * max) / 4, max];
  const line = daily.map((d, i) => `${i === 0 ? 'M' : 'L'}${PAD.left + slot * (i + 0.5)},${y(d.credits)}`).join(' ');
  return (
    <figure className="chart">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label="Swaps and credits spent per day over the last 30 days">
        {ticks.map((t) => (
          <g key={t}>
            <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(t)} y2={y(t)} className="grid" />
            <text x={PAD.left - 6} y={y(t) + 4} className="tick" textAnchor="end">
              {Number.isInteger(t) ? t : t.toFixed(1)}
            </text>
          </g>
        ))}
        {daily.map((d, i) => (
          <rect
            key={d.day}
            x={PAD.left + slot * i + slot * 0.18}
            y={y(d.swaps)}
            width={slot * 0.64}
            height={PAD.top + innerH - y(d.swaps)}
            rx={2}
            className="bar"
          >
            <title>{`${d.day}: ${d.swaps} swaps, ${d.credits} credits`}</title>
          </rect>
        ))}
        <path d={line} className="line" />
        {daily.map((d, i) =>
          i % 5 === 4 || i === 0 ? (
            <text key={d.day} x={PAD.left + slot * (i + 0.5)} y={HEIGHT - 8} className="tick" textAnchor="middle">
              {d.day.slice(5)}
            </text>
          ) : null,
        )}
      </svg>
      <figcaption className="legend">
        <span className="legend-bar">Swaps</span>
        <span className="legend-line">Credits spent</span>
      </figcaption>
      <div className="visually-hidden">
      <table>
        <caption>Swaps and credits spent per day</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            <th scope="col">Swaps</th>
            <th scope="col">Credits</th>
          </tr>
        </thead>
        <tbody>
          {daily.map((d) => (
            <tr key={d.day}>
              <td>{d.day}</td>
              <td>{d.swaps}</td>
              <td>{d.credits}</td>
            </tr>
          ))}
        </tbody>
      </table>
      </div>
    </figure>
  );
}
