/**
 * The route, store-code and access judges — the spec's and, on a shop's own operations, the extension kinds' — give
 * the verdicts of two whole runs against real implementations (fixtures/observations/real-runs/, vendored) from the
 * answers those runs recorded as evidence: no target running, every result of the three kinds re-judged. The runs
 * sent placeholder calls where today's run sends a restricted endpoint's valid request first (issue 20): those
 * answers are read as its fallback's, whose refusals are all a verdict can rest on.
 */
import { readFileSync } from 'node:fs'
import { gunzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import type { Result } from '../results/result.ts'
import type { Exchange } from '../results/exchange.ts'
import { describeFingerprint, fingerprint } from '../shop/fingerprint.ts'
import type { Answer } from '../shop/request.ts'
import { findRow } from '../spec/catalog/index.ts'
import type { AccessClass, HttpMethod } from '../spec/types.ts'
import { accessCheck } from './access.ts'
import { extensionKinds } from './extension.ts'
import { extensionRow } from './extension-probes.ts'
import type { ProbeSettings } from './probe.ts'
import { routeCheck } from './route.ts'
import { storeCodeCheck } from './store-code.ts'
import { answersFromExchanges, probeOfExchange } from './testing-answers.ts'
import type { ProbeCheck } from './types.ts'
import { endpointText } from '../spec/endpoint-id.ts'

interface Report {
  run: { readOnly: boolean }
  target: { storeCode: string; secondStoreCode: string }
  calibration: { noRoute: string[]; unknownStore: string[] }
  results: (Result & { exchanges: Exchange[] })[]
}

const RUNS = ['2.4.7-p7/report-full.json', '2.4.7-p7/report-read-only.json', '2.4.7-p8-regionpricing/report-full.json']
const read = (f: string) => JSON.parse(gunzipSync(readFileSync(new URL(`../../fixtures/observations/real-runs/${f}.gz`, import.meta.url))).toString('utf8')) as Report
const SPEC_KINDS = new Map<string, ProbeCheck>([routeCheck, storeCodeCheck, accessCheck].map((k) => [k.name, k]))
const EXTENSION_KINDS = new Map(extensionKinds({ probeWrites: false }).map((k) => [k.name, k]))

/** Each result of the three kinds judged again from its own exchanges: [id, recorded status, today's status]. */
function rejudged(report: Report): [string, string, string][] {
  const matches = (set: string[]) => (a: Answer, path: string) => set.includes(describeFingerprint(fingerprint(a, path)))
  const reading = { noRoute: matches(report.calibration.noRoute), unknownStore: matches(report.calibration.unknownStore) }
  const settings: ProbeSettings = { readOnly: report.run.readOnly, customer: { reads: true, writes: !report.run.readOnly } }
  const stores = { first: report.target.storeCode, second: report.target.secondStoreCode }
  // What an operation's schema declared, from its access result's basis (`… declares GET /V1/x admin`).
  const declared = new Map(report.results.filter((r) => r.check === 'extension-access').map((r) => [`${endpointText(r.endpoint)}`, /\s(admin|self|anon)$/.exec(String(r.details?.basis))?.[1] as AccessClass | undefined]))
  return report.results.flatMap((r) => {
    const spec = SPEC_KINDS.get(r.check)
    const extension = EXTENSION_KINDS.get(r.check)
    if (spec === undefined && extension === undefined) return []
    const method = r.endpoint.method as HttpMethod
    const cls = declared.get(`${endpointText({ method: method, path: r.endpoint.path })}`)
    const row =
      spec !== undefined
        ? findRow(method, r.endpoint.path)!
        : extensionRow({ method, path: r.endpoint.path, writes: method !== 'GET', origin: 'extension', ...(cls !== undefined ? { declaredAccess: cls } : { accessUnknown: 'unknown' }) })
    const kind = (spec ?? extension)!
    const answers = answersFromExchanges(kind.probes(row, settings), r.exchanges.map((e) => probeOfExchange(e, reading)), stores)
    return [[r.id, r.status, kind.judge(row, answers, settings).status] as [string, string, string]]
  })
}

/**
 * Verdicts that changed on purpose since the runs were made (suite 0.1.0), each with why: the re-judging shows the
 * change and nothing else.
 */
const CHANGED: Readonly<Record<string, readonly [string, string, string]>> = {
  // A server error to the values the suite made up for an operation of the shop's own judges nothing (CHANGELOG).
  'GET /V1/inventory/get-product-salable-quantity/:sku/:stockId › extension-route': ['failed', 'skipped', 'a 500 to made-up values'],
  'GET /V1/payments-sdk/:location/:methodCode › extension-route': ['failed', 'skipped', 'a 500 to made-up values'],
}

describe('the route, store-code and access judges on the real runs\' recorded answers', () => {
  for (const file of RUNS) {
    it(`give every verdict of ${file}`, () => {
      const all = rejudged(read(file))
      expect(all.length).toBeGreaterThan(800)
      const differ = all.filter(([id, before, now]) => before !== now && !(CHANGED[id]?.[0] === before && CHANGED[id]?.[1] === now))
      expect(differ).toEqual([])
    })
  }
})
