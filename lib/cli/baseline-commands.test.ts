import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { afterAll, describe, expect, it } from 'vitest'
import { UsageError } from '../base/usage-error.ts'
import { readBaseline } from '../report/baseline.ts'
import type { Report } from '../report/model.ts'
import { reportOf, resultOf } from '../report/testing.ts'
import { CATALOG } from '../spec/catalog/index.ts'
import { baselineCommand, rebaselineCommand } from './baseline-commands.ts'
import type { CommandIo } from './command-io.ts'
import { main } from './main.ts'

const P7 = resolve(import.meta.dirname, '../../fixtures/observations/real-runs/2.4.7-p7')
const P7_REPORT = join(P7, 'report-full.json.gz')
const PROFILE = 'platform:2.4.7-p7'
const dir = mkdtempSync(join(tmpdir(), 'shop-conformance-baseline-commands-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function io(): CommandIo & { stdout: () => string } {
  let out = ''
  return { out: (t) => (out += t), err: (t) => (out += t), stdout: () => out }
}

const read = (out: string, file: string) => readFileSync(join(out, file), 'utf8')

describe('report rebaseline: the shipped run of release 2.4.7-p7 judged against its profile', () => {
  it('exits 0 with "22 baselined" when the extension checks are reported only, and writes every format from the judged report', async () => {
    const out = join(dir, 'p7')
    const t = io()
    expect(
      await main(
        ['report', 'rebaseline', P7_REPORT, '--baseline', PROFILE, '--extensions', 'report-only', '--out', out],
        t,
      ),
    ).toBe(0)
    expect(t.stdout()).toContain(
      `Baseline ${PROFILE}: 0 new failures, 22 baselined, 0 stale, 0 not judged, 0 not in this run; 2 new extension check failures (not the spec's)\n`,
    )
    expect(t.stdout()).toContain(
      'Exit 0: no new failure (22 baselined); 2 extension checks failed, reported only (--extensions report-only)\n',
    )
    const report = JSON.parse(read(out, 'report.json')) as Report
    expect(report.baseline).toMatchObject({
      file: PROFILE,
      newFailures: [expect.stringContaining('extension-route'), expect.stringContaining('extension-route')],
      stale: [],
      notInThisRun: [],
    })
    expect(report.baseline!.baselinedFailures).toHaveLength(22)
    expect(report.baseline!.entries[0]).toMatchObject({ release: '2.4.7-p7', evidence: { kind: 'renamed' } })
    expect(report.certification).toMatchObject({ verdict: 'incomplete', baselined: 22 })
    expect(report.notes!.at(-1)).toBe(
      `judged again by \`report rebaseline\` against ${PROFILE} with --extensions report-only; as run it had no baseline and exited 1`,
    )
    expect(read(out, 'summary.md')).toContain(`**Baseline** \`${PROFILE}\`: 0 new failures, 22 baselined, 0 stale,`)
    expect(read(out, 'summary.md')).toContain('**baselined**: 2.4.7-p7 known deviation (renamed): 404 no-route;')
    expect(read(out, 'junit.xml')).toContain(
      'baselined: 2.4.7-p7 known deviation (configuration): 404 no-route: the two-factor modules are off',
    )
    expect(read(out, 'report.html')).toContain('2.4.7-p7 known deviation (behaviour)')
  })

  it("with the run's own gate on extension checks, exits 1 on those two, which the profile does not list", async () => {
    const t = io()
    expect(await rebaselineCommand([P7_REPORT, '--baseline', PROFILE, '--out', join(dir, 'p7-gate')], t)).toBe(1)
    expect(t.stdout()).toContain(
      "Exit 1: 2 extension checks failed (not the spec's; --extensions report-only reports them without failing the run)\n",
    )
  })

  it('with one more failure, exits 1 naming it', async () => {
    const report = JSON.parse(gunzipSync(readFileSync(P7_REPORT)).toString('utf8')) as Report
    const broken = report.results.find((r) => r.status === 'passed' && r.extension !== true && r.check === 'access')!
    Object.assign(broken, { status: 'failed', message: 'answered 200 to no token' })
    mkdirSync(join(dir, 'p7-worse'))
    writeFileSync(join(dir, 'p7-worse', 'report.json'), JSON.stringify(report))
    const t = io()
    expect(
      await rebaselineCommand(
        [
          join(dir, 'p7-worse'),
          '--baseline',
          PROFILE,
          '--extensions',
          'report-only',
          '--out',
          join(dir, 'p7-worse-judged'),
        ],
        t,
      ),
    ).toBe(1)
    expect(t.stdout()).toContain(
      `Baseline ${PROFILE}: 1 new failure, 22 baselined, 0 stale, 0 not judged, 0 not in this run; 2 new extension check failures (not the spec's)\n  ✗ new: ${broken.id}\n`,
    )
    expect(t.stdout()).toContain('Exit 1: 1 new failure (not in the baseline)\n')
  })

  it('refuses unusable input in one line', async () => {
    const never = join(dir, 'never.json')
    writeFileSync(never, JSON.stringify(reportOf([], { runErrors: ['target unreachable'] }, { made: false })))
    const refusal = (argv: string[]) => rebaselineCommand(argv, io())
    await expect(refusal([P7_REPORT, '--out', join(dir, 'x')])).rejects.toThrow(
      new UsageError('report rebaseline: --baseline FILE|PROFILE is required'),
    )
    await expect(refusal([P7_REPORT, '--baseline', 'platform:2.4.9', '--out', join(dir, 'x')])).rejects.toThrow(
      /^baseline platform:2\.4\.9: no release profile of that name in this package/,
    )
    await expect(
      refusal([P7_REPORT, '--baseline', PROFILE, '--out', join(dir, 'x'), '--extensions', 'off']),
    ).rejects.toThrow(new UsageError('report rebaseline: --extensions must be gate or report-only, not "off"'))
    await expect(refusal([P7_REPORT, never, '--baseline', PROFILE, '--out', join(dir, 'x')])).rejects.toThrow(
      new UsageError(
        'report rebaseline: one report expected (report rebaseline REPORT --baseline FILE --out DIR), got 2',
      ),
    )
    await expect(refusal([never, '--baseline', PROFILE, '--out', join(dir, 'x')])).rejects.toThrow(
      /^report rebaseline: .*never\.json: it is the report of a run that never started/,
    )
    await expect(
      refusal([join(dir, 'p7-worse'), '--baseline', PROFILE, '--out', join(dir, 'p7-worse')]),
    ).rejects.toThrow(
      new UsageError(
        `report rebaseline: --out ${join(dir, 'p7-worse')} holds one of the inputs; write the report elsewhere`,
      ),
    )
  })
})

describe('baseline --profile, baseline list', () => {
  const report = reportOf([resultOf(CATALOG[0]!, 'failed', 'no route'), resultOf(CATALOG[1]!, 'passed', 'ok')], {
    startedAt: '2026-05-04T10:00:00.000Z',
  })
  const from = join(dir, 'small.json')
  writeFileSync(from, JSON.stringify(report))

  it('writes a profile from a run, untraced or from its traced list, and refuses a list that does not match', async () => {
    const out = join(dir, 'profiles', 'platform-2.4.8.json')
    const t = io()
    expect(
      await baselineCommand(
        ['--from', from, '--profile', 'platform:2.4.8', '--reason', 'not traced yet', '--out', out],
        t,
      ),
    ).toBe(0)
    expect(t.stdout()).toBe(
      `profile platform:2.4.8 → ${out}: 1 spec failure of ${from}, untraced: trace each (evidence kind and why) before proposing it\n`,
    )
    expect(readBaseline(out)).toMatchObject({
      profile: { name: 'platform:2.4.8', release: '2.4.8' },
      entries: [{ id: report.results[0]!.id, evidence: { kind: 'untraced', why: 'no route' } }],
    })
    const tsv = join(dir, 'known-deviations.tsv')
    writeFileSync(tsv, `# 2.4.8, defaults\n${report.results[0]!.id}\tabsent\t404 no-route\n`)
    expect(
      await baselineCommand(['--from', from, '--profile', 'platform:2.4.8', '--deviations', tsv, '--out', out], io()),
    ).toBe(0)
    expect(readBaseline(out).entries).toEqual([
      {
        id: report.results[0]!.id,
        reason: '2.4.8 known deviation (absent): 404 no-route',
        release: '2.4.8',
        evidence: { kind: 'absent', why: '404 no-route' },
      },
    ])
    writeFileSync(tsv, `${report.results[1]!.id}\tabsent\t404 no-route\n`)
    await expect(
      baselineCommand(['--from', from, '--profile', 'platform:2.4.8', '--deviations', tsv, '--out', out], io()),
    ).rejects.toThrow(/^deviations .*known-deviations\.tsv: 1 of the spec's failures of .*small\.json are not on it/)
    await expect(baselineCommand(['--from', from, '--deviations', tsv, '--out', out], io())).rejects.toThrow(
      new UsageError(
        'baseline --deviations: only with --profile NAME (a release profile is made from a run and its traced list)',
      ),
    )
    await expect(
      baselineCommand(
        ['--from', from, '--profile', 'platform:2.4.8', '--deviations', tsv, '--reason', 'x', '--out', out],
        io(),
      ),
    ).rejects.toThrow(/^baseline: --reason or --deviations, not both/)
  })

  it('lists the shipped profiles', async () => {
    const t = io()
    expect(await main(['baseline', 'list'], t)).toBe(0)
    expect(t.stdout()).toMatch(/^platform:2\.4\.7-p7 — 22 entries /)
    expect(await main(['baseline', 'list', '--format', 'json'], io())).toBe(2)
  })
})
