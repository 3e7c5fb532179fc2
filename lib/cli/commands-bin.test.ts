/**
 * The commands as a user starts them: the shop-conformance binary in a process of its own (exit status, one line
 * on stderr, its working directory removed under it; matrix; a run gated by a release's profile). What each
 * command does, in-process: commands.test.ts, baseline-commands.test.ts, matrix-command.test.ts.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { resolveBaseline } from '../report/profiles.ts'
import { planResults, reportOf, reportOfStatuses, writtenReport } from '../report/testing.ts'
import { runInTest, spawnInTest } from '../../test-setup/child-processes.ts'
import { rebaselineCommand } from './baseline-commands.ts'
import { cli } from './testing.ts'

const BIN = resolve(import.meta.dirname, 'bin.mjs')
const dir = mkdtempSync(join(tmpdir(), 'shop-conformance-commands-bin-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const good = writtenReport(dir, 'good', reportOfStatuses('good', ['passed', 'passed', 'failed', 'skipped']))
const worse = writtenReport(dir, 'worse', reportOfStatuses('worse', ['passed', 'failed', 'failed', 'skipped']))

describe.concurrent('the commands through the shop-conformance binary', () => {
  const run = async (args: string[]) => {
    const { status, stdout, stderr } = await runInTest(process.execPath, [BIN, ...args], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', HOME: dir },
    })
    return { status: status ?? -1, stdout, stderr }
  }

  it('diff exits 1 on a new failure', async () => {
    const r = await run(['diff', good, worse])
    expect(r).toMatchObject({ status: 1, stderr: '' })
    expect(r.stdout).toContain('1 newly failing')
  })

  it('unusable input: exit 2, one line on stderr, no stack trace', async () => {
    const r = await run(['diff', good, join(dir, 'missing.json')])
    expect(r).toEqual({
      status: 2,
      stdout: '',
      stderr: `shop-conformance: report ${join(dir, 'missing.json')}: cannot read it (ENOENT)\n`,
    })
  })

  it('stops at once, in one line (exit 2), when its working directory is removed under it', {
    timeout: 60_000,
  }, async () => {
    const gone = mkdtempSync(join(tmpdir(), 'shop-conformance-gone-'))
    const child = spawnInTest(process.execPath, [BIN, 'run', '--quiet'], {
      cwd: gone,
      env: { PATH: process.env.PATH ?? '', HOME: gone },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stderr!.on('data', (d) => (stderr += d))
    const closed = new Promise<number | null>((done) => child.on('close', done))
    // Under way: the run has said its seed and end, and is now starting its target and sending.
    await new Promise<void>((started) =>
      child.stdout!.on('data', (d) => (stdout += d).includes('at the latest') && started()),
    )
    rmSync(gone, { recursive: true })
    const removedAt = Date.now()
    expect(await closed).toBe(2)
    // It looks every 250 ms; a whole run takes seconds more. The margin is a loaded machine's.
    expect(Date.now() - removedAt).toBeLessThan(3_000)
    expect(stderr).toBe(`shop-conformance: the working directory ${gone} was removed: stopping\n`)
  })

  it('--help names every command', async () => {
    const help = await run(['--help'])
    expect(help.status).toBe(0)
    for (const c of ['list', 'baseline', 'diff', 'report merge', 'sign', 'verify'])
      expect(help.stdout).toContain(`shop-conformance ${c} `)
  })
})

describe('shop-conformance matrix', () => {
  it('runs as the binary a user starts', async () => {
    const report = writtenReport(dir, 'acme', reportOf(planResults(), { target: { name: 'Acme', version: '1.0' } }))
    const run = await cli(['matrix', report, '--out', join(dir, 'matrix')])
    expect(run.stderr).toBe('')
    expect(run.status).toBe(0)
    expect(run.stdout).toMatch(
      /^matrix .*\/matrix\/matrix\.html \(also matrix\.json, history\.json\): 1 implementation × \d+ results of the spec's checks, 0 where they differ\n/,
    )
  })
})

describe('a run against the reference target with the 2.4.7-p7 profile', () => {
  const PROFILE = 'platform:2.4.7-p7'
  it('reports each entry that passes there as stale, and says the shop does better than the release', {
    timeout: 300_000,
  }, async () => {
    const run = await cli(['run', '--baseline', PROFILE])
    const r = run.report!
    const ids = resolveBaseline(PROFILE).entries.map((e) => e.id)
    const passing = ids.filter((id) => r.results.find((x) => x.id === id)?.status === 'passed')
    // The reference target serves every route and behaviour the release lacks.
    expect(passing).toHaveLength(22)
    expect(r.baseline).toMatchObject({ file: PROFILE, stale: passing, newFailures: [], baselinedFailures: [] })
    expect(run.status).toBe(1)
    expect(run.stdout).toContain(
      'Exit 1: 22 stale baseline entries (now passing: the shop does better than release 2.4.7-p7 here: pass --allow-stale, or copy the profile (baseline list) and remove them)',
    )
    expect(run.stdout).toContain(
      `! stale (now passes; the shop does better than release 2.4.7-p7 here: pass --allow-stale, or copy the profile (baseline list) and remove it): ${ids[0]}`,
    )
    expect(readFileSync(join(run.dir, 'reports', 'summary.md'), 'utf8')).toContain('## Stale baseline entries (22)')
    // Allowed, the same report passes: judged again, not run again.
    let printed = ''
    const io = { out: (t: string) => (printed += t), err: (t: string) => (printed += t) }
    expect(
      await rebaselineCommand(
        [join(run.dir, 'reports'), '--baseline', PROFILE, '--allow-stale', '--out', join(run.dir, 'allowed')],
        io,
      ),
    ).toBe(0)
    expect(printed).toContain('Exit 0: no new failure (0 baselined, 22 stale entries allowed)')
  })
})
