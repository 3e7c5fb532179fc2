/**
 * A whole run's evidence, end to end through `shop-conformance run` (issue 30, point 1): evidence.har beside the
 * report, valid HAR 1.2 (lib/report/har.schema.json), one entry per request the run sent — counted by the target that
 * got them —, every probe's entry naming the checks it served, and no secret: no password, and no token the target
 * issued. `--no-evidence` writes none. The HAR's making and redaction on written exchanges: lib/run/evidence.test.ts.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { REFERENCE_ADMIN, REFERENCE_LIMITED_ADMIN, startReferenceTarget } from '../../reference-target/index.ts'
import { limitedAdminEnv } from '../checks/testing.ts'
import { exchangeOfEntry, type HarEntry } from '../results/har.ts'
import type { Exchange } from '../results/exchange.ts'
import { rejudged } from '../checks/testing-real-runs.ts'
import { CALLER_CLASSES } from '../results/exchange.ts'
import { harProblems } from '../report/testing.ts'
import { endpointText } from '../spec/endpoint-id.ts'
import { cli } from './testing.ts'

describe('shop-conformance run: its evidence as HAR', { timeout: 300_000 }, () => {
  const closers: (() => Promise<void>)[] = []
  afterAll(async () => {
    for (const c of closers) await c()
  })

  it('writes evidence.har of a whole run: valid HAR 1.2, an entry per request the target got, each probe naming its checks, no secret', async () => {
    const target = await startReferenceTarget()
    closers.push(() => target.close())
    const run = await cli(['run', '--base-url', target.url], {
      SHOP_ADMIN_USERNAME: target.admin.username,
      SHOP_ADMIN_PASSWORD: target.admin.password,
      ...limitedAdminEnv(target),
    })
    const report = run.report!
    expect(report.certification.verdict).toBe('conforms')
    const text = readFileSync(join(run.dir, 'reports', 'evidence.har'), 'utf8')
    const har = JSON.parse(text) as {
      log: {
        _run: {
          id: string
          target: { storeCode: string; secondStoreCode: string }
          calibration: { noRoute: string[]; unknownStore: string[] }
          operations: { method: string; path: string }[]
        }
        entries: HarEntry[]
      }
    }
    expect(harProblems(har)).toEqual([])
    const entries = har.log.entries

    // One entry per request sent: what the target got, method by method; the report and the console say so.
    const stats = target.stats()
    expect(entries).toHaveLength(stats.requests)
    const byMethod: Record<string, number> = {}
    for (const e of entries) byMethod[e.request.method] = (byMethod[e.request.method] ?? 0) + 1
    expect(byMethod).toEqual(stats.byMethod)
    expect(report.evidence).toEqual({ file: 'evidence.har', entries: entries.length, bytes: Buffer.byteLength(text) })
    expect(run.stdout).toMatch(/^Report: .*report\.json \(also .*, evidence\.har\)$/m)

    // Set-up, probes, workflows and cleanup alike, each of the run, its caller a class.
    expect(har.log._run.id).toBe(report.run.id)
    // The shop's extension operations, each an operation the extension checks judged.
    const declared = new Set(har.log._run.operations.map((op) => endpointText(op)))
    expect(declared.size).toBeGreaterThan(0)
    for (const r of report.results.filter((x) => x.origin === 'extension'))
      expect(declared, r.id).toContain(endpointText(r.endpoint))
    expect(new Set(entries.map((e) => e._runId))).toEqual(new Set([report.run.id]))
    for (const e of entries) expect(CALLER_CLASSES, e.request.url).toContain(e._caller)
    const steps = new Set(entries.map((e) => e._step))
    for (const phase of ['preflight', 'cleanup', "reading the shop's schema"]) expect(steps).toContain(phase)
    // Every probe names its checks, each a result of the report; a workflow's calls name their steps.
    const ids = new Set(report.results.map((r) => r.id))
    const probes = entries.filter((e) => e._probe !== undefined)
    expect(probes.length).toBeGreaterThan(1000)
    expect(probes.filter((e) => (e._checks ?? []).length === 0).map((e) => e._probe)).toEqual([])
    for (const e of entries) for (const id of e._checks ?? []) expect(ids, id).toContain(id)
    expect(entries.some((e) => e._checks?.some((id) => id.startsWith('workflow ')))).toBe(true)
    // The endpoint of every call at the spec's paths; the others are the shop's schema, the made-up paths of the
    // calibration and the extension probes, and the platform's own calls the spec does not list
    // (lib/setup/platform-calls.ts).
    const outside = entries.filter((e) => e._endpoint === undefined).map((e) => new URL(e.request.url).pathname)
    expect(outside.filter((p) => !/\/schema$|shop-conformance-no-such-|\/async\/bulk\//.test(p))).toEqual([])

    // Judged again from the recording alone (issue 30.2's ground): each route, store-code and access result — the
    // spec's and the extension kinds' — from the entries tagged with it, read back as exchanges, through the same
    // judges.
    const tagged = new Map<string, Exchange[]>()
    for (const e of entries)
      for (const id of e._checks ?? []) tagged.set(id, [...(tagged.get(id) ?? []), exchangeOfEntry(e)])
    const recording = {
      run: { id: har.log._run.id, readOnly: false },
      target: har.log._run.target,
      calibration: har.log._run.calibration,
      results: report.results.map((r) => ({ ...r, message: '', exchanges: tagged.get(r.id) ?? [] })),
    }
    const again = rejudged(recording)
    expect(again.length).toBeGreaterThan(800)
    expect(
      again
        .filter(({ result, verdict }) => report.results.find((r) => r.id === result.id)!.status !== verdict.status)
        .map(({ result, verdict }) => `${result.id}: ${verdict.status} ${verdict.message}`),
    ).toEqual([])

    // No secret: the admins' passwords, the run's customers' (…aA1!) and every token the target issued.
    for (const secret of [REFERENCE_ADMIN.password, REFERENCE_LIMITED_ADMIN.password, ...target.issuedTokens()])
      expect(text).not.toContain(secret)
    expect(text).not.toMatch(/[A-Za-z0-9_-]{16}(aA1!|bB2#)/)
  })

  it('writes none with --no-evidence', async () => {
    const target = await startReferenceTarget()
    closers.push(() => target.close())
    const env = { SHOP_ADMIN_USERNAME: target.admin.username, SHOP_ADMIN_PASSWORD: target.admin.password }
    const run = await cli(['run', '--base-url', target.url, '--module', 'stock-media', '--no-evidence'], env)
    expect(run.status).toBe(0)
    expect(existsSync(join(run.dir, 'reports', 'evidence.har'))).toBe(false)
    expect(run.report!.evidence).toBeUndefined()
    expect(run.stdout).not.toContain('evidence.har')
  })
})
