/**
 * Charts drawn on the server as plain SVG (decision 028): they show without JavaScript, print sharp
 * and take the design tokens' colours through classes, so the dark theme needs no second render.
 * A chart is one image (its title and each bar's value for assistive technology): the figures, each a
 * link to the list behind it, are the table beside it, so a keyboard meets each figure once.
 */

export type Bar = { key: string; label: string; value: number; href?: string }

/** A bar's colour by meaning, as the status badges use them (decision 018). */
export type Tone = 'blue' | 'green' | 'amber' | 'red' | 'slate' | 'teal'

const TONES: Record<Tone, string> = {
  blue: 'fill-blue-600 dark:fill-blue-400',
  green: 'fill-green-600 dark:fill-green-400',
  amber: 'fill-amber-500 dark:fill-amber-400',
  red: 'fill-red-600 dark:fill-red-400',
  slate: 'fill-slate-400 dark:fill-slate-500',
  teal: 'fill-teal-600 dark:fill-teal-400',
}

const WIDTH = 480
const ROW = 26
const LABEL = 170
const COUNT = 56
const BAR = WIDTH - LABEL - COUNT - 8

/** A label cut to what fits its column (SVG text does not wrap). */
const fit = (text: string, chars: number) => (text.length > chars ? `${text.slice(0, chars - 1)}…` : text)

/**
 * Horizontal bars, one row per figure: its label, a bar in proportion to the largest, the count.
 * `title` names the chart for assistive technology; `format` writes a count in the reader's locale.
 */
export function BarChart({ bars, title, format, tone = () => 'blue', testId }: { bars: Bar[]; title: string; format: (n: number) => string; tone?: (bar: Bar) => Tone; testId?: string }) {
  const max = Math.max(1, ...bars.map((b) => b.value))
  const height = Math.max(1, bars.length) * ROW + 4
  return (
    <svg viewBox={`0 0 ${WIDTH} ${height}`} role="img" aria-label={title} className="h-auto w-full max-w-xl print:[print-color-adjust:exact]" data-testid={testId}>
      <title>{title}</title>
      {bars.map((bar, i) => {
        const y = i * ROW + 2
        const width = bar.value === 0 ? 0 : Math.max(2, Math.round((bar.value / max) * BAR))
        return (
          <g key={bar.key}>
            <title>{`${bar.label}: ${format(bar.value)}`}</title>
            <text x={LABEL - 8} y={y + ROW / 2} textAnchor="end" dominantBaseline="central" className="fill-slate-700 text-[12px] dark:fill-slate-300">
              {fit(bar.label, 26)}
            </text>
            <rect x={LABEL} y={y + 4} width={BAR} height={ROW - 8} rx={3} className="fill-slate-100 dark:fill-slate-800" />
            <rect x={LABEL} y={y + 4} width={width} height={ROW - 8} rx={3} className={TONES[tone(bar)]} />
            <text x={LABEL + BAR + 8} y={y + ROW / 2} dominantBaseline="central" className="fill-slate-900 text-[12px] font-medium tabular-nums dark:fill-slate-100">
              {format(bar.value)}
            </text>
          </g>
        )
      })}
    </svg>
  )
}

/** A "nice" axis maximum (1, 2 or 5 times a power of ten) at or above the largest value. */
export function niceMax(max: number): number {
  if (max <= 0) return 1
  const power = 10 ** Math.floor(Math.log10(max))
  for (const step of [1, 2, 5, 10]) if (step * power >= max) return step * power
  return 10 * power
}

/** The column chart's box in SVG user units (the viewBox scales it to the page). */
export const COLUMNS = { width: 720, height: 220, left: 48, right: 8, top: 8, bottom: 24 }

/** Column rectangles over time: each bar a slot of the plot, its height in proportion to `max`. */
export function columnGeometry<B extends { value: number }>(bars: B[], max: number) {
  const plotWidth = COLUMNS.width - COLUMNS.left - COLUMNS.right
  const plotHeight = COLUMNS.height - COLUMNS.top - COLUMNS.bottom
  const slot = bars.length ? plotWidth / bars.length : plotWidth
  const gap = slot > 12 ? Math.min(6, slot / 5) : slot > 4 ? 1 : 0
  return bars.map((bar, i) => {
    const height = max > 0 ? (bar.value / max) * plotHeight : 0
    return { x: COLUMNS.left + i * slot + gap / 2, y: COLUMNS.top + plotHeight - height, width: Math.max(slot - gap, 0.5), height, bar }
  })
}

/**
 * Vertical columns over time (a month, a week, a bucket of minutes per column) with a value axis
 * of three ticks and the first and last period named under it: the renewals forecast, the activity
 * per week and a zone's query statistics draw with it. One image like `BarChart`: `title` and
 * `desc` for assistive technology, each column's `<title>` its period and value; the figures are
 * the table beside it. `tone` colours a column; `first`/`last` override the axis's end labels.
 */
export function ColumnChart({
  bars,
  title,
  desc,
  format,
  tone = () => 'blue',
  testId,
  className = 'h-auto w-full max-w-3xl',
}: {
  bars: Bar[]
  title: string
  desc?: string
  format: (n: number) => string
  tone?: (bar: Bar) => Tone
  testId?: string
  className?: string
}) {
  const max = niceMax(Math.max(0, ...bars.map((b) => b.value)))
  const baseline = COLUMNS.height - COLUMNS.bottom
  const ticks = [0, max / 2, max]
  return (
    <svg viewBox={`0 0 ${COLUMNS.width} ${COLUMNS.height}`} role="img" aria-label={title} className={`${className} print:[print-color-adjust:exact]`} data-testid={testId}>
      <title>{title}</title>
      {desc ? <desc>{desc}</desc> : null}
      {ticks.map((v) => {
        const y = COLUMNS.top + (1 - v / max) * (baseline - COLUMNS.top)
        return (
          <g key={v}>
            <line x1={COLUMNS.left} x2={COLUMNS.width - COLUMNS.right} y1={y} y2={y} strokeWidth={0.5} strokeDasharray={v ? '2 3' : undefined} className="stroke-slate-300 dark:stroke-slate-600" />
            <text x={COLUMNS.left - 4} y={y + 4} textAnchor="end" className="fill-slate-500 text-[11px] tabular-nums dark:fill-slate-400">
              {format(v)}
            </text>
          </g>
        )
      })}
      {columnGeometry(bars, max).map((r) => (
        <rect key={r.bar.key} x={r.x} y={r.y} width={r.width} height={r.height} rx={r.width > 8 ? 2 : 0} className={TONES[tone(r.bar)]}>
          <title>{`${r.bar.label}: ${format(r.bar.value)}`}</title>
        </rect>
      ))}
      <text x={COLUMNS.left} y={COLUMNS.height - 6} className="fill-slate-500 text-[11px] dark:fill-slate-400">
        {bars[0]?.label ?? ''}
      </text>
      <text x={COLUMNS.width - COLUMNS.right} y={COLUMNS.height - 6} textAnchor="end" className="fill-slate-500 text-[11px] dark:fill-slate-400">
        {bars.at(-1)?.label ?? ''}
      </text>
    </svg>
  )
}
