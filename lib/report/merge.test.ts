import { execFile } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startReferenceTarget } from '../../fixtures/reference-target/index.ts'
import { reportCommand } from '../cli/commands.ts'
import { CATALOG, rowId } from '../spec/catalog/index.ts'
import { ConfigError } from '../target/config.ts'
import { mergeReports } from './merge.ts'
import { summarise, type Report } from './model.ts'
import { REPORT_FILES } from './write.ts'

const BIN = resolve(import.meta.dirname, '../cli/bin.mjs')
const dir = mkdtempSync(join(tmpdir(), 'shop-conformance-merge-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
/** Small modules, one with a workflow (eav) and one with the fault's endpoint (analytics-async-backend). */
const MODULES = ['analytics-async-backend', 'eav', 'directory']

let whole: Report

/** One real run: a target with one fault, so the report has passes, failures and not-applicable skips. */
beforeAll(async () => {
  const target = await startReferenceTarget({ faults: [{ name: 'admin-open' }] })
  try {
    const out = join(dir, 'whole')
    await promisify(execFile)(process.execPath, [BIN, 'run', '--base-url', target.url, '--report-dir', out, ...MODULES.flatMap((m) => ['--module', m])], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', HOME: dir, SHOP_ADMIN_USERNAME: target.admin.username, SHOP_ADMIN_PASSWORD: target.admin.password },
    }).catch((err: { code?: number }) => {
      if (err.code !== 1) throw err
    })
    whole = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report
  } finally {
    await target.close()
  }
}, 120_000)

/** The report one shard would have written: its modules' results, its own summary and share of the time. */
function shard(modules: string[], part: 0 | 1): Report {
  const results = whole.results.filter((r) => modules.includes(r.module))
  const start = Date.parse(whole.startedAt)
  const mid = start + Math.floor(whole.durationMs / 2)
  const [s, f] = part === 0 ? [start, mid] : [mid - 100, Date.parse(whole.finishedAt)]
  return {
    ...whole,
    run: { ...whole.run, id: `${whole.run.id}-${part}`, modules },
    startedAt: new Date(s).toISOString(),
    finishedAt: new Date(f).toISOString(),
    durationMs: f - s,
    summary: summarise(results, new Set(CATALOG.map(rowId))),
    created: part === 0 ? whole.created.slice(0, 2) : whole.created.slice(2),
    runErrors: part === 0 ? [] : ['shard 2 had a hiccup'],
    results,
  }
}

describe('mergeReports', () => {
  it('merging the halves of a report split by module gives the whole report\'s totals and results', () => {
    expect(whole.summary.failed).toBe(1)
    expect(whole.summary.notApplicable).toBeGreaterThan(0)
    expect(whole.results.some((r) => r.check === 'workflow')).toBe(true)
    const a = shard(['eav'], 0)
    const b = shard(['analytics-async-backend', 'directory'], 1)
    expect(a.results.length).toBeGreaterThan(0)
    expect(b.results.length).toBeGreaterThan(0)
    for (const [x, y] of [
      [a, b],
      [b, a],
    ] as const) {
      const merged = mergeReports([x, y])
      expect(merged.summary).toEqual(whole.summary)
      expect(merged.results).toEqual(whole.results)
      expect(merged.startedAt).toBe(whole.startedAt)
      expect(merged.finishedAt).toBe(whole.finishedAt)
      expect(merged.durationMs).toBe(whole.durationMs)
      expect(merged.runErrors).toEqual(['shard 2 had a hiccup'])
      expect(merged.created).toHaveLength(whole.created.length)
      expect(merged.run.modules.sort()).toEqual([...MODULES].sort())
      expect(merged.target).toEqual(whole.target)
      expect(merged.calibration).toEqual(whole.calibration)
    }
    expect(mergeReports([a, b]).run.id).toBe(`${whole.run.id}-0+${whole.run.id}-1`)
    expect(mergeReports([a, b]).created).toEqual(whole.created)
  })

  it('adds up the clean-up, and is partial or writing when any shard was', () => {
    const leftover = (id: string) => ({ kind: 'product', id, label: `product ${id}`, reason: 'DELETE answered 500' })
    const a: Report = { ...shard(['eav'], 0), cleanup: { removed: 2, leftovers: [leftover('a')] }, run: { ...shard(['eav'], 0).run, readOnly: true } }
    const b: Report = { ...shard(['directory'], 1), cleanup: { removed: 3, leftovers: [leftover('b')] }, run: { ...shard(['directory'], 1).run, readOnly: false }, partial: { reason: 'SIGINT' } }
    const merged = mergeReports([a, b])
    expect(merged.cleanup).toEqual({ removed: 5, leftovers: [leftover('a'), leftover('b')] })
    expect(merged.partial).toEqual({ reason: 'SIGINT' })
    expect(merged.run.readOnly).toBe(false)
    expect(mergeReports([a, { ...a, run: { ...a.run, id: 'x' } }]).run.readOnly).toBe(true)
    expect(mergeReports([a]).partial).toBeUndefined()
  })

  it('accepts a result present twice with the same status, and refuses one judged differently', () => {
    const a = shard(['eav', 'directory'], 0)
    const b = shard(['directory', 'analytics-async-backend'], 1)
    expect(mergeReports([a, b]).results).toEqual(whole.results)
    const dup = b.results.find((r) => r.module === 'directory')!
    const flipped = { ...b, results: b.results.map((r) => (r.id === dup.id ? { ...r, status: 'failed' as const } : r)) }
    expect(() => mergeReports([a, flipped], ['a.json', 'b.json'])).toThrow(new ConfigError(`report merge: "${dup.id}" is ${dup.status} in a.json and failed in b.json`))
  })

  it('refuses reports of different targets or spec versions, in one line', () => {
    const a = shard(['eav'], 0)
    const b = shard(['directory'], 1)
    expect(() => mergeReports([a, { ...b, spec: { version: '2.4.8' } }], ['a.json', 'b.json'])).toThrow(new ConfigError('report merge: b.json is of spec version 2.4.8, a.json of 2.4.9; only shards of one run can be merged'))
    expect(() => mergeReports([a, { ...b, target: { ...b.target, baseUrl: 'http://other.test' } }], ['a.json', 'b.json'])).toThrow(/^report merge: b\.json is of target http:\/\/other\.test, store default, second store all, a\.json of http:\/\/127\.0\.0\.1:\d+, store default/)
    expect(() => mergeReports([a, { ...b, target: { ...b.target, storeCode: 'fr' } }])).toThrow(/^report merge: report 2 is of target .* store fr,/)
    expect(() => mergeReports([])).toThrow(new ConfigError('report merge: no reports given'))
    // Shards against the bundled reference target each had their own port: still one target.
    const bundled = (r: Report, port: number): Report => ({ ...r, target: { ...r.target, baseUrl: `http://127.0.0.1:${port}`, bundledReferenceTarget: true } })
    expect(mergeReports([bundled(a, 1001), bundled(b, 1002)]).summary.total).toBe(a.results.length + b.results.length)
  })

  it('`report merge --out DIR` writes the merged report in every format', async () => {
    const paths = [shard(['eav'], 0), shard(['analytics-async-backend', 'directory'], 1)].map((r, i) => {
      const path = join(dir, `shard-${i}.json`)
      writeFileSync(path, JSON.stringify(r, null, 2))
      return path
    })
    const out = join(dir, 'merged')
    let printed = ''
    const status = await reportCommand(['merge', '--out', out, ...paths], { out: (t) => (printed += t), err: () => {} })
    expect(status).toBe(0)
    expect(printed).toBe(`merged 2 reports into ${out}/report.json: ${whole.summary.total} checks, ${whole.summary.passed} passed, 1 failed, ${whole.summary.skipped} skipped\n`)
    expect(readdirSync(out).sort()).toEqual([...REPORT_FILES].sort())
    const merged = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report
    expect(merged.summary).toEqual(whole.summary)
    expect(merged.results).toEqual(whole.results)
    expect(JSON.parse(readFileSync(join(out, 'report.sarif'), 'utf8')).runs[0].results).toHaveLength(1)
    await expect(reportCommand(['merge', '--out', out], { out: () => {}, err: () => {} })).rejects.toThrow(new ConfigError('report merge: no reports given (report merge --out DIR A.json B.json ...)'))
    await expect(reportCommand(['merge', paths[0]!], { out: () => {}, err: () => {} })).rejects.toThrow(new ConfigError('report merge: --out DIR is required'))
    await expect(reportCommand(['split'], { out: () => {}, err: () => {} })).rejects.toThrow(new ConfigError('report: unknown subcommand "split" (known: merge)'))
  })
})
