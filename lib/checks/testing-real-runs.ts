/**
 * Test support (not a test itself): the vendored runs of the suite against real implementations
 * (fixtures/observations/real-runs/), and their route, store-code and access results — the spec's and, on a shop's
 * own operations, the extension kinds' — judged again by today's judges from the exchanges each result recorded
 * (lib/shop/recorded.ts), no target running.
 */
import { readFileSync } from 'node:fs'
import { gunzipSync } from 'node:zlib'
import type { Exchange } from '../results/exchange.ts'
import type { Result } from '../results/result.ts'
import type { Verdict } from '../results/verdict.ts'
import { answersFromRecorded, readingOf, recordedProbe } from '../shop/recorded.ts'
import { findRow } from '../spec/catalog/index.ts'
import { endpointText } from '../spec/endpoint-id.ts'
import type { AccessClass, HttpMethod } from '../spec/types.ts'
import { accessCheck } from './access.ts'
import { extensionKinds } from './extension.ts'
import { extensionRow } from './extension-probes.ts'
import type { ProbeSettings } from './probe.ts'
import { routeCheck } from './route.ts'
import { storeCodeCheck } from './store-code.ts'
import type { ProbeCheck } from './types.ts'

interface RealRun {
  run: { id: string; readOnly: boolean }
  target: { storeCode: string; secondStoreCode: string }
  calibration: { noRoute: string[]; unknownStore: string[] }
  results: (Result & { exchanges: Exchange[] })[]
}

/** A vendored run (`2.4.7-p7/report-full.json`), read from its gzip. */
export function readRealRun(file: string): RealRun {
  return JSON.parse(
    gunzipSync(readFileSync(new URL(`../../fixtures/observations/real-runs/${file}.gz`, import.meta.url))).toString(
      'utf8',
    ),
  ) as RealRun
}

const SPEC_KINDS = new Map<string, ProbeCheck>([routeCheck, storeCodeCheck, accessCheck].map((k) => [k.name, k]))
const EXTENSION_KINDS = new Map(extensionKinds({ probeWrites: false }).map((k) => [k.name, k]))

/**
 * Each result of the kinds the recorded exchanges can judge, judged again: the result as recorded and today's
 * verdict. `placeholders`: the run sent placeholder calls where today's sends a restricted endpoint's valid request
 * (the runs before issue 20): its answers are read as the fallback's, whose refusals are all a verdict can rest on.
 */
export function rejudged(
  report: RealRun,
  placeholders = false,
): { result: RealRun['results'][number]; verdict: Verdict }[] {
  const reading = readingOf(report.calibration)
  const settings: ProbeSettings = {
    readOnly: report.run.readOnly,
    customer: { reads: true, writes: !report.run.readOnly },
  }
  const stores = { first: report.target.storeCode, second: report.target.secondStoreCode }
  const everywhere = placeholders
    ? { message: 'the recorded run sent placeholder calls', reason: 'no-valid-request' as const }
    : undefined
  // Where a restricted endpoint's valid request could not be made, its access result says why: each kind reads so.
  const unbuiltAt = new Map(
    report.results.flatMap((r) => {
      const why = r.check === 'access' ? /\(probed with placeholder values: (.*)\)$/s.exec(r.message)?.[1] : undefined
      return why === undefined
        ? []
        : [[endpointText(r.endpoint), { message: why, reason: 'no-valid-request' as const }] as const]
    }),
  )
  // What an operation's schema declared, from its access result's basis (`… declares GET /V1/x admin`).
  const declared = new Map(
    report.results
      .filter((r) => r.check === 'extension-access')
      .map((r) => [
        endpointText(r.endpoint),
        /\s(admin|self|anon)$/.exec(String(r.details?.basis))?.[1] as AccessClass | undefined,
      ]),
  )
  return report.results.flatMap((result) => {
    const spec = SPEC_KINDS.get(result.check)
    const kind = spec ?? EXTENSION_KINDS.get(result.check)
    if (kind === undefined) return []
    const method = result.endpoint.method as HttpMethod
    const cls = declared.get(endpointText({ method, path: result.endpoint.path }))
    const row =
      spec !== undefined
        ? findRow(method, result.endpoint.path)!
        : extensionRow({
            method,
            path: result.endpoint.path,
            writes: method !== 'GET',
            origin: 'extension',
            ...(cls !== undefined ? { declaredAccess: cls } : { accessUnknown: 'unknown' }),
          })
    const unbuilt = everywhere ?? (spec !== undefined ? unbuiltAt.get(endpointText(result.endpoint)) : undefined)
    const answers = answersFromRecorded(
      kind.probes(row, settings),
      result.exchanges.map((e) => recordedProbe(e, reading)),
      stores,
      unbuilt,
    )
    return [{ result, verdict: kind.judge(row, answers, settings) }]
  })
}
