import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { CHECK_KINDS } from '../checks/index.ts'
import { reportOf, resultOf } from '../report/testing.ts'
import { dryRunPlan } from './dry-run.ts'
import { CATALOG } from '../spec/catalog/index.ts'
import { loadConfig } from '../settings/config.ts'
import { catalogListing } from './commands.ts'
import { throughSlowReader } from './testing.ts'

// Outputs larger than a pipe's buffer (64 KiB), read by a reader that is slower than the writer.
describe.concurrent('every output reaches a pipe whole', () => {
  const dir = mkdtempSync(join(tmpdir(), 'shop-conformance-pipes-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('list --format json', async () => {
    const r = await throughSlowReader(['list', '--format', 'json'], dir)
    expect(r.status).toBe(0)
    expect(r.stdout.length).toBeGreaterThan(64 * 1024)
    expect(JSON.parse(r.stdout)).toEqual(catalogListing())
  })

  it('diff --format json', async () => {
    const long = 'x'.repeat(400)
    const a = join(dir, 'a.json')
    const b = join(dir, 'b.json')
    writeFileSync(a, JSON.stringify(reportOf(CATALOG.map((row) => resultOf(row, 'passed', 'ok')))))
    writeFileSync(b, JSON.stringify(reportOf(CATALOG.map((row, i) => resultOf(row, 'failed', `${i} ${long}`)))))
    const r = await throughSlowReader(['diff', a, b, '--format', 'json'], dir)
    expect(r.status).toBe(1)
    expect(r.stdout.length).toBeGreaterThan(64 * 1024)
    expect((JSON.parse(r.stdout) as { newlyFailing: unknown[] }).newlyFailing).toHaveLength(CATALOG.length)
  })

  it('run --dry-run', async () => {
    const r = await throughSlowReader(['run', '--dry-run'], dir)
    expect(r.status).toBe(0)
    expect(r.stdout.length).toBeGreaterThan(64 * 1024)
    expect(r.stdout).toBe(await dryRunPlan(loadConfig(['--dry-run'], {}, {}, CHECK_KINDS, [])))
  })

  it('a reader that stops early ends the output without an error', async () => {
    const r = await throughSlowReader(['list', '--format', 'json'], dir, 0, 'head -c 100')
    expect(r).toMatchObject({ status: 0, stderr: '' })
    expect(r.stdout).toHaveLength(100)
  })
})
