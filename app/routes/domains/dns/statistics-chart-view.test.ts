import { readFileSync } from 'node:fs'
import i18next from 'i18next'
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { I18nextProvider, initReactI18next } from 'react-i18next'
import { describe, expect, it } from 'vitest'
import { StatisticsChart } from './statistics-chart-view.tsx'

const i18n = i18next.createInstance()
await i18n
  .use(initReactI18next)
  .init({ lng: 'en', ns: ['dns'], defaultNS: 'dns', resources: { en: { dns: JSON.parse(readFileSync('locales/en/dns.json', 'utf8')) } }, interpolation: { escapeValue: false } })

const render = (bars: { start: string; queries: number }[]) =>
  renderToStaticMarkup(
    createElement(
      I18nextProvider,
      { i18n },
      createElement(StatisticsChart, {
        bars,
        total: bars.reduce((s, b) => s + b.queries, 0),
        rangeLabel: 'Last 24 hours',
        number: new Intl.NumberFormat('en'),
        when: (iso: string) => iso.slice(11, 16),
      }),
    ),
  )

describe('statistics chart markup', () => {
  it('draws one bar per period, scaled, with a labelled SVG and the same figures as a table', () => {
    const html = render([
      { start: '2025-01-01T00:00:00.000Z', queries: 1200 },
      { start: '2025-01-01T00:30:00.000Z', queries: 0 },
      { start: '2025-01-01T01:00:00.000Z', queries: 600 },
    ])
    expect(html).toContain('role="img"')
    expect(html).toContain('aria-label="Queries answered for the zone, Last 24 hours"')
    expect(html).toContain('<title>Queries answered for the zone, Last 24 hours</title>')
    expect(html).toContain('1,800 queries in the period (Last 24 hours).')
    const heights = [...html.matchAll(/<rect [^>]*height="([\d.]+)"/g)].map((m) => Number(m[1]))
    expect(heights).toHaveLength(3)
    // axis maximum 2,000: 1,200 is 60 % of the plot, 600 is 30 %, 0 is no bar at all
    expect(heights[0]! / heights[2]!).toBeCloseTo(2)
    expect(heights[1]).toBe(0)
    expect(html).toContain('<td class="text-right tabular-nums">1,200</td>')
    expect(html.match(/<tr><td/g)).toHaveLength(3)
    expect(html).toContain('<time dateTime="2025-01-01T01:00:00.000Z">01:00</time>')
  })
})
