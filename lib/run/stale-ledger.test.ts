/** A killed run's ledger is kept under its run id by the next run into the directory, never started over. */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { Ledger, ledgerHead, ledgerHeadLine, ledgerRunId } from '../setup/ledger.ts'
import { keepStaleLedger } from './stale-ledger.ts'

const dirs: string[] = []
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })))

/**
 * A report directory whose ledger.jsonl is of run `run` (on a shop, or the bundled target) and made a customer (or only
 * had one refused).
 */
function directory(
  options: { run?: string; bundled?: boolean; head?: boolean; refusedOnly?: boolean; reportOf?: string } = {},
): string {
  const dir = mkdtempSync(join(tmpdir(), 'stale-ledger-'))
  dirs.push(dir)
  const run = options.run ?? 'mk1abcd'
  const file = join(dir, 'ledger.jsonl')
  if (options.head !== false)
    writeFileSync(
      file,
      ledgerHeadLine({
        run,
        ...(options.bundled === true ? {} : { baseUrl: 'https://shop.test' }),
        store: 'default',
        startedAt: '2026-11-29T10:00:00.000Z',
      }),
    )
  const ticket = new Ledger(file).request({
    kind: 'customer',
    label: 'customer main',
    key: `sc.${run}.main.0000abcd@example.com`,
  })
  if (options.refusedOnly === true) ticket.refused('400 "A customer with the same email address already exists."')
  else ticket.created('17')
  if (options.reportOf !== undefined)
    writeFileSync(
      join(dir, 'report.json'),
      `${JSON.stringify({ suite: {}, target: { baseUrl: 'https://shop.test' }, run: { id: options.reportOf, seed: 1 } }, null, 2)}\n`,
    )
  return dir
}

describe('a stale ledger', () => {
  it('of a run that wrote no report is kept as ledger.<run id>.jsonl, whole', () => {
    const dir = directory()
    const before = readFileSync(join(dir, 'ledger.jsonl'), 'utf8')
    expect(keepStaleLedger(dir)).toEqual({ file: join(dir, 'ledger.mk1abcd.jsonl'), runId: 'mk1abcd' })
    expect(existsSync(join(dir, 'ledger.jsonl'))).toBe(false)
    expect(readFileSync(join(dir, 'ledger.mk1abcd.jsonl'), 'utf8')).toBe(before)
  })

  it("is kept when the directory's report is another run's (the one before the killed run)", () => {
    expect(keepStaleLedger(directory({ reportOf: 'mk0older' }))?.runId).toBe('mk1abcd')
  })

  it('whose run wrote its report there is not kept: the report lists its leftovers', () => {
    const dir = directory({ reportOf: 'mk1abcd' })
    expect(keepStaleLedger(dir)).toBeUndefined()
    expect(existsSync(join(dir, 'ledger.jsonl'))).toBe(true)
  })

  it('naming nothing the shop may hold, or of the bundled target (its data ended with it), is not kept', () => {
    expect(keepStaleLedger(directory({ refusedOnly: true }))).toBeUndefined()
    expect(keepStaleLedger(directory({ bundled: true }))).toBeUndefined()
  })

  it("written before ledgers had a head is known by the run id its entities' marks carry", () => {
    const dir = directory({ head: false, run: 'mk2old' })
    expect(ledgerHead(join(dir, 'ledger.jsonl'))).toBeUndefined()
    expect(ledgerRunId(join(dir, 'ledger.jsonl'))).toBe('mk2old')
    expect(keepStaleLedger(dir)?.file).toBe(join(dir, 'ledger.mk2old.jsonl'))
  })

  it('never overwrites a ledger kept before under the same name', () => {
    const dir = directory()
    writeFileSync(join(dir, 'ledger.mk1abcd.jsonl'), 'kept before\n')
    expect(keepStaleLedger(dir)?.file).toBe(join(dir, 'ledger.mk1abcd.2.jsonl'))
    expect(readFileSync(join(dir, 'ledger.mk1abcd.jsonl'), 'utf8')).toBe('kept before\n')
  })

  it("has a head line that Ledger.read skips: its lines are the entities' only", () => {
    const dir = directory()
    expect(Ledger.read(join(dir, 'ledger.jsonl')).map((l) => `${l.kind} ${l.state}`)).toEqual([
      'customer requested',
      'customer created',
    ])
    expect(ledgerHead(join(dir, 'ledger.jsonl'))).toMatchObject({
      ledger: 'shop-conformance',
      run: 'mk1abcd',
      baseUrl: 'https://shop.test',
      store: 'default',
    })
  })
})
