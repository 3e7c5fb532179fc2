import { describe, expect, it } from 'vitest'
import type { Result } from '../results/result.ts'
import type { Status } from '../results/verdict.ts'
import { BADGE_COLOURS, badgeSvg, renderBadge } from './badge.ts'
import { planResults, reportOf } from './testing.ts'

function result(n: number, status: Result['status'], applicable = true): Result {
  return {
    id: `GET /V1/x${n} › route`,
    module: 'directory',
    endpoint: { method: 'GET', path: `/V1/x${n}` },
    check: 'route',
    status,
    message: '',
    durationMs: 1,
    spec: [],
    exchanges: [],
    ...(applicable ? {} : { applicable: false as const }),
  }
}

/** Well-formed enough for any XML parser: one root, every tag closed in order, no bare `&` or `<` in text. */
function expectWellFormed(svg: string): void {
  expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true)
  const stack: string[] = []
  const tag = /<(\/?)([a-zA-Z][\w:-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>/g
  let last = 0
  for (const m of svg.matchAll(tag)) {
    const between = svg.slice(last, m.index)
    expect(between).not.toMatch(/[<>]|&(?!(amp|lt|gt|quot|apos);)/)
    last = m.index + m[0].length
    const [, closing, name = '', attrs = '', selfClosing] = m
    expect(attrs).not.toMatch(/&(?!(amp|lt|gt|quot|apos);)/)
    if (closing) expect(stack.pop()).toBe(name)
    else if (!selfClosing) stack.push(name)
    if (stack.length === 0) expect(svg.slice(last).trim()).toBe('')
  }
  expect(stack).toEqual([])
}

describe('badgeSvg', () => {
  it('shows conformance and the percentage of required checks, green when the run conforms', () => {
    const all = planResults()
    const svg = badgeSvg(reportOf([...all, result(1, 'skipped', false)]))
    expectWellFormed(svg)
    expect(svg).toContain('>conformance</text>')
    expect(svg).toContain('>100%</text>')
    expect(svg).toContain(`fill="${BADGE_COLOURS.conforms}"`)
    expect(svg).toMatch(
      new RegExp(
        `<title>[^<]*${all.length} of ${all.length} required checks passed \\(100%\\), conforms; the whole suite: ${all.length} checks</title>`,
      ),
    )
  })

  it('is red with a failure, one decimal, never rounded up', () => {
    const total = planResults().length
    // 97.3 % of the suite's checks passed, one failed, the rest not judged.
    const passing = Math.ceil(total * 0.973)
    const statusAt = (_: unknown, i: number): Status => {
      if (i < passing) return 'passed'
      return i === passing ? 'failed' : 'skipped'
    }
    const svg = badgeSvg(reportOf(planResults(undefined, statusAt)))
    expectWellFormed(svg)
    expect(svg).toContain('>97.3%</text>')
    expect(svg).toContain(`fill="${BADGE_COLOURS['does not conform']}"`)
    expect(svg).toContain('does not conform; the whole suite')
    const almost = badgeSvg(reportOf(planResults(undefined, (_, i) => (i === 0 ? 'failed' : 'passed'))))
    expect(almost).toContain(`>${Math.floor(((total - 1) / total) * 1000) / 10}%</text>`)
    expect(almost).not.toContain('>100%</text>')
  })

  it('says a slice or a shard is partial on the badge itself, in blue, never green', () => {
    const slice = reportOf(planResults({ modules: ['directory'] }), { run: { modules: ['directory'] } })
    const svg = badgeSvg(slice)
    expectWellFormed(svg)
    expect(slice.certification.verdict).toBe('partial')
    expect(svg).toContain(`>partial ${slice.certification.scope.selected}/${planResults().length} · 100%</text>`)
    expect(svg).toContain(`fill="${BADGE_COLOURS.partial}"`)
    expect(svg).not.toContain(`fill="${BADGE_COLOURS.conforms}"`)
    expect(svg).toContain(
      `partial: ${slice.certification.scope.selected} of ${planResults().length} checks selected (--module directory)</title>`,
    )
  })

  it('is yellow when checks were not judged or the run had errors, grey when nothing ran', () => {
    expect(badgeSvg(reportOf([result(1, 'passed'), result(2, 'skipped')]))).toContain(
      `fill="${BADGE_COLOURS.incomplete}"`,
    )
    expect(badgeSvg(reportOf([result(1, 'passed')], { runErrors: ['calibration failed'] }))).toContain(
      `fill="${BADGE_COLOURS.incomplete}"`,
    )
    const baseline = {
      file: 'b.json',
      baseline: { version: 1 as const, entries: [{ id: 'GET /V1/x2 › route', reason: 'known' }] },
      allowStale: false,
    }
    expect(badgeSvg(reportOf([result(1, 'passed'), result(2, 'failed')], {}, { made: true, baseline }))).toContain(
      `fill="${BADGE_COLOURS.incomplete}"`,
    )
    const none = badgeSvg(reportOf([result(1, 'skipped', false)]))
    expectWellFormed(none)
    expect(none).toContain('>not run</text>')
    expect(none).toContain(`fill="${BADGE_COLOURS['not run']}"`)
  })

  it('is self-contained: no external reference, no script', () => {
    const svg = badgeSvg(reportOf([result(1, 'passed')]))
    expect(svg.replace('xmlns="http://www.w3.org/2000/svg"', '')).not.toMatch(/https?:|href|<script|<image|@import/i)
  })

  it('gives two different badges different ids, so both can be inlined in one page', () => {
    const ids = (svg: string) => [...svg.matchAll(/\bid="([^"]+)"/g)].map((m) => m[1])
    const a = badgeSvg(reportOf([result(1, 'passed')]))
    const b = badgeSvg(reportOf([result(1, 'passed'), result(2, 'failed')]))
    expect(ids(a)).toHaveLength(2)
    for (const id of ids(a)) expect(ids(b)).not.toContain(id)
    for (const id of ids(b)) expect(b).toContain(`url(#${id})`)
  })

  it('escapes text', () => {
    const svg = renderBadge('a<b>&"c\'', '</text><script>alert(1)</script>', '#4c1', 'x & y <z>')
    expectWellFormed(svg)
    expect(svg).not.toContain('<script')
    expect(svg).toContain('a&lt;b&gt;&amp;&quot;c&apos;')
    expect(svg).toContain('<title>x &amp; y &lt;z&gt;</title>')
    const spec = reportOf([result(1, 'passed')])
    spec.spec.version = '2.4.9 <&>'
    expect(badgeSvg(spec)).toContain('spec 2.4.9 &lt;&amp;&gt;:')
    expect(() => renderBadge('a', 'b', 'red" onload="x')).toThrow(/hex colour/)
  })
})
