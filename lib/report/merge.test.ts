import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startReferenceTarget } from '../../reference-target/index.ts'
import { runInTest } from '../../test-setup/child-processes.ts'
import { limitedAdminEnv } from '../checks/testing.ts'
import { reportCommand } from '../cli/commands.ts'
import { UsageError } from '../base/usage-error.ts'
import { completeReport, type Judging, type ReportDraft } from './complete.ts'
import { mergeReports } from './merge.ts'
import { summarise, type Report } from './model.ts'
import { REPORT_FILES } from './write.ts'
import { sampleServerErrors, serverErrorsProblems } from './testing.ts'
import { serverErrorsBlock } from '../results/server-errors.ts'

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
    const ran = await runInTest(
      process.execPath,
      [BIN, 'run', '--base-url', target.url, '--report-dir', out, ...MODULES.flatMap((m) => ['--module', m])],
      {
        cwd: dir,
        env: {
          PATH: process.env.PATH ?? '',
          HOME: dir,
          SHOP_ADMIN_USERNAME: target.admin.username,
          SHOP_ADMIN_PASSWORD: target.admin.password,
          // So every check of the modules is judged (eav's acl checks need the limited admin).
          ...limitedAdminEnv(target),
        },
      },
    )
    if (ran.status !== 1) throw new Error(`the run exited ${ran.status}: ${ran.stderr}`)
    whole = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report
  } finally {
    await target.close()
  }
}, 120_000)

/** The report shard `part + 1` of 2 would have written: its modules' results, its own summary and share of the time. */
function shard(
  modules: string[],
  part: 0 | 1,
  patch: Partial<ReportDraft> = {},
  baseline?: Judging['baseline'],
): Report {
  const results = whole.results.filter((r) => modules.includes(r.module))
  const start = Date.parse(whole.startedAt)
  const mid = start + Math.floor(whole.durationMs / 2)
  const [s, f] = part === 0 ? [start, mid] : [mid - 100, Date.parse(whole.finishedAt)]
  const { certification: _c, exit: _e, baseline: _b, ...draft } = whole
  return completeReport(
    {
      ...draft,
      run: { ...whole.run, id: `${whole.run.id}-${part}`, shard: `${part + 1}/2` },
      startedAt: new Date(s).toISOString(),
      finishedAt: new Date(f).toISOString(),
      durationMs: f - s,
      summary: summarise(results),
      created: part === 0 ? whole.created.slice(0, 2) : whole.created.slice(2),
      runErrors: part === 0 ? [] : ['shard 2 had a hiccup'],
      results,
      plan: {
        ...whole.plan,
        modules: whole.plan.modules.filter((m) => modules.includes(m)),
        selected: whole.plan.selected.filter((c) => modules.includes(c.module)),
        limitedBy: [...whole.plan.limitedBy, `shard ${part + 1}/2`],
      },
      ...patch,
    },
    { made: true, ...(baseline !== undefined ? { baseline } : {}) },
  )
}

const merge = (reports: Report[], names?: string[]) => mergeReports(reports, names).report

describe('mergeReports', () => {
  it("merging the shards of a run gives the whole run's totals, results and certification, judged anew", () => {
    expect(whole.summary.failed).toBe(1)
    expect(whole.summary.notApplicable).toBeGreaterThan(0)
    expect(whole.results.some((r) => r.check === 'workflow')).toBe(true)
    const a = shard(['eav'], 0)
    const b = shard(['analytics-async-backend', 'directory'], 1)
    expect(a.results.length).toBeGreaterThan(0)
    expect(b.results.length).toBeGreaterThan(0)
    expect(a.certification.scope.limitedBy).toContain('shard 1/2')
    for (const [x, y] of [
      [a, b],
      [b, a],
    ] as const) {
      const { report: merged, missing } = mergeReports([x, y])
      expect(missing).toEqual([])
      expect(merged.summary).toEqual(whole.summary)
      expect(merged.results).toEqual(whole.results)
      expect(merged.startedAt).toBe(whole.startedAt)
      expect(merged.finishedAt).toBe(whole.finishedAt)
      expect(merged.durationMs).toBe(whole.durationMs)
      expect(merged.runErrors).toEqual(['shard 2 had a hiccup'])
      expect(merged.created).toHaveLength(whole.created.length)
      expect(merged.run.modules).toEqual(whole.run.modules)
      expect(merged.target).toEqual(whole.target)
      expect(merged.calibration).toEqual(whole.calibration)
      // Judged anew from the merged results: the whole run's statement (and its run error on top).
      expect(merged.certification).toEqual({ ...whole.certification, verdict: 'does not conform' })
      expect(merged.exit).toEqual({ status: 1, reason: '1 check failed, 1 run error' })
    }
    expect(merge([a, b]).run.shards).toEqual([
      { shard: '1/2', id: `${whole.run.id}-0` },
      { shard: '2/2', id: `${whole.run.id}-1` },
    ])
    expect(merge([a, b]).run.id).toMatch(/^split-[0-9a-f]{12}$/)
    expect(merge([a, b]).created).toEqual(whole.created)
  })

  it("lists each shard's server errors, the same request once (its counts and results joined); never in the verdict", () => {
    const sample = sampleServerErrors()
    const [get, post] = [
      sample.entries.find((e) => e.method === 'GET')!,
      sample.entries.find((e) => e.method === 'POST')!,
    ]
    const a = shard(['eav'], 0, { serverErrors: serverErrorsBlock({ entries: [post], unlisted: {} }) })
    const b = shard(['analytics-async-backend', 'directory'], 1, {
      serverErrors: serverErrorsBlock({
        entries: [{ ...post, results: ['x › route'], count: 1 }, get],
        unlisted: { 502: 4 },
      }),
    })
    const merged = merge([a, b])
    expect(merged.serverErrors).toMatchObject({ answers: 8, statuses: { 500: 3, 502: 4, 503: 1 }, operations: 2 })
    expect(merged.serverErrors!.entries).toEqual([get, { ...post, count: 3, results: [...post.results!, 'x › route'] }])
    expect(serverErrorsProblems(merged.serverErrors)).toEqual([])
    expect(merged.exit).toEqual(merge([shard(['eav'], 0), shard(['analytics-async-backend', 'directory'], 1)]).exit)
  })

  it("takes an empty shard (none of the selection's suite files) as a shard that ran and sent nothing", () => {
    const all = shard(MODULES, 0, { runErrors: [] })
    const { schema: _schema, ...noSchema } = all
    const empty = completeReport(
      {
        ...noSchema,
        run: {
          ...all.run,
          id: `${whole.run.id}-empty`,
          shard: '2/2',
          emptyShard: { suiteFiles: 3 },
          deadlines: undefined,
        },
        summary: summarise([]),
        created: [],
        results: [],
        plan: { ...all.plan, modules: [], selected: [], limitedBy: [...whole.plan.limitedBy, 'shard 2/2'] },
      },
      { made: true },
    )
    expect(empty.exit).toEqual({
      status: 0,
      reason:
        "empty shard: shard 2/2 got none of the selection's 3 suite files (the other shards run them); nothing was judged or sent to the shop",
    })
    expect(empty.certification.verdict).toBe('not run')
    expect(whole.schema).toBeDefined()
    for (const pair of [
      [all, empty],
      [empty, all],
    ]) {
      const { report: merged, missing } = mergeReports(pair)
      expect(missing).toEqual([])
      expect(merged.results).toEqual(whole.results)
      expect(merged.certification).toEqual(whole.certification)
      expect(merged.exit).toEqual(whole.exit)
      // The shard that ran says the shop's schema; the merged run is no empty shard.
      expect(merged.schema).toEqual(whole.schema)
      expect(merged.run.emptyShard).toBeUndefined()
    }
  })

  it('names the missing shards, and then the merged statement is partial', () => {
    const a = shard(['eav'], 0)
    const { report, missing } = mergeReports([a])
    expect(missing).toEqual(['2/2'])
    expect(report.certification.verdict).toBe('partial')
    expect(report.certification.scope.limitedBy).toContain('shard 2/2 missing')
    expect(report.certification.scope.text).toMatch(/^partial: \d+ of \d+ checks selected \(.*shard 2\/2 missing\)$/)
    expect(report.certification.modules.map((m) => m.module)).toEqual(['eav'])
  })

  it('counts only what -t selected in each shard: the merge of sliced shards is partial, and says each slice', () => {
    const sliced = (r: Report, pattern: RegExp): Report => {
      const { certification: _c, exit: _e, ...draft } = r
      const plan = {
        ...r.plan,
        selected: r.plan.selected.filter((c) => pattern.test(c.id)),
        limitedBy: [...r.plan.limitedBy, `-t ${String(pattern)}`],
      }
      return completeReport(
        { ...draft, plan, results: r.results.filter((x) => x.applicable === false || pattern.test(x.id)) },
        { made: true },
      )
    }
    // The slice in the second shard: the merge reads its settings from the first.
    const a = shard(['eav'], 0)
    const b = sliced(shard(['analytics-async-backend', 'directory'], 1), /route/)
    const selected = a.plan.selected.length + b.plan.selected.length
    expect(selected).toBeLessThan(whole.plan.selected.length)
    for (const pair of [
      [a, b],
      [b, a],
    ]) {
      const merged = merge(pair)
      expect(merged.plan.selected).toHaveLength(selected)
      // (The shards' one failure keeps the verdict "does not conform": the scope is what the slice changes.)
      expect(merged.certification.scope.whole).toBe(false)
      expect(merged.certification.scope.text).toMatch(
        new RegExp(`^partial: ${selected} of \\d+ checks selected \\(.*-t /route/\\)$`),
      )
    }
  })

  it('takes the same shard twice only when the two are identical', () => {
    const a = shard(['eav'], 0)
    const b = shard(['analytics-async-backend', 'directory'], 1)
    const twice = mergeReports([a, b, JSON.parse(JSON.stringify(a)) as Report], ['a.json', 'b.json', 'a-again.json'])
    expect(twice.duplicates).toEqual(['a-again.json'])
    expect(twice.report.summary).toEqual(whole.summary)
    const rerun = { ...a, run: { ...a.run, id: 'another-run' } }
    expect(() => mergeReports([a, rerun], ['a.json', 'rerun.json'])).toThrow(
      new UsageError(
        `report merge: a.json and rerun.json are both shard 1/2 but differ (runs ${a.run.id} and another-run): give each shard once`,
      ),
    )
  })

  it('refuses reports of different runs, settings or targets, naming the first difference', () => {
    const a = shard(['eav'], 0)
    const b = shard(['directory'], 1)
    const refusal = (other: Report) => {
      try {
        mergeReports([a, other], ['a.json', 'b.json'])
      } catch (err) {
        expect(err).toBeInstanceOf(UsageError)
        return (err as Error).message
      }
      return 'merged'
    }
    expect(refusal({ ...b, spec: { version: '2.4.8' } })).toBe(
      'report merge: b.json is of spec version 2.4.8, a.json of 2.4.9; only shards of one run can be merged',
    )
    expect(refusal({ ...b, target: { ...b.target, baseUrl: 'http://other.test' } })).toMatch(
      /^report merge: b\.json is of target http:\/\/other\.test, store default, second store all, a\.json of http:\/\/127\.0\.0\.1:\d+, store default/,
    )
    expect(refusal({ ...b, target: { ...b.target, storeCode: 'fr' } })).toMatch(
      /^report merge: b\.json is of target .* store fr,/,
    )
    expect(refusal({ ...b, run: { ...b.run, seed: b.run.seed + 1 } })).toBe(
      `report merge: b.json is of seed ${b.run.seed + 1}, a.json of ${a.run.seed}; only shards of one run can be merged`,
    )
    expect(refusal({ ...b, run: { ...b.run, checks: ['access'] } })).toBe(
      'report merge: b.json is of --check access, a.json of (all); only shards of one run can be merged',
    )
    expect(refusal({ ...b, run: { ...b.run, readOnly: true } })).toBe(
      'report merge: b.json is of read-only true, a.json of false; only shards of one run can be merged',
    )
    // A setting recorded only when given: absent in one shard, it differs all the same.
    expect(refusal({ ...b, run: { ...b.run, maxRps: 3 } })).toBe(
      'report merge: b.json is of --max-rps 3, a.json of none; only shards of one run can be merged',
    )
    // An unrelated slice (not a shard: 1/1) of the same target and settings.
    const { shard: _s, ...unsharded } = b.run
    expect(refusal({ ...b, run: unsharded })).toBe(
      'report merge: b.json is shard 1/1, a.json shard 1/2: shards of one run are split the same way',
    )
    expect(() => mergeReports([])).toThrow(new UsageError('report merge: no reports given'))
    // Certification counts from the shards' plans: a report of a version that recorded none is refused, not guessed at.
    const { plan: _p, ...planless } = b
    expect(refusal(planless as Report)).toBe(
      'report merge: b.json has no "plan" block (written by an older shop-conformance): run its shard again',
    )
    // Shards against the bundled reference target each had their own port: still one target.
    const bundled = (r: Report, port: number): Report => ({
      ...r,
      target: { ...r.target, baseUrl: `http://127.0.0.1:${port}`, bundledReferenceTarget: true },
    })
    expect(merge([bundled(a, 1001), bundled(b, 1002)]).summary.total).toBe(a.results.length + b.results.length)
  })

  it("recomputes the baseline's state from the merged results", () => {
    const failure = whole.results.find((r) => r.status === 'failed')!
    const passing = whole.results.find((r) => r.status === 'passed' && r.module === 'eav')!
    const baseline = {
      file: 'known.json',
      baseline: {
        version: 1 as const,
        entries: [
          { id: failure.id, reason: 'SHOP-1' },
          { id: passing.id, reason: 'SHOP-2' },
        ],
      },
      allowStale: false,
    }
    const a = shard(['eav'], 0, {}, baseline)
    const b = shard(['analytics-async-backend', 'directory'], 1, { runErrors: [] }, baseline)
    // Each shard saw one entry as "not in this run".
    expect(a.baseline!.notInThisRun).toEqual([failure.id])
    expect(b.baseline!.notInThisRun).toEqual([passing.id])
    const merged = merge([a, b])
    expect(merged.baseline).toMatchObject({
      file: 'known.json',
      newFailures: [],
      baselinedFailures: [failure.id],
      stale: [passing.id],
      notInThisRun: [],
    })
    expect(merged.certification.baselined).toBe(1)
    expect(merged.exit.status).toBe(1)
    expect(() => mergeReports([a, shard(['directory'], 1)], ['a.json', 'b.json'])).toThrow(
      /^report merge: b\.json is of baseline none, a\.json of known\.json/,
    )
  })

  it('adds up the clean-up, and is partial when any shard was cut short', () => {
    const leftover = (id: string) => ({ kind: 'product', id, label: `product ${id}`, reason: 'DELETE answered 500' })
    const a = shard(['eav'], 0, { cleanup: { removed: 2, leftovers: [leftover('a')] } })
    const b = shard(['directory'], 1, {
      cleanup: { removed: 3, leftovers: [leftover('b')] },
      partial: { reason: 'SIGINT' },
    })
    const merged = merge([a, b])
    expect(merged.cleanup).toEqual({ removed: 5, leftovers: [leftover('a'), leftover('b')] })
    expect(merged.partial).toEqual({ reason: 'SIGINT' })
    expect(merged.exit.status).toBe(130)
    expect(merge([a]).partial).toBeUndefined()
  })

  it('says the longest deadline each kind of call was given in any shard (issue 29)', () => {
    const deadlines = (part: 0 | 1, read: number, heavyWrite: number) => ({
      run: {
        ...whole.run,
        id: `${whole.run.id}-${part}`,
        shard: `${part + 1}/2`,
        deadlines: { read, write: 10_000, heavyWrite },
      },
    })
    const a = shard(['eav'], 0, deadlines(0, 12_000, 10_000))
    const b = shard(['directory'], 1, deadlines(1, 10_000, 45_000))
    expect(whole.run).toMatchObject({ maxTimeoutMs: 120_000, deadlines: { read: expect.any(Number) } })
    expect(merge([a, b]).run).toMatchObject({
      maxTimeoutMs: 120_000,
      deadlines: { read: 12_000, write: 10_000, heavyWrite: 45_000 },
    })
  })

  it('`report merge --out DIR` writes the merged report in every format, and says which shards are missing', async () => {
    const paths = [shard(['eav'], 0), shard(['analytics-async-backend', 'directory'], 1)].map((r, i) => {
      const path = join(dir, `shard-${i}.json`)
      writeFileSync(path, JSON.stringify(r, null, 2))
      return path
    })
    const out = join(dir, 'merged')
    let printed = ''
    let warned = ''
    const status = await reportCommand(['merge', '--out', out, ...paths], {
      out: (t) => (printed += t),
      err: (t) => (warned += t),
    })
    expect(status).toBe(0)
    expect(warned).toBe('')
    // Issue 31.12: in the words every other output uses ("not judged", "not applicable", the required checks), not
    // "skipped" of all results.
    const c = whole.certification
    expect(printed).toBe(
      `merged 2 reports into ${out}/report.json: does not conform · ${c.percent}% of ${c.required} required checks passed · ${c.scope.text}; ${whole.summary.passed} passed, 1 failed, ${c.notJudged} not judged, ${whole.summary.notApplicable} not applicable\n`,
    )
    expect(printed).not.toMatch(/skipped|reports? into .*: \d+ checks/)
    expect(readdirSync(out).sort()).toEqual([...REPORT_FILES].sort())
    const merged = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report
    expect(merged.summary).toEqual(whole.summary)
    expect(merged.results).toEqual(whole.results)
    expect(merged.certification.verdict).toBe('does not conform')
    expect(JSON.parse(readFileSync(join(out, 'report.sarif'), 'utf8')).runs[0].results).toHaveLength(1)
    const half = join(dir, 'half')
    await reportCommand(['merge', '--out', half, paths[0]!], { out: () => {}, err: (t) => (warned += t) })
    expect(warned).toBe('report merge: shard 2/2 missing: the merged report is partial\n')
    expect(readFileSync(join(half, 'summary.md'), 'utf8')).toMatch(/shard 2\/2 missing/)
    await expect(reportCommand(['merge', '--out', out], { out: () => {}, err: () => {} })).rejects.toThrow(
      new UsageError('report merge: no reports given (report merge --out DIR A.json B.json ...)'),
    )
    await expect(reportCommand(['merge', paths[0]!], { out: () => {}, err: () => {} })).rejects.toThrow(
      new UsageError('report merge: --out DIR is required'),
    )
    await expect(reportCommand(['split'], { out: () => {}, err: () => {} })).rejects.toThrow(
      new UsageError('report: unknown subcommand "split" (known: merge, rebaseline)'),
    )
  })
})
