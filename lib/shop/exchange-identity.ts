/**
 * What an exchange is, decided in one place: the store code and path below its `/rest/{store}` base, the spec
 * endpoint its method and path are of (a catalog row's id through the path aliases, else the shop's extension
 * operation), and its caller's class — from the token where the sender knows it, else from the Authorization header
 * as recorded (the redaction's label). The run's evidence (evidence.ts, lib/run/evidence.ts), its list of server
 * errors (server-errors.ts, lib/run/server-errors.ts) and a run's exchanges read back (recorded.ts) ask it; a
 * recording judged again, or traffic the suite never sent, is to ask it the same.
 */
import { CATALOG, rowId } from '../spec/catalog/index.ts'
import { endpointText } from '../spec/endpoint-id.ts'
import { matchTemplate, segmentsOf } from '../spec/paths.ts'
import type { CallerClass } from '../results/exchange.ts'
import { MALFORMED_BEARER } from '../results/redactor.ts'
import type { PathAlias } from '../settings/config.ts'
import { applyAliases } from './aliases.ts'
import type { SessionSeed } from './session.ts'
import { defined } from '../base/defined.ts'

/**
 * Where a URL is below its `/rest/{store}` base: the store code, the path (`/V1/…`) and the query (encoded, no `?`).
 */
interface RestPath {
  store: string
  path: string
  query?: string
}

/**
 * The store code, path and query of a URL below `{base}/rest/{store}`. `base` is the target's URL as the run was given
 * it (`https://shop.example/magento`); without it, the base is inferred: the path's first `/rest/` segment. Undefined
 * for a URL that is not below it.
 */
export function restPathOf(url: string, base?: string): RestPath | undefined {
  const q = url.indexOf('?')
  const [address, query] = q < 0 ? [url, undefined] : [url.slice(0, q), url.slice(q + 1)]
  let below: string | undefined
  if (base !== undefined) {
    const prefix = `${base.replace(/\/+$/, '')}/rest/`
    below = address.startsWith(prefix) ? address.slice(prefix.length) : undefined
  } else {
    const at = /^[a-z][a-z0-9+.-]*:\/\/[^/]*(\/.*)$/i.exec(address)?.[1] ?? address
    const rest = at.indexOf('/rest/')
    below = rest < 0 ? undefined : at.slice(rest + '/rest/'.length)
  }
  const slash = below?.indexOf('/') ?? -1
  if (below === undefined || slash <= 0) return undefined
  const kept = query !== undefined && query !== '' ? { query } : {}
  // `/rest/V1/…` names no store code (the platform serves its default store view): the store is '' then.
  if (/^V\d+\//.test(below)) return { store: '', path: `/${below}`, ...kept }
  return { store: below.slice(0, slash), path: below.slice(slash), ...kept }
}

/** The endpoint a method and path are of: a catalog row's id (`origin: 'spec'`) or an extension operation's text. */
interface EndpointMatch {
  endpoint: string
  origin: 'spec' | 'extension'
}

/**
 * What finds the endpoint of a concrete method and path: the catalog's rows (their paths through the aliases), then
 * the shop's extension operations, the template with most literal segments winning, as a router prefers
 * `/customerGroups/default` to `/customerGroups/:id`.
 */
export function endpointMatcher(
  aliases: readonly PathAlias[] = [],
  operations: readonly { method: string; path: string }[] = [],
) {
  type Candidate = { method: string; template: string } & EndpointMatch
  const candidates: Candidate[] = [
    ...CATALOG.map((row) => ({
      method: row.method,
      template: applyAliases(row.path, aliases),
      endpoint: rowId(row),
      origin: 'spec' as const,
    })),
    ...operations.map((op) => ({
      method: op.method,
      template: op.path,
      endpoint: endpointText(op),
      origin: 'extension' as const,
    })),
  ]
  // By method and number of segments, the only templates a path can match: a whole run's evidence asks thousands of
  // times.
  const keyOf = (method: string, path: string) => `${method} ${segmentsOf(path).length}`
  const byKey = new Map<string, Candidate[]>()
  for (const c of candidates)
    byKey.set(keyOf(c.method, c.template), [...(byKey.get(keyOf(c.method, c.template)) ?? []), c])
  return (method: string, path: string): EndpointMatch | undefined => {
    let best: { found: Candidate; literal: number } | undefined
    for (const c of byKey.get(keyOf(method, path)) ?? []) {
      if (ownResourceAtParameter(c.template, path)) continue
      const m = matchTemplate(c.template, path)
      if (m !== undefined && (best === undefined || m.literalSegments > best.literal))
        best = { found: c, literal: m.literalSegments }
    }
    return best === undefined ? undefined : { endpoint: best.found.endpoint, origin: best.found.origin }
  }
}

/**
 * The platform routes `mine` and `me` to the caller's own resource, a route of its own (`GET /V1/carts/mine` is a
 * customer's, `GET /V1/carts/:cartId` an admin's): such a segment is never a template's parameter. Without it a
 * storefront's `/V1/carts/mine/items` read as the admin endpoint `/V1/carts/:quoteId/items` would fail access on the
 * customer let through.
 */
function ownResourceAtParameter(template: string, path: string): boolean {
  const t = segmentsOf(template)
  return segmentsOf(path).some((seg, i) => (seg === 'mine' || seg === 'me') && t[i]?.startsWith(':') === true)
}

/**
 * The caller's class of a request: none without a token; the class `known` gives a token the sender knows (the run's
 * own); else what the Authorization header as recorded says (`recordedCaller`).
 */
export function callerClass(
  token: string | undefined,
  authorization: string | undefined,
  known: (token: string) => CallerClass | undefined,
): CallerClass {
  if (token === undefined) return 'none'
  return known(token) ?? (authorization === undefined ? 'malformed' : recordedCaller(authorization))
}

/**
 * The caller's class by the Authorization header as the run redacted it: none; the suite's own malformed token (kept,
 * no secret); a token the run knew, by its label (`Bearer [redacted admin token]`, `[redacted limited admin token]`,
 * `[redacted other customer token]`, a given one's `[redacted admin token given as SHOP_ADMIN_TOKEN]`); any other is
 * a customer's.
 */
export function recordedCaller(authorization: string | undefined): CallerClass {
  if (authorization === undefined) return 'none'
  if (MALFORMED_BEARER.test(authorization)) return 'malformed'
  const label = /\[redacted ([^\]]*)\]/.exec(authorization)?.[1] ?? ''
  if (/\blimited admin\b/.test(label)) return 'limited admin'
  if (/\badmin\b/.test(label)) return 'admin'
  return /\bother customer\b/.test(label) ? 'other customer' : 'customer'
}

/** Which of a run's own callers a token is, by the preflight's seed (a session's copy holds its renewed tokens). */
export function seedCaller(
  seed: Pick<SessionSeed, 'tokens' | 'malformedToken'>,
  token: string,
): CallerClass | undefined {
  const { tokens } = seed
  if (token === tokens.admin) return 'admin'
  if (token === tokens.limitedAdmin) return 'limited admin'
  if (token === seed.malformedToken) return 'malformed'
  return token === tokens.customer || token === tokens.disposableCustomer || token === tokens.ownCustomer
    ? 'customer'
    : undefined
}

/**
 * The name a token of the session's seed goes by in the run's evidence (`_token`): its role among the seed's tokens
 * (`admin`, `customer`, `disposableCustomer`, `ownCustomer`, `limitedAdmin`) or `malformed`; undefined for any other.
 */
export function seedTokenName(seed: Pick<SessionSeed, 'tokens' | 'malformedToken'>, token: string): string | undefined {
  if (token === seed.malformedToken) return 'malformed'
  return Object.entries(seed.tokens).find(([, value]) => value === token)?.[0]
}

/** The Authorization header of a recorded request, whatever its case. */
export function authorizationOf(headers: Readonly<Record<string, string>>): string | undefined {
  return Object.entries(headers).find(([k]) => k.toLowerCase() === 'authorization')?.[1]
}

/** What an exchange is: where below `/rest/{store}`, the endpoint (when the path is of one), the caller's class. */
interface ExchangeIdentity extends Partial<EndpointMatch>, Partial<RestPath> {
  caller: CallerClass
}

/**
 * A recorded request's identity: its URL read below the base (given or inferred), its endpoint by `endpointOf`, its
 * caller by `caller` where the sender knew it, else by its Authorization header as recorded.
 */
export function identify(
  request: { method: string; url: string; headers: Readonly<Record<string, string>> },
  how: { endpointOf: ReturnType<typeof endpointMatcher>; base?: string; caller?: CallerClass },
): ExchangeIdentity {
  const at = restPathOf(request.url, how.base)
  const endpoint = at === undefined ? undefined : how.endpointOf(request.method, at.path)
  return { ...at, ...endpoint, caller: how.caller ?? recordedCaller(authorizationOf(request.headers)) }
}

/** The caller's class of traffic the suite did not send: one of the classes, or `unknown` when nothing shows it. */
export type ObservedCaller = CallerClass | 'unknown'

/** A `--token-class TOKEN-PREFIX=admin|customer` hint: a token that starts so is of that class. */
export interface TokenHint {
  prefix: string
  caller: 'admin' | 'customer'
}

/**
 * The calls whose answer is the token they issue (`/V1/integration/admin/token`, `…/customer/token`): whose, by the
 * path.
 */
const TOKEN_CALL = /\/V1\/integration\/(admin|customer)\/token$/

/** Whose token a call issues (`admin`, `customer`), undefined for any other path (below `/rest/{store}` or whole). */
export function tokenCallOf(path: string): 'admin' | 'customer' | undefined {
  return TOKEN_CALL.exec(path)?.[1] as 'admin' | 'customer' | undefined
}

/** A URL's path without its query. */
export function pathnameOf(url: string): string {
  return defined(url.split('?')[0], "the URL's path").replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '')
}

/**
 * One exchange of observed traffic as the callers' reading needs it: its request, its answer, the class a suite's HAR
 * tags.
 */
interface ObservedExchange {
  request: { method: string; url: string; headers: Readonly<Record<string, string>> }
  response?: { status: number; body: unknown }
  /** The `_caller` a suite's own evidence.har tags each entry with: the sender knew it. */
  caller?: CallerClass
}

/**
 * The caller's class of each exchange of a capture, never guessed: the class the suite's own HAR tagged it with;
 * none without an Authorization header (unknown with a cookie: a storefront's session signs its customer in); the
 * token an admin or customer token call of the same capture issued (its answer's body is the token string), followed
 * to every request that sends it; a token redacted with its class's label (`Bearer [redacted admin token]`, as the
 * suite's and the proxy's HAR write it); a `--token-class` hint's prefix; else `unknown` — a token the capture never
 * saw issued is no customer's by default. `tokens` are the token values found (each with its class, `unknown` too),
 * for the redaction of what is written of the capture.
 */
export function observedCallers(
  exchanges: readonly ObservedExchange[],
  hints: readonly TokenHint[] = [],
): { callerOf: (x: ObservedExchange) => ObservedCaller; tokens: Map<string, ObservedCaller> } {
  const issued = new Map<string, ObservedCaller>()
  for (const x of exchanges) {
    const whose = tokenCallOf(pathnameOf(x.request.url))
    const { status, body } = x.response ?? { status: 0, body: undefined }
    const token =
      status >= 200 && status < 300 && typeof body === 'string' && body !== '' && !body.startsWith('[redacted')
        ? body
        : undefined
    if (whose !== undefined && x.request.method === 'POST' && token !== undefined) issued.set(token, whose)
  }
  const tokens = new Map(issued)
  const callerOf = (x: ObservedExchange): ObservedCaller => {
    if (x.caller !== undefined) return x.caller
    const authorization = authorizationOf(x.request.headers)
    // A storefront's page calls the interface with its session cookie, which the platform takes as the signed-in
    // customer's: without a token but with a cookie, the caller may be anyone.
    if (authorization === undefined) return hasCookie(x.request.headers) ? 'unknown' : 'none'
    if (MALFORMED_BEARER.test(authorization)) return 'malformed'
    const label = /^(?:Bearer )?\[redacted([^\]]*)\]$/.exec(authorization.trim())?.[1]
    if (label !== undefined) return classOfLabel(label)
    const token = /^Bearer\s+(\S+)$/i.exec(authorization.trim())?.[1]
    if (token === undefined) return 'unknown'
    const caller = issued.get(token) ?? hints.find((h) => token.startsWith(h.prefix))?.caller ?? 'unknown'
    tokens.set(token, caller)
    return caller
  }
  return { callerOf, tokens }
}

/** Whether a request sent a cookie (a session's), whatever the header's case. */
export function hasCookie(headers: Readonly<Record<string, string>>): boolean {
  return Object.keys(headers).some((k) => k.toLowerCase() === 'cookie')
}

/**
 * The class a redaction label names (`admin`, `limited admin`, `other customer`, `customer`, `admin … given as
 * SHOP_ADMIN_TOKEN`), else unknown.
 */
function classOfLabel(label: string): ObservedCaller {
  if (/\blimited admin\b/.test(label)) return 'limited admin'
  if (/\badmin\b/.test(label)) return 'admin'
  if (/\bother customer\b/.test(label)) return 'other customer'
  return /\bcustomer\b/.test(label) ? 'customer' : 'unknown'
}
