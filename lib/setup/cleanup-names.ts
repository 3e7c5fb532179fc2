/**
 * What the run leaves because nothing removes it — orders, the carts they were placed from, the sales documents made
 * of them — named by what the shop still answers to: an order by its increment id and run-marked e-mail (found by
 * the e-mail), a cart by its cart id and the order it became (a guest cart's masked id stops working once its order
 * is placed), a shipment made by a call whose answer names none (the pickup notice) by its increment id and its
 * order's. Never a leftover named only by an id the shop no longer answers to, nor an order "?" where a search
 * could look.
 */
import type { LedgerEntity } from './ledger.ts'
import { runEmailPrefix } from './identifiers.ts'
import { platformCall } from './platform-calls.ts'
import { describeOutcome } from '../shop/answer-text.ts'
import type { TargetClient } from '../shop/client.ts'
import { itemsOf, searchQuery } from '../shop/lookup.ts'
import { sendRepeating } from '../shop/retry.ts'
import { isObject } from '../base/is-object.ts'

export interface Leftover {
  kind: string
  id: string
  label: string
  reason: string
}

/** Pages of a search the cleanup reads at most: a run makes a few hundred entities, not thousands. */
const MAX_PAGES = 20
const PAGE_SIZE = 100

const ORDERS = platformCall('searchOrders').path
const SHIPMENTS = platformCall('searchShipments').path

/** An admin search the cleanup makes: every item whose `field` matches, or why there is no answer. */
export type Search = (
  list: string,
  field: string,
  value: string,
  condition: 'eq' | 'like',
) => Promise<{ items: Record<string, unknown>[] } | { failed: string }>

/**
 * Every item of `list` whose `field` is `value` (`eq`) or starts with it (`like`, the value a prefix), page by page
 * until `total_count`. Each item found must match too: a target that ignores the filter must not lose its own data.
 */
export function searcher(client: TargetClient, store: string, token: string): Search {
  return async (list, field, value, condition) => {
    const items: Record<string, unknown>[] = []
    const wanted = value.toLowerCase()
    const matches = (v: unknown) =>
      (typeof v === 'string' || typeof v === 'number') &&
      (condition === 'eq' ? String(v).toLowerCase() === wanted : String(v).toLowerCase().startsWith(wanted))
    for (let page = 1; page <= MAX_PAGES; page++) {
      const query = searchQuery([[field, condition === 'like' ? `${value}%` : value, condition]], {
        size: PAGE_SIZE,
        current: page,
      })
      const { last } = await sendRepeating(
        () => client.send({ method: 'GET', path: list, query, store, token }),
        (a) => a.status === 200,
        'safe',
      )
      const found = itemsOf(last)
      if (found === undefined) return { failed: describeOutcome(last) }
      items.push(...found.filter((i) => matches(i[field])))
      const body = last.answer?.body
      const total = isObject(body) ? body.total_count : undefined
      if (typeof total !== 'number' || page * PAGE_SIZE >= total || found.length === 0) break
    }
    return { items }
  }
}

/** The kinds named here: what the run's orders are made of and made into. */
const OF_ORDERS: ReadonlySet<string> = new Set(['order', 'cart', 'guest cart', 'shipment'])

type ShippedByOrder = LedgerEntity & { key: string }

/** A sales document the ledger knows only by its order (its `key`): a shipment of the pickup notice. */
function byOrder(e: LedgerEntity): e is ShippedByOrder {
  return e.kind === 'shipment' && e.id === '' && e.key !== undefined && e.state !== 'refused'
}

/**
 * `search`, with the searches `nameLeftovers` will make for `entities` already sent: the run's orders by their
 * e-mail, the pickup notices' shipments by their order. Neither depends on what the cleanup removes (it removes no
 * order and no shipment), so they go beside the removals instead of after them (issue 29.9: two more round trips at
 * a cleanup's end, one after the other). Started only where the ledger holds what they name.
 */
export function withNamingSearches(entities: readonly LedgerEntity[], search: Search, runId: string): Search {
  const early = new Map<string, ReturnType<Search>>()
  const key = (list: string, field: string, value: string, condition: string) =>
    JSON.stringify([list, field, value, condition])
  const start = (list: string, field: string, value: string, condition: 'eq' | 'like') => {
    const found = search(list, field, value, condition)
    // One never asked for (nothing of the kind left to name) must not end the process with its rejection.
    found.catch(() => {})
    early.set(key(list, field, value, condition), found)
  }
  const shipped = entities.filter(byOrder)
  if (entities.some((e) => OF_ORDERS.has(e.kind)) || shipped.length > 0)
    start(ORDERS, 'customer_email', runEmailPrefix(runId), 'like')
  for (const e of shipped) start(SHIPMENTS, 'order_id', e.key, 'eq')
  return (list, field, value, condition) => {
    const k = key(list, field, value, condition)
    const found = early.get(k)
    // Each answer once: a second search of the same is sent again.
    early.delete(k)
    return found ?? search(list, field, value, condition)
  }
}

/**
 * Names the leftovers of orders, carts and shipments (`out`, changed in place) by what the shop answers to, and adds
 * the shipments the ledger knows only by their order: the run's orders found by their e-mail (GET /V1/orders), each
 * cart named by its cart id and the order it became (the order's `quote_id`), each such shipment found by its order
 * (GET /V1/shipments).
 */
export async function nameLeftovers(
  out: Leftover[],
  entities: readonly LedgerEntity[],
  search: Search,
  runId: string,
): Promise<Leftover[]> {
  const shipped = entities.filter(byOrder)
  if (!out.some((l) => OF_ORDERS.has(l.kind)) && shipped.length === 0) return out
  const found = await search(ORDERS, 'customer_email', runEmailPrefix(runId), 'like')
  const orders = 'failed' in found ? [] : found.items
  let named = 'failed' in found ? out : nameOrders(out, orders)
  named = nameCarts(named, entities, orders)
  for (const e of shipped) named = named.concat(await shipmentsOf(e, named, orders, search))
  return named
}

/** An id as the shop answered it: a string or a number as its text, '' when there is none, anything else as JSON. */
function idText(value: unknown): string {
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value)
  if (value === undefined || value === null) return ''
  return JSON.stringify(value)
}

/** `order 000000041 (sc.….@example.com)`. */
function orderName(order: Record<string, unknown>): string {
  return `order ${String(order.increment_id ?? order.entity_id)} (${String(order.customer_email)})`
}

/** Every order of the run by its id and increment id: a placement whose answer never came is one of them or nothing. */
function nameOrders(out: Leftover[], orders: readonly Record<string, unknown>[]): Leftover[] {
  const named = out.filter((l) => !(l.kind === 'order' && l.id === '?'))
  for (const order of orders) {
    const id = idText(order.entity_id)
    const known = named.find((l) => l.kind === 'order' && l.id === id)
    if (known !== undefined) known.label = `${known.label}: ${orderName(order)}`
    else
      named.push({
        kind: 'order',
        id,
        label: orderName(order),
        reason: `the interface has no call that removes an order (found by its e-mail, GET ${ORDERS})`,
      })
  }
  return named
}

/**
 * Carts by their cart id (which the admin's `GET /V1/carts/:cartId` reads, placed or not), a guest cart by the one
 * its item's answer named rather than its masked id, and by the order each became.
 */
function nameCarts(
  out: Leftover[],
  entities: readonly LedgerEntity[],
  orders: readonly Record<string, unknown>[],
): Leftover[] {
  return out.map((l) => {
    if (l.kind !== 'cart' && l.kind !== 'guest cart') return l
    const aka = l.kind === 'guest cart' ? entities.find((e) => e.kind === l.kind && e.id === l.id)?.aka : undefined
    const cartId = aka ?? l.id
    const order = orders.find((o) => o.quote_id !== undefined && o.quote_id !== null && idText(o.quote_id) === cartId)
    const became = order === undefined ? '' : `, which became ${orderName(order)}`
    return { ...l, id: cartId, label: `${l.label}${aka !== undefined ? ` (cart ${aka})` : ''}${became}` }
  })
}

/** The shipments of the order a ledger entity names by its key, each not listed yet: found by their order. */
async function shipmentsOf(
  e: ShippedByOrder,
  listed: readonly Leftover[],
  orders: readonly Record<string, unknown>[],
  search: Search,
): Promise<Leftover[]> {
  const order = orders.find((o) => String(o.entity_id) === e.key)
  const ofOrder = order !== undefined ? orderName(order) : `order ${e.key}`
  const found = await search(SHIPMENTS, 'order_id', e.key, 'eq')
  if ('failed' in found)
    return [
      {
        kind: 'shipment',
        id: '?',
        label: `${e.label}: every shipment of ${ofOrder}`,
        reason: `not known whether it made any: the search GET ${SHIPMENTS} answered ${found.failed}`,
      },
    ]
  return found.items
    .filter((s) => !listed.some((l) => l.kind === 'shipment' && l.id === String(s.entity_id)))
    .map((s) => ({
      kind: 'shipment',
      id: String(s.entity_id),
      label: `${e.label}: shipment ${String(s.increment_id ?? s.entity_id)} of ${ofOrder}`,
      reason: `the interface has no call that removes a shipment (found by its order, GET ${SHIPMENTS})`,
    }))
}
