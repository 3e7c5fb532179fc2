/**
 * A deadlock or a lock wait the run's own requests provoked is no answer to judge (issue 29.2). A call the shop answers
 * so is sent once more after a pause — a read or a write that sets a state at once; any other write only once the
 * run has checked that the first attempt changed nothing — and only a second such answer makes it no answer
 * (`deadlock`: the result is not judged, never failed). Writes to one cart go one at a time (serial.ts), which is what
 * keeps the shop from deadlocking in the first place; this is what is left when it still does.
 *
 * Which answers are deadlocks:
 * - the database's own words, anywhere in the answer (its message, or the trace a shop in developer mode adds):
 *   SQLSTATE 40001, MySQL errors 1213 ("Deadlock found when trying to get lock") and 1205 ("Lock wait timeout
 *   exceeded"), "try restarting transaction";
 * - the platform's inventory wrappers "Could not save Source Item Configuration" and "The stock item was unable to be
 *   saved", on their own: a 2.4.7 shop answered them to parallel product creations, made nothing, and took the same
 *   call when repeated (observations), and no refusal of the request itself uses those words;
 * - not the platform's other "could not save" wrappers without the database's words: "The address failed to save.
 *   Verify the address and try again." is also how the platform refuses an address it does not accept (an e-mail
 *   too long: shop-limits), and "The quote couldn't be saved." any failure of the save. Those are answers to judge.
 * A shop in production mode answers a deadlock only as 500 "Internal Error … Report ID: …" (the words are in its
 * log): a server error like any other, which this cannot tell apart.
 */
import { messageText } from './answer-text.ts'
import type { Answer, Outcome, RequestSpec } from './request.ts'
import { cartNamed } from './serial.ts'
import { isObject } from '../base/is-object.ts'

const DATABASE_WORDS =
  /SQLSTATE\[40001\]|Deadlock found when trying to get lock|Lock wait timeout exceeded|try restarting transaction|(?:General error|Serialization failure|SQLSTATE\[HY000\])[^0-9]{0,20}\b(?:1213|1205)\b/i
const DEADLOCK_WRAPPERS = /^(?:Could not save Source Item Configuration|The stock item was unable to be saved)/i

/**
 * A refusal after which the shop rolled its transaction back: a deadlock or a lock wait, not an answer about the
 * request.
 */
export function isDeadlock(answer: Pick<Answer, 'status' | 'body' | 'text'>): boolean {
  if (answer.status < 400) return false
  return DATABASE_WORDS.test(answer.text) || DEADLOCK_WRAPPERS.test(messageText(answer.body) ?? '')
}

/** An order placed from a cart: it makes an order, and a second one would make another. */
const PLACES_ORDER = /^\/V1\/(?:carts\/[^/]+|guest-carts\/[^/]+)\/(?:order|payment-information)$/
/** An item added to a cart: a second one adds its quantity again. */
const ADDS_ITEM = /^\/V1\/(?:carts\/[^/]+|guest-carts\/[^/]+)\/items$/
/**
 * A cart's POSTs that set a state (an address, the shipping or payment information, totals, a gift message): the same
 * however often sent.
 */
const SETS_CART_STATE =
  /^\/V1\/(?:carts\/[^/]+|guest-carts\/[^/]+)\/(?:billing-address|shipping-information|estimate-shipping-methods(?:-by-address-id)?|totals-information|set-payment-information|selected-payment-method|gift-message(?:\/[^/]+)?|collect-totals)$/

/**
 * How a call the shop answered with a deadlock may be sent again: `at once` (a read; a write that sets a state —
 * PUT, DELETE, a cart's POSTs that set an address or information, a customer's cart asked for, a product saved by its
 * sku), `checked` (an order placed, an item added: only once the cart shows the attempt changed nothing), or `never`
 * (any other write: the run cannot tell what it made).
 */
export function repeatAfterDeadlock(spec: Pick<RequestSpec, 'method' | 'path'>): 'at once' | 'checked' | 'never' {
  const { method, path } = spec
  if (method === 'GET') return 'at once'
  if (PLACES_ORDER.test(path)) return 'checked'
  if (method === 'POST' && ADDS_ITEM.test(path)) return 'checked'
  if (method === 'PUT' || method === 'DELETE') return 'at once'
  // The platform answers a customer's active cart when there is one; a product is saved by its sku.
  if (SETS_CART_STATE.test(path) || path === '/V1/carts/mine' || path === '/V1/products') return 'at once'
  return 'never'
}

/**
 * A write to a cart that sets a state (the same however often sent): an address, the shipping or payment information,
 * totals, a gift message, a coupon, an item's quantity or its removal — not an item added nor an order placed. A set-up
 * call of such a write repeats as a read does (retry.ts `safe`).
 */
export function setsCartState(method: string, path: string): boolean {
  if (method === 'GET' || cartNamed(path, undefined) === undefined || PLACES_ORDER.test(path)) return false
  return method === 'POST' ? SETS_CART_STATE.test(path) : method === 'PUT' || method === 'DELETE'
}

/** Between a deadlock and the call sent again: long enough for the transaction that won to commit. */
export const DEADLOCK_PAUSE_MS = 500

/** A GET of the cart a call names, with the call's own token: what the checks read. */
type CartRead = (path: string) => Promise<Outcome>

/**
 * The path that reads the cart a call is about: `/V1/carts/mine`, `/V1/guest-carts/:maskedId` or `/V1/carts/:cartId`.
 */
function cartPathOf(spec: Pick<RequestSpec, 'path'>): string | undefined {
  return /^\/V1\/(?:carts\/[^/]+|guest-carts\/[^/]+)/.exec(spec.path)?.[0]
}

/**
 * What a cart held before an item was added: the quantity of that sku (0: none), or undefined when it cannot be read.
 */
interface CartBefore {
  qty: number | undefined
}

function skuOf(spec: Pick<RequestSpec, 'body'>): string | undefined {
  const item = isObject(spec.body) ? spec.body.cartItem : undefined
  return isObject(item) && typeof item.sku === 'string' ? item.sku : undefined
}

/** The quantity of `sku` in a cart as a read answered it (0 when absent), or undefined when the read is no cart. */
function qtyIn(outcome: Outcome, sku: string): number | undefined {
  const body = outcome.answer?.status === 200 ? outcome.answer.body : undefined
  if (!isObject(body) || !Array.isArray(body.items)) return undefined
  return body.items
    .filter((i) => isObject(i) && i.sku === sku)
    .reduce((n: number, i) => n + Number((i as Record<string, unknown>).qty ?? 0), 0)
}

/**
 * What the check of an item added needs from before the call: the cart's quantity of the sku added (the cart is read
 * with the call's own token while the cart's turn is held: no other write of the run comes in between).
 */
export async function cartBefore(spec: RequestSpec, read: CartRead): Promise<CartBefore | undefined> {
  const sku = skuOf(spec)
  const path = cartPathOf(spec)
  if (spec.method !== 'POST' || !ADDS_ITEM.test(spec.path) || sku === undefined || path === undefined) return undefined
  return { qty: qtyIn(await read(path), sku) }
}

/**
 * Whether a call the shop answered with a deadlock changed nothing, as the cart shows it: an order placement left the
 * cart active; an item added left the sku's quantity as it was before. False also where it cannot be
 * told (the cart cannot be read, or was not before): the call is then not sent again.
 */
export async function changedNothing(
  spec: RequestSpec,
  before: CartBefore | undefined,
  read: CartRead,
): Promise<boolean> {
  const path = cartPathOf(spec)
  if (path === undefined || cartNamed(spec.path, spec.token) === undefined) return false
  const now = await read(path)
  if (PLACES_ORDER.test(spec.path)) {
    const body = now.answer?.status === 200 ? now.answer.body : undefined
    // An order placed makes its cart inactive (a customer's own is then no longer found as `mine`).
    return isObject(body) && body.is_active !== false && body.is_active !== 0 && Array.isArray(body.items)
  }
  const sku = skuOf(spec)
  return sku !== undefined && before?.qty !== undefined && qtyIn(now, sku) === before.qty
}
