/**
 * Cleanup removes what the ledger says the run made and what still carries the run's mark on the target — a
 * creation whose answer never came may have been made — touches nothing else, and lists whatever of the run's
 * is or may still be there.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { Ledger } from './ledger.ts'
import { runEmail } from './identifiers.ts'
import { Builders } from './builders.ts'
import { diffSnapshots, startReferenceTarget, type ReferenceTarget } from '../../reference-target/index.ts'
import { Shop } from '../../reference-target/testing-shop.ts'
import type { TargetClient } from '../shop/client.ts'
import type { Outcome, RequestSpec } from '../shop/request.ts'
import { TargetClient as Client } from '../shop/client.ts'
import { Secrets } from '../shop/secrets.ts'
import { cleanUp } from './cleanup.ts'
import { endpointText } from '../spec/endpoint-id.ts'

const RUN = 'cleanrun0001'
const closers: (() => Promise<void>)[] = []
afterAll(() => Promise.all(closers.map((c) => c())))

async function seeded(): Promise<{ target: ReferenceTarget; shop: Shop; client: TargetClient }> {
  const target = await startReferenceTarget({ seedForeignData: true })
  const client = new Client({ baseUrl: target.url, timeoutMs: 5000, concurrency: 4, secrets: new Secrets() })
  closers.push(() => target.close(), () => client.close())
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
    expect(out.removed.map((r) => `${r.kind} ${r.label}`).sort()).toEqual(['customer main customer', 'product product late', 'product product main'])
    // The order whose placement got no answer: the search by the run's e-mail shows none was made.
    expect(out.leftovers).toEqual([])
    expect(diffSnapshots(before, target.snapshot())).toEqual({ changed: [], added: [], removed: [] })
    // The ledger says what the search found.
    expect(ledger.entries().filter((e) => e.state === 'created' && e.reason?.startsWith('found by the cleanup')).map((e) => e.kind).sort()).toEqual(['customer', 'product'])
  })

  it('lists what it could not remove, and what is still there after a removal answered with a success', async () => {
    const { shop, client } = await seeded()
    const ledger = new Ledger()
    const sku = new Builders(1, RUN).sku('kept')
    await shop.product(sku)
    ledger.request({ kind: 'product', label: 'product kept', key: sku }).created(sku)
    // A target whose DELETE of products answers true and removes nothing.
    const lying = { send: (spec: RequestSpec) => (spec.method === 'DELETE' ? Promise.resolve(answer(200, true)) : client.send(spec)) } as unknown as TargetClient
    const out = await cleanUp(ledger.entries(), lying, shop.admin, 'default', { id: RUN })
    expect(out.removed).toEqual([])
    expect([...out.leftovers].sort((a, b) => a.kind.localeCompare(b.kind))).toEqual([{ kind: 'product', id: sku, label: 'product kept', reason: "still found by the cleanup's search (GET /V1/products) after 3 removals answered with a success" }])
  })

  it('removes only what carries the run mark when the target ignores the search filter, and says when it could not search', async () => {
    const sent: string[] = []
    const fake = {
      send: async (spec: RequestSpec): Promise<Outcome> => {
        sent.push(endpointText(spec))
        if (spec.method === 'DELETE') return answer(200, true)
        if (spec.path === '/V1/products') return answer(200, { items: [{ sku: 'MB01', id: 1 }, { sku: `sc-${RUN}-x-00000001`, id: 9 }, { sku: `sc-${RUN}x-other-run`, id: 10 }], total_count: 3 })
        if (spec.path === '/V1/customers/search') return answer(200, { items: [{ email: 'roni_cost@example.com', id: 1 }], total_count: 1 })
        return answer(500, { message: 'Internal Error' })
      },
    } as unknown as TargetClient
    const out = await cleanUp([], fake, 'token', 'default', { id: RUN })
    // Only the run's: removed, found again (this fake removes nothing), removed again, then listed.
    expect(sent.filter((s) => s.startsWith('DELETE'))).toEqual(Array(2).fill(`DELETE /V1/products/sc-${RUN}-x-00000001`))
    expect(out.removed).toEqual([])
    expect([...out.leftovers].sort((a, b) => a.kind.localeCompare(b.kind))).toEqual([
      { kind: 'attribute set', id: '?', label: `every attribute set whose attribute_set_name starts with sc-${RUN} `, reason: 'not known whether any is left: the search GET /V1/eav/attribute-sets/list answered 500 "Internal Error"' },
      { kind: 'product', id: `sc-${RUN}-x-00000001`, label: `product sc-${RUN}-x-00000001`, reason: "still found by the cleanup's search (GET /V1/products) after 2 removals answered with a success" },
    ])
  })

  // Issue 21: orders that "may have been made" were listed with id "?"; the search by the run's e-mail names each.
  it('names every order of the run by its id and increment id, found by its e-mail, instead of a "?"', async () => {
    const email = runEmail(RUN, 'guest', 'address ')
    const fake = {
      send: async (spec: RequestSpec): Promise<Outcome> => {
        if (spec.path === '/V1/orders') return answer(200, { items: [{ entity_id: 41, increment_id: '000000041', customer_email: email }, { entity_id: 42, increment_id: '000000042', customer_email: 'roni_cost@example.com' }], total_count: 2 })
        return answer(200, { items: [], total_count: 0 })
      },
    } as unknown as TargetClient
    const ledger = new Ledger()
    ledger.request({ kind: 'order', label: 'order of the credit memo workflow' })
    const out = await cleanUp(ledger.entries(), fake, 'token', 'default', { id: RUN })
    expect(out.leftovers).toEqual([{ kind: 'order', id: '41', label: `order 000000041 (${email})`, reason: 'the interface has no call that removes an order (found by its e-mail, GET /V1/orders)' }])
  })

  // A shop refuses to remove a tax class a tax rule still names: what uses other entities goes first, in a round of its own.
  it('removes what uses other entities before what they use', async () => {
    const gone = new Set<string>()
    const fake = {
      send: async (spec: RequestSpec): Promise<Outcome> => {
        if (spec.method === 'DELETE') {
          if (spec.path.startsWith('/V1/taxClasses/') && !gone.has('/V1/taxRules/5')) return answer(400, { message: 'The tax class is used by a tax rule.' })
          gone.add(spec.path)
          return answer(200, true)
        }
        return answer(200, { items: [], total_count: 0 })
      },
    } as unknown as TargetClient
    const ledger = new Ledger()
    ledger.request({ kind: 'tax class', label: 'tax class' }).created('3')
    ledger.request({ kind: 'tax rule', label: 'tax rule' }).created('5')
    const out = await cleanUp(ledger.entries(), fake, 'token', 'default', { id: RUN })
    expect(out.leftovers).toEqual([])
    expect(out.removed.map((r) => r.kind).sort()).toEqual(['tax class', 'tax rule'])
  })

  // Issue 21: a creation repeated after a timeout made two products with one sku (the first attempt was still queued
  // at the shop); a removal by sku takes one. Every copy is removed, and nothing blames the shop.
  it('removes every copy the run made under one key, searching again after each round', async () => {
    const sku = `sc-${RUN}-twice-00000002`
    let copies = 2
    const deletes: string[] = []
    const fake = {
      send: async (spec: RequestSpec): Promise<Outcome> => {
        if (spec.method === 'DELETE') {
          deletes.push(spec.path)
          copies = Math.max(0, copies - 1)
          return answer(200, true)
        }
        if (spec.path === '/V1/products') return answer(200, { items: Array(copies).fill({ sku, id: 7 }), total_count: copies })
        return answer(200, { items: [], total_count: 0 })
      },
    } as unknown as TargetClient
    const ledger = new Ledger()
    ledger.request({ kind: 'product', label: 'product twice', key: sku }).created(sku)
    const out = await cleanUp(ledger.entries(), fake, 'token', 'default', { id: RUN })
    expect(copies).toBe(0)
    expect(deletes).toHaveLength(2)
    expect(out).toEqual({ removed: [{ kind: 'product', id: sku, label: 'product twice' }], leftovers: [] })
  })
})

function answer(status: number, body: unknown): Outcome {
  return { answer: { status, headers: {}, body, json: true, text: JSON.stringify(body) }, exchange: { request: { method: 'GET', url: 'http://t/', headers: {} }, response: { status, headers: {}, body }, durationMs: 0 } }
}
