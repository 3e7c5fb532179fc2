/**
 * A killed run's ledger (issue 31.6): the next run into the directory keeps it under its run id and says so in one
 * line, and `cleanup --ledger FILE` removes what the killed run left on the shop, each named.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { REFERENCE_ADMIN, startReferenceTarget, type ReferenceTarget } from '../../reference-target/index.ts'
import { LOCK_FILE } from '../run/report-dir-lock.ts'
import { searcher } from '../setup/cleanup-names.ts'
import { runEmailPrefix } from '../setup/identifiers.ts'
import { Ledger, ledgerHead } from '../setup/ledger.ts'
import { TargetClient } from '../shop/client.ts'
import { Secrets } from '../shop/secrets.ts'
import { requestToken } from '../shop/tokens.ts'
import { cli } from './testing.ts'

const env = { SHOP_ADMIN_USERNAME: REFERENCE_ADMIN.username, SHOP_ADMIN_PASSWORD: REFERENCE_ADMIN.password }
const closers: (() => Promise<void>)[] = []
const dirs: string[] = []
afterAll(async () => {
  for (const c of closers) await c()
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

async function adminToken(target: ReferenceTarget): Promise<string> {
  const client = new TargetClient({ baseUrl: target.url, timeoutMs: 30_000, concurrency: 1, secrets: new Secrets() })
  try {
    return await requestToken(client, new Secrets(), 'admin', REFERENCE_ADMIN, 'default')
  } finally {
    await client.close()
  }
}

/** The customers on the target whose e-mail carries the run's mark. */
async function customersOf(target: ReferenceTarget, runId: string): Promise<string[]> {
  const client = new TargetClient({ baseUrl: target.url, timeoutMs: 30_000, concurrency: 2, secrets: new Secrets() })
  try {
    const token = await adminToken(target)
    const found = await searcher(client, 'default', token)(
      '/V1/customers/search',
      'email',
      runEmailPrefix(runId),
      'like',
    )
    if ('failed' in found) throw new Error(found.failed)
    return found.items.map((c) => String(c.email))
  } finally {
    await client.close()
  }
}

describe('a run killed with kill -9', { timeout: 240_000 }, () => {
  it('leaves its ledger to the next run, which keeps it; cleanup --ledger removes what it made, each named', async () => {
    const target = await startReferenceTarget({})
    closers.push(() => target.close())
    const dir = mkdtempSync(join(tmpdir(), 'killed-run-'))
    dirs.push(dir)
    const reports = join(dir, 'reports')
    const ledgerFile = join(reports, 'ledger.jsonl')
    // Killed as soon as the ledger says a customer of its own was made (the preflight registers them).
    const madeSomething = () => Ledger.read(ledgerFile).some((l) => l.state === 'created')
    const killed = await cli(['run', '--base-url', target.url, '--report-dir', reports, '--seed', '3'], env, {
      signal: { name: 'SIGKILL', when: madeSomething },
    })
    expect(killed.status).toBeNull()
    expect(existsSync(join(reports, 'report.json'))).toBe(false)
    expect(existsSync(join(reports, LOCK_FILE))).toBe(true)
    const runId = ledgerHead(ledgerFile)!.run
    // Its evidence, never joined: the parts its threads were writing.
    const partsOf = (id: string) => readdirSync(reports).filter((f) => f.startsWith(`.evidence-${id}-`))
    expect(partsOf(runId).length).toBeGreaterThan(0)
    const killedLines = readFileSync(ledgerFile, 'utf8')
    const left = await customersOf(target, runId)
    expect(left.length).toBeGreaterThan(0)

    const next = await cli(
      ['run', '--base-url', target.url, '--module', 'directory', '--report-dir', reports, '--seed', '4'],
      env,
    )
    const kept = join(reports, `ledger.${runId}.jsonl`)
    expect(next.stdout).toContain(
      `\nshop-conformance: the ledger of run ${runId}, which ended without writing its report, is kept as ${kept}: \`shop-conformance cleanup --ledger ${kept}\` removes what it left on the shop\n`,
    )
    expect(next.status).toBe(0)
    expect(readFileSync(kept, 'utf8')).toBe(killedLines)
    const report = JSON.parse(readFileSync(join(reports, 'report.json'), 'utf8')) as {
      run: { id: string }
      notes?: string[]
    }
    expect(ledgerHead(ledgerFile)?.run).toBe(report.run.id)
    expect(report.notes?.some((n) => n.includes(`kept as ${kept}`))).toBe(true)
    // The killed run's parts of its evidence are gone with the next run (it joined its own into evidence.har).
    expect(partsOf(runId)).toEqual([])
    expect(existsSync(join(reports, 'evidence.har'))).toBe(true)
    // The next run cleaned up its own only.
    expect(await customersOf(target, runId)).toEqual(left)

    // Another shop than the ledger's, or no admin: refused in one line, nothing sent.
    const elsewhere = await cli(['cleanup', '--ledger', kept, '--base-url', 'http://127.0.0.1:9'], env)
    expect([elsewhere.status, elsewhere.stderr]).toEqual([
      2,
      `shop-conformance: cleanup: ${kept} is of run ${runId} on ${target.url}, not on http://127.0.0.1:9 (--base-url / SHOP_BASE_URL): what a run made is removed on the shop it made it on\n`,
    ])
    const noAdmin = await cli(['cleanup', '--ledger', kept], {})
    expect([noAdmin.status, noAdmin.stderr]).toEqual([
      2,
      'shop-conformance: cleanup: SHOP_ADMIN_USERNAME and SHOP_ADMIN_PASSWORD (or SHOP_ADMIN_TOKEN) are required to remove what the run left\n',
    ])

    const cleanup = await cli(['cleanup', '--ledger', kept], env)
    expect(cleanup.stderr).toBe('')
    expect(cleanup.status).toBe(0)
    expect(cleanup.stdout).toMatch(
      new RegExp(
        `^cleanup of run ${runId} on ${target.url} \\(${kept.replace(/[.]/g, '\\.')}\\): ${left.length} removed, 0 already gone, 0 left\\n`,
      ),
    )
    expect(cleanup.stdout.match(/\n {2}removed customer /g)).toHaveLength(left.length)
    expect(await customersOf(target, runId)).toEqual([])
    expect(cleanup.stdout).not.toContain(REFERENCE_ADMIN.password)
    // What it cannot remove is named, with why, and the exit says something is left: an order has no delete call.
    const withOrder = join(dir, `ledger.${runId}.order.jsonl`)
    writeFileSync(withOrder, `${readFileSync(kept, 'utf8').split('\n')[0]}\n`)
    new Ledger(withOrder)
      .request({ kind: 'order', label: 'order of the guest checkout', key: '000000042' })
      .created('42')
    const order = await cli(['cleanup', '--ledger', withOrder], env)
    expect(order.status).toBe(1)
    expect(order.stdout).toContain(
      ': 0 removed, 0 already gone, 1 left\n  left order 42 (order of the guest checkout): the interface has no call that removes an order',
    )
    // Again, with the admin's token given: nothing is left to remove, and it says what was gone already.
    const again = await cli(['cleanup', '--ledger', kept], { SHOP_ADMIN_TOKEN: await adminToken(target) })
    expect(again.status).toBe(0)
    expect(again.stdout).toMatch(new RegExp(`: 0 removed, ${left.length} already gone, 0 left\\n`))
    expect(again.stdout.match(/\n {2}already gone customer \d+ \(/g)).toHaveLength(left.length)
  })
})
