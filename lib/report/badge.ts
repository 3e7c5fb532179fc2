import { createHash } from 'node:crypto'
import { PASSIVE, percentText, type ConformanceVerdict } from './certify.ts'
import type { Report } from './model.ts'
import { leftoversText, runStory } from './outcome.ts'
import { implementationOf } from './target.ts'

/** Badge colours by verdict (shields.io's palette). */
export const BADGE_COLOURS: Record<ConformanceVerdict, string> = {
  conforms: '#4c1',
  'does not conform': '#e05d44',
  incomplete: '#dfb317',
  partial: '#007ec6',
  'not run': '#9f9f9f',
  [PASSIVE]: '#9f9f9f',
}

/**
 * badge.svg: a small self-contained shields-style badge, "conformance | 97.3%", coloured by the report's
 * verdict (green conforms, red does not conform, yellow incomplete, blue partial, grey not run). A run that
 * selected less than the whole suite says so on the badge itself ("partial 35/927 · 100%"): a badge is shown
 * without its report, and so does a run cut short ("cut short · 9.7%"). The verdict, scope, versions, the run's
 * story and what it left on the shop are in the badge's title.
 */
export function badgeSvg(report: Report): string {
  const c = report.certification
  const percent = percentText(c)
  const story = runStory(report)
  const left = leftoversText(report)
  // A passive report is no certification: its badge says so, not a percentage of the suite.
  const share = c.scope.whole ? percent : `partial ${c.scope.selected}/${c.scope.suite} · ${percent}`
  let value = share
  if (c.verdict === 'not run') value = 'not run'
  else if (c.verdict === PASSIVE) value = `passive · ${c.failed} failed`
  const what = implementationOf(report.target)
  const title = [
    `${report.suite.name} ${report.suite.version}, spec ${report.spec.version}${what !== undefined ? `, target ${what}` : ''}: ${c.passed} of ${c.required} required checks passed (${percent}), ${c.verdict}; ${c.scope.text}`,
    ...(story.kind !== 'whole' ? [story.text] : []),
    ...(left !== undefined ? [`left on the shop: ${left}`] : []),
  ].join('; ')
  return renderBadge(
    'conformance',
    story.kind === 'cut short' ? `cut short · ${value}` : value,
    BADGE_COLOURS[c.verdict],
    title,
  )
}

/** The badge itself; every text is XML-escaped, the colour must be a hex colour. */
export function renderBadge(label: string, value: string, colour: string, title = `${label}: ${value}`): string {
  if (!/^#[0-9a-fA-F]{3,8}$/.test(colour))
    throw new Error(`badge colour must be a hex colour, got ${JSON.stringify(colour)}`)
  const lw = textWidth(label) + 10
  const vw = textWidth(value) + 10
  const w = lw + vw
  const l = escapeXml(label)
  const v = escapeXml(value)
  const t = escapeXml(title)
  // Ids unique to this badge's content: two different badges inlined in one page must not share a clip path.
  const id = `b${createHash('sha256').update(`${label}\n${value}\n${colour}`).digest('hex').slice(0, 8)}`
  // Text is drawn at 10× and scaled down, as shields does, for crisp sub-pixel placement.
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="20" role="img" aria-label="${l}: ${v}">
<title>${t}</title>
<linearGradient id="${id}s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>
<clipPath id="${id}r"><rect width="${w}" height="20" rx="3" fill="#fff"/></clipPath>
<g clip-path="url(#${id}r)"><rect width="${lw}" height="20" fill="#555"/><rect x="${lw}" width="${vw}" height="20" fill="${colour}"/><rect width="${w}" height="20" fill="url(#${id}s)"/></g>
<g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" text-rendering="geometricPrecision" font-size="110">
<text aria-hidden="true" x="${lw * 5}" y="150" fill="#010101" fill-opacity=".3" transform="scale(.1)">${l}</text>
<text x="${lw * 5}" y="140" transform="scale(.1)">${l}</text>
<text aria-hidden="true" x="${(lw + vw / 2) * 10}" y="150" fill="#010101" fill-opacity=".3" transform="scale(.1)">${v}</text>
<text x="${(lw + vw / 2) * 10}" y="140" transform="scale(.1)">${v}</text>
</g>
</svg>
`
}

export function escapeXml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[ch] ?? ch,
  )
}

/** Approximate width in pixels of Verdana 11px, enough to size the badge. */
function textWidth(text: string): number {
  let width = 0
  for (const ch of text) {
    if (/[iIl.,:;|!'1]/.test(ch)) width += 3.5
    else if (/[fjrt() ]/.test(ch)) width += 4.5
    else if (/[mwMW%]/.test(ch)) width += 10
    else if (/[A-Z0-9]/.test(ch)) width += 7.5
    else width += 6.8
  }
  return Math.ceil(width)
}
