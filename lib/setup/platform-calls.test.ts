/**
 * The table of the platform's calls (issue 24.2) against the reference target: it serves each entry with the
 * access the table says, and the table is complete — a run against the reference target sends nothing that is
 * neither a catalog row nor an entry (its request log, as `npm run bench` logs it). The table itself:
 * platform-calls-table.test.ts.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EXTRA_ROUTES, startReferenceTarget } from '../../reference-target/index.ts'
import { Router } from '../../reference-target/router.ts'
import { SPEC_ROUTES } from '../../reference-target/routes.ts'
import { readRequestLog, type LoggedRequest } from '../bench/request-log.ts'
import { targetSessions } from '../checks/testing.ts'
import { cli } from '../cli/testing.ts'
import type { Session } from '../shop/session.ts'
import { ADMISSION, seenOfAnswer, type Admission, type Seen } from '../spec/admission.ts'
import { CATALOG } from '../spec/catalog/index.ts'
import { endpointText } from '../spec/endpoint-id.ts'
import { fillTemplate, placeholderFor } from '../spec/paths.ts'
import { PLATFORM_CALLS, type PlatformCall, type PlatformCallName } from './platform-calls.ts'

const ROOT = resolve(import.meta.dirname, '../..')
const NAMES = Object.keys(PLATFORM_CALLS) as PlatformCallName[]

describe('the reference target, called as the table says', () => {
  const sessions = targetSessions()
  afterAll(() => sessions.closeAll())

  /**
   * What is wrong of an entry at the target: a caller its class refuses that is not refused, or one it admits that
   * does not get past access — or the target's no-route answer. Placeholder values: a served route answers them,
   * if only with a 404 of its own.
   */
  async function wrongAt(session: Session, name: string, call: PlatformCall): Promise<string[]> {
    const path = fillTemplate(call.path, placeholderFor)
    const wrong: string[] = []
    for (const caller of ['none', 'customer', 'admin'] as const) {
      const token = caller === 'none' ? undefined : session.tokenFor(caller)
      const o = await session.send({
        method: call.method,
        path,
        store: session.seed.storeCode,
        ...(token !== undefined ? { token } : {}),
        ...(call.method === 'POST' || call.method === 'PUT' ? { body: {} } : {}),
      })
      const seen = seenOfAnswer(o.answer, o.answer !== undefined && session.looksLikeNoRoute(o.answer, path))
      const expected = ADMISSION[call.access][caller]
      const ok = seen !== 'no-route' && admitsAsExpected(expected, seen)
      if (!ok) wrong.push(`${name} (${call.access}) as ${caller}: ${seen}`)
    }
    return wrong
  }

  it("serves every entry: its class's refused callers are refused, its admitted callers get past access", async () => {
    const session = await sessions.open(await startReferenceTarget())
    const wrong = await Promise.all(NAMES.map((name) => wrongAt(session, name, PLATFORM_CALLS[name])))
    expect(wrong.flat()).toEqual([])
    // The same judgement tells an entry the target does not serve, or serves to another class.
    expect(
      await wrongAt(session, 'not served', {
        method: 'GET',
        path: '/V1/shop-conformance-not-served',
        access: 'admin',
        for: '',
      }),
    ).toEqual(['none', 'customer', 'admin'].map((caller) => `not served (admin) as ${caller}: no-route`))
    expect(await wrongAt(session, 'admin only', { ...PLATFORM_CALLS.readOrder, access: 'self' })).toEqual([
      'admin only (self) as customer: refused',
    ])
  }, 60_000)
})

/**
 * The preflight's calibration: paths no shop serves, sent to learn the target's no-route answer
 * (lib/shop/calibration.ts).
 */
const CALIBRATION = /\/shop-conformance-no-such-route-[0-9a-f]+$/

/**
 * Entries a run against the reference target need not send, with when they are sent: every other entry must be in
 * the request log of the full run or the read-only one, so the table lists nothing the run does not call.
 */
const SENT_ONLY_WHEN: Partial<Record<PlatformCallName, string>> = {
  readMineCart:
    "an add to a customer's cart got no answer (is the item there?), or read-only mode reads a configured customer's cart",
}

describe('every call a run sends beyond the spec goes through the table', () => {
  // Made when a test of the block runs, not when the file is collected: a filtered run (-t) makes none to leave.
  let dir: string
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'platform-calls-'))
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  // The reference target's own router tells which of its routes a request reached: a spec route (hand-written from
  // the spec, routes.test.ts holds it to the catalog) or one of its extra routes.
  const router = new Router([...SPEC_ROUTES, ...EXTRA_ROUTES])

  async function logOf(name: string, args: string[]): Promise<LoggedRequest[]> {
    const log = join(dir, `${name}.jsonl`)
    // Without the shop's schema: the extension checks call the operations the shop's schema declares (its own,
    // not the suite's set-up), and they are all the reference target's extra routes.
    const run = await cli(['run', '--target-schema', 'off', ...args], {
      SHOP_REQUEST_LOG: log,
      NODE_OPTIONS: `--import=${pathToFileURL(join(ROOT, 'lib/bench/preload.mjs')).href}`,
    })
    expect(run.status, run.stderr).toBe(0)
    return readRequestLog(readFileSync(log, 'utf8'))
  }

  /** Which catalog row or table entry a logged request reached; `calibration` or `neither` else. */
  function reached(q: LoggedRequest): string {
    if (CALIBRATION.test(q.path)) return 'calibration'
    // The asynchronous bulk interface: no route of the target's own table, an entry of the run's table by its path.
    if (q.path.startsWith('/async/bulk/'))
      return (
        NAMES.find((n) => PLATFORM_CALLS[n].method === q.method && PLATFORM_CALLS[n].path === q.path) ??
        `neither: ${endpointText(q)}`
      )
    const route = router.match(
      q.method as 'GET',
      q.path.split('/').filter((s) => s !== ''),
    )?.route
    if (route === undefined) return `neither: ${endpointText(q)}`
    const row = CATALOG.find((r) => r.method === route.method && r.path === route.template)
    if (row !== undefined) return 'catalog'
    const entry = NAMES.find((n) => endpointText(PLATFORM_CALLS[n]) === route.key)
    return entry ?? `neither: ${route.key}`
  }

  it('tells a request of a route the target serves beyond the table (the test can fail)', () => {
    const logged = (method: string, path: string): LoggedRequest => ({
      startMs: 0,
      endMs: 0,
      thread: 'worker',
      method,
      path,
      store: 'default',
      caller: 'admin',
    })
    expect(reached(logged('GET', '/V1/invoices/12'))).toBe('neither: GET /V1/invoices/:id')
    expect(reached(logged('GET', '/V1/nothing-here'))).toBe('neither: GET /V1/nothing-here')
    expect(reached(logged('GET', '/V1/taxRates/search'))).toBe('searchTaxRates')
    expect(reached(logged('GET', '/V1/taxRates/7'))).toBe('catalog')
  })

  it('the full run and the read-only one send only catalog rows, table entries and the calibration', async () => {
    const [full, readOnly] = await Promise.all([logOf('full', []), logOf('read-only', ['--read-only'])])
    const all = [...full, ...readOnly]
    expect(full.length).toBeGreaterThan(1000)
    expect([...new Set(all.map(reached).filter((r) => r.startsWith('neither')))]).toEqual([])
    const sent = new Set(all.map(reached))
    expect(NAMES.filter((n) => !sent.has(n) && SENT_ONLY_WHEN[n] === undefined)).toEqual([])
    // The read-only run finds the shop's own data through the searches the table lists, and writes nothing.
    expect(readOnly.filter((q) => q.method !== 'GET' && !/\/token$/.test(q.path)).map(endpointText)).toEqual([])
    expect(new Set(readOnly.map(reached))).toEqual(
      new Set(['catalog', 'calibration', 'searchCarts', 'searchCreditmemos', 'searchShipments', 'searchTaxRates']),
    )
  }, 240_000)
})

/** Whether what a caller saw is what the spec's admission says: refused where it refuses, let in where it admits. */
function admitsAsExpected(expected: Admission, seen: Seen): boolean {
  if (expected === 'refuse') return seen === 'refused'
  if (expected === 'accept') return seen === 'accepted' || seen === 'other 4xx'
  return true
}
