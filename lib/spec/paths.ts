/**
 * Values for the path parameters of a call that needs no knowledge of the target's data (route, store code,
 * access). They select the endpoint's own route where a literal sibling exists: ids are numbers
 * (`/customerGroups/999999`, never `/customerGroups/default`), codes are words no sibling uses.
 */
export const PLACEHOLDER_ID = 999999
const PLACEHOLDER_SKU = 'conformance-probe-sku'
const PLACEHOLDER_CODE = 'probe'
const PLACEHOLDER_EMAIL = 'conformance-probe@example.com'

export function placeholderFor(param: string): string | number {
  if (/sku$/i.test(param)) return PLACEHOLDER_SKU
  if (/email$/i.test(param)) return PLACEHOLDER_EMAIL
  if (/(id|Uuid)$/i.test(param) || param === 'qty' || param === 'price' || param === 'status') return PLACEHOLDER_ID
  return PLACEHOLDER_CODE
}

/** Fills every `:name` segment; values are URL-encoded as one path segment. */
export function fillTemplate(template: string, valueOf: (name: string) => string | number): string {
  return template
    .split('/')
    .map((s) => (s.startsWith(':') ? encodeURIComponent(String(valueOf(s.slice(1)))) : s))
    .join('/')
}

/**
 * Whether a concrete path matches a template, and how many of its segments matched literally
 * (a router prefers the template with more literal segments: `/customerGroups/default` over `/customerGroups/:id`).
 */
export function matchTemplate(template: string, path: string): { literalSegments: number } | undefined {
  const t = segmentsOf(template)
  const p = segmentsOf(path)
  if (t.length !== p.length) return undefined
  let literalSegments = 0
  for (const [i, seg] of t.entries()) {
    if (seg.startsWith(':')) {
      if (p[i] === '') return undefined
      continue
    }
    if (seg !== p[i]) return undefined
    literalSegments++
  }
  return { literalSegments }
}

/** A path's segments as matchTemplate compares them (a trailing slash is none): only paths of as many can match. */
export function segmentsOf(path: string): string[] {
  return stripTrailingSlash(path).split('/')
}

function stripTrailingSlash(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path
}
