/**
 * Issue 21: a run stopped during its preflight — a timeout, Ctrl-C — after it had registered its customers left
 * them on the shop and reported "removed 0, leftovers none". Whatever ends a run after its first write, cleanup runs
 * from the ledger and the report names what is left.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, it, onTestFinished } from 'vitest'
import { spawnInTest } from '../../test-setup/child-processes.ts'
import {
  REFERENCE_ADMIN,
  startReferenceTarget,
  type ReferenceTarget,
  type ReferenceTargetOptions,
} from '../../reference-target/index.ts'
import { cli } from '../cli/testing.ts'
import { ANSWER_DEADLINE_MS } from '../../test-setup/deadlines.ts'

const ADMIN_ENV = { SHOP_ADMIN_USERNAME: REFERENCE_ADMIN.username, SHOP_ADMIN_PASSWORD: REFERENCE_ADMIN.password }
// The preflight proves the customer token on GET /V1/carts/mine/payment-information, after registering the run's
// customers.
const customers = (t: ReferenceTarget) => Object.keys(t.snapshot().customers).length

describe.concurrent('a run stopped during its preflight', () => {
  const closers: (() => Promise<void>)[] = []
  afterAll(async () => {
    for (const c of closers) await c()
  })
  async function target(options: ReferenceTargetOptions) {
    const t = await startReferenceTarget(options)
    closers.push(() => t.close())
    return t
  }

  it('by a timeout: exit 2, and the customers it had registered are removed', { timeout: 120_000 }, async () => {
    const t = await target({ faults: [{ name: 'hang', method: 'GET', path: '/V1/carts/mine/payment-information' }] })
    // It waits out the deadline: in the waiting runs' slots (lib/cli/testing.ts).
    const run = await cli(['run', '--base-url', t.url, '--timeout-ms', String(ANSWER_DEADLINE_MS)], ADMIN_ENV, {
      slot: 'waiting',
    })
    expect(run.status).toBe(2)
    expect(run.stderr).toMatch(/target stopped answering: GET \/V1\/carts\/mine\/payment-information/)
    expect(run.stderr).toMatch(/the run had made 2 entities: removed 2, left 0\)/)
    expect(run.report!.cleanup).toEqual({ removed: 2, leftovers: [] })
    expect(customers(t)).toBe(0)
  })

  it('by Ctrl-C: exit 130, the customers it had registered removed, the report written', {
    timeout: 120_000,
  }, async () => {
    // The customer check is held back for a minute: the run is in its preflight, its customers made, when it is
    // stopped.
    const t = await target({
      faults: [{ name: 'slow', method: 'GET', path: '/V1/carts/mine/payment-information' }],
      slowMs: 60_000,
    })
    const run = await cli(['run', '--base-url', t.url], ADMIN_ENV, {
      signal: { name: 'SIGINT', when: () => customers(t) >= 2 },
    })
    expect(run.status).toBe(130)
    expect(run.report!.cleanup).toEqual({ removed: 2, leftovers: [] })
    expect(run.report!.runErrors).toContain('the run was interrupted (SIGINT)')
    expect(customers(t)).toBe(0)
  })

  // Issue 29: Ctrl-C came while the registrations were in flight; the shop made the customers after the cleanup had
  // searched, and the report said nothing was left. The cleanup waits for the writes in flight (each by its deadline).
  it('by Ctrl-C while its registrations are in flight: the customers the shop makes afterwards are removed', {
    timeout: 120_000,
  }, async () => {
    // Each registration is worked on for 3 s before it is made, well within the deadline; the run is stopped once both
    // have reached the shop (the admin token's POST, then the two registrations).
    const t = await target({ variants: ['slow-registration'], slowMs: 3_000 })
    const run = await cli(['run', '--base-url', t.url, '--timeout-ms', String(ANSWER_DEADLINE_MS)], ADMIN_ENV, {
      signal: { name: 'SIGINT', when: () => (t.stats().byMethod.POST ?? 0) >= 3 },
    })
    expect(run.status).toBe(130)
    expect(customers(t)).toBe(0)
    expect(run.report!.cleanup).toEqual({ removed: 2, leftovers: [] })
    expect(run.report!.created.map((c) => c.kind)).toEqual(['customer', 'customer'])
  })
})

/**
 * A preload that marks (`marker`, a file) when the process first listens for SIGINT: Node catches SIGINT from its
 * start (to reset the terminal, then dies of it), so the process's signal mask cannot tell when the binary listens.
 */
function listeningMark(marker: string): string {
  const code = `import { writeFileSync } from 'node:fs'
const on = process.on.bind(process)
process.on = (event, listener) => { const r = on(event, listener); if (event === 'SIGINT') writeFileSync(${JSON.stringify(marker)}, ''); return r }`
  return `data:text/javascript,${encodeURIComponent(code)}`
}

// Issue 31.15: a Ctrl-C in the first second or so (vitest and the suite loading, before the run takes the signals)
// ended the process without a word and without a report.
describe('a run stopped before it took the signals', () => {
  it('by Ctrl-C while vitest loads: one line saying nothing was sent and no report written, exit 130', {
    timeout: 120_000,
  }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'shop-conformance-early-'))
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
    const bin = resolve(import.meta.dirname, '../cli/bin.mjs')
    const marker = join(dir, 'listening')
    const child = spawnInTest(
      process.execPath,
      [
        '--import',
        listeningMark(marker),
        bin,
        'run',
        '--base-url',
        'http://127.0.0.1:9',
        '--report-dir',
        join(dir, 'reports'),
      ],
      { cwd: dir, env: { PATH: process.env.PATH ?? '', HOME: dir, ...ADMIN_ENV } },
    )
    let stderr = ''
    child.stderr!.on('data', (d) => (stderr += d))
    const closed = new Promise<number | null>((done) => child.on('close', (status) => done(status)))
    // Sent as soon as the process listens for SIGINT: the binary's first lines, long before vitest has loaded.
    while (!existsSync(marker)) await new Promise((r) => setTimeout(r, 10))
    child.kill('SIGINT')
    expect(await closed).toBe(130)
    expect(stderr).toBe(
      'shop-conformance: interrupted by SIGINT before the run started: nothing was sent to the target and no report was written\n',
    )
    expect(existsSync(join(dir, 'reports', 'report.json'))).toBe(false)
  })
})
