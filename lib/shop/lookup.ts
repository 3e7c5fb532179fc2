/**
 * Finding what the run made by its key — a product by sku, a customer by e-mail, an attribute set by name —
 * through the platform's reads and search-criteria lists (platform conventions, "Search criteria"): before a
 * creation whose answer never came is repeated, and when the run's cleanup looks for what it may have left.
 */
import type { Exchange } from '../results/exchange.ts'
import type { Outcome } from './request.ts'
import type { Found } from './retry.ts'
import { defined } from '../base/defined.ts'

/** `[field, value, condition_type]`: one filter group each (all must match). */
type Filter = [field: string, value: string, condition: 'eq' | 'like']

/** The query string of a search by `filters`, one page of `pageSize`. */
export function searchQuery(
  filters: readonly Filter[],
  page: { size: number; current: number } = { size: 100, current: 1 },
): string {
  const q = new URLSearchParams()
  filters.forEach(([field, value, condition], g) => {
    const at = `searchCriteria[filter_groups][${g}][filters][0]`
    q.set(`${at}[field]`, field)
    q.set(`${at}[value]`, value)
    q.set(`${at}[condition_type]`, condition)
  })
  q.set('searchCriteria[pageSize]', String(page.size))
  q.set('searchCriteria[currentPage]', String(page.current))
  return q.toString()
}

/** An admin GET of a path (a spec path; aliases are the sender's business) with a query. */
export type AdminGet = (path: string, query?: string) => Promise<Outcome>

/** The kinds that can be found by their key, where, and by which field. */
export const FINDABLE = {
  product: { list: '/V1/products', field: 'sku' },
  customer: { list: '/V1/customers/search', field: 'email' },
  'attribute set': { list: '/V1/eav/attribute-sets/list', field: 'attribute_set_name' },
} as const

export type FindableKind = keyof typeof FINDABLE

const same = (a: unknown, b: string) => typeof a === 'string' && a.toLowerCase() === b.toLowerCase()

/**
 * The entity of `kind` whose key is `key`, as the target lists it; only an item whose key really is `key` counts
 * (a target that ignores the filter lists others). A lookup that gets no answer finds nothing.
 */
export async function findByKey(
  get: AdminGet,
  kind: FindableKind,
  key: string,
): Promise<Found | { exchanges: Exchange[] }> {
  const { list, field } = FINDABLE[kind]
  const outcome = await get(list, searchQuery([[field, key, 'eq']], { size: 20, current: 1 }))
  const items = itemsOf(outcome)
  const item = items?.find((i) => same(i[field], key))
  return item === undefined ? { exchanges: [outcome.exchange] } : { body: item, exchanges: [outcome.exchange] }
}

/**
 * The order an attempt to place `cart`'s order may have made: among the orders of the cart's run-marked e-mail (its
 * customer's, or the address a guest gave), the one placed from that cart (`quote_id`); without the cart's id, the
 * only order of that e-mail. Found, its body is the order's id, as a placement answers. A lookup that gets no answer,
 * or finds two candidates, finds nothing. `list`: the platform's orders search (`GET /V1/orders`).
 */
export async function findOrder(
  get: AdminGet,
  list: string,
  cart: { email: string; quoteId?: number },
): Promise<Found | { exchanges: Exchange[] }> {
  const outcome = await get(list, searchQuery([['customer_email', cart.email, 'eq']], { size: 50, current: 1 }))
  const orders = (itemsOf(outcome) ?? []).filter((o) => same(o.customer_email, cart.email))
  const fromCart =
    cart.quoteId === undefined ? orders : orders.filter((o) => String(o.quote_id) === String(cart.quoteId))
  const id = fromCart.length === 1 ? Number(defined(fromCart[0], 'the one order found').entity_id) : Number.NaN
  return Number.isInteger(id) && id > 0
    ? { body: id, exchanges: [outcome.exchange] }
    : { exchanges: [outcome.exchange] }
}

/** The items of a search answer, or undefined when it is not one. */
export function itemsOf(outcome: Outcome): Record<string, unknown>[] | undefined {
  const body = outcome.answer?.status === 200 ? outcome.answer.body : undefined
  if (body === null || typeof body !== 'object' || !Array.isArray((body as { items?: unknown }).items)) return undefined
  return (body as { items: unknown[] }).items.filter(
    (i): i is Record<string, unknown> => i !== null && typeof i === 'object' && !Array.isArray(i),
  )
}
