/**
 * Cleanup removes what the ledger says the run made and what still carries the run's mark on the target — a
 * creation whose answer never came may have been made — touches nothing else, and lists whatever of the run's
 * is or may still be there: against the reference target, seeded with foreign data. Its searches, order and
 * repeats on answers the test gives: cleanup-answers.test.ts.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { Ledger } from './ledger.ts'
import { runEmail } from './identifiers.ts'
import { Builders } from './builders.ts'
import { diffSnapshots, startReferenceTarget, type ReferenceTarget } from '../../reference-target/index.ts'
import { Shop } from '../../reference-target/testing-shop.ts'
import type { TargetClient } from '../shop/client.ts'
import type { RequestSpec } from '../shop/request.ts'
import { TargetClient as Client } from '../shop/client.ts'
import { Secrets } from '../shop/secrets.ts'
import { cleanUp } from './cleanup.ts'
import { answered } from '../shop/testing.ts'

const RUN = 'cleanrun0001'
const closers: (() => Promise<void>)[] = []
afterAll(() => Promise.all(closers.map((c) => c())))

async function seeded(): Promise<{ target: ReferenceTarget; shop: Shop; client: TargetClient }> {
  const target = await startReferenceTarget({ seedForeignData: true })
  const client = new Client({ baseUrl: target.url, timeoutMs: 5000, concurrency: 4, secrets: new Secrets() })
  closers.push(
    () => target.close(),
    () => client.close(),
  )
  return { target, shop: await Shop.open(target), client }
}

describe('cleanup', () => {
  it('finds and removes what the run made although no answer said so, and lists it; nothing foreign changes', async () => {
    const { target, shop, client } = await seeded()
    const b = new Builders(1, RUN)
    const product = b.product('late')
    const customerEmail = runEmail(RUN, 'main', 'customer ')
    const ledger = new Ledger()
    // Requested, answers never came — but the target made them (as the late-creation variant does).
    ledger.request({ kind: 'product', label: 'product late', key: product.sku })
    ledger.request({ kind: 'customer', label: 'main customer', key: customerEmail })
    ledger.request({ kind: 'order', label: 'order' })
    // Created and answered: removed from the ledger's own record.
    const made = ledger.request({ kind: 'product', label: 'product main', key: b.sku('main') })
    const before = target.snapshot()
    await shop.product(product.sku)
    await shop.customer(customerEmail)
    await shop.product(b.sku('main'))
    made.created(b.sku('main'))

    const out = await cleanUp(ledger.entries(), client, shop.admin, 'default', { id: RUN, ledger })
    expect(out.removed.map((r) => `${r.kind} ${r.label}`).sort()).toEqual([
      'customer main customer',
      'product product late',
      'product product main',
    ])
    // The order whose placement got no answer: the search by the run's e-mail shows none was made.
    expect(out.leftovers).toEqual([])
    expect(diffSnapshots(before, target.snapshot())).toEqual({ changed: [], added: [], removed: [] })
    // The ledger says what the search found.
    expect(
      ledger
        .entries()
        .filter((e) => e.state === 'created' && e.reason?.startsWith('found by the cleanup'))
        .map((e) => e.kind)
        .sort(),
    ).toEqual(['customer', 'product'])
  })

  it('lists what it could not remove, and what is still there after a removal answered with a success', async () => {
    const { shop, client } = await seeded()
    const ledger = new Ledger()
    const sku = new Builders(1, RUN).sku('kept')
    await shop.product(sku)
    ledger.request({ kind: 'product', label: 'product kept', key: sku }).created(sku)
    // A target whose DELETE of products answers true and removes nothing.
    const lying = {
      send: (spec: RequestSpec) =>
        spec.method === 'DELETE' ? Promise.resolve(answered(200, true)) : client.send(spec),
    } as unknown as TargetClient
    const out = await cleanUp(ledger.entries(), lying, shop.admin, 'default', { id: RUN })
    expect(out.removed).toEqual([])
    expect([...out.leftovers].sort((a, b) => a.kind.localeCompare(b.kind))).toEqual([
      {
        kind: 'product',
        id: sku,
        label: 'product kept',
        reason: "still found by the cleanup's search (GET /V1/products) after 3 removals answered with a success",
      },
    ])
  })
})
