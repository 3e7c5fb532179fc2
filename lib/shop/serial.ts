/**
 * Writes the platform deadlocks on when they run side by side go one at a time (issue 29.2). A real 2.4.7 shop answered
 * 500 `SQLSTATE[40001] … Deadlock found … UPDATE quote_address` to `PUT /V1/carts/:cartId/items/:itemId` while nine of
 * the run's own writes were in flight on that one cart; replayed alone, it succeeded. So every write that touches one
 * cart — its items, addresses, coupons, totals, shipping information, payment, the order placed from it — waits for
 * the one before it, however the cart is addressed: `/V1/carts/:cartId/…` (its id), `/V1/guest-carts/:maskedId/…`
 * (a guest's masked id) or `/V1/carts/mine/…` (the cart of the customer whose token it is). One cart may be addressed
 * all three ways; the client learns which names are one cart from the shop's answers (a cart read, a cart made, an
 * item added: `cartAliases`). Attribute sets made side by side deadlock too (pace.ts `sideBySideGroup`).
 */
import type { Answer, RequestSpec } from './request.ts'
import { isObject } from '../base/is-object.ts'
import { PLACEHOLDER_ID } from '../spec/paths.ts'

/** `/V1/carts/…` paths that are not one cart. */
const NOT_A_CART = new Set(['search', 'licence'])

/**
 * The cart a request is about, as it addresses it — `mine <token>`, `guest <masked id>`, `cart <id>` — or undefined
 * for a request that is about no one cart (`POST /V1/guest-carts` makes one; `GET /V1/carts/search` lists them).
 */
export function cartNamed(path: string, token: string | undefined): string | undefined {
  const mine = /^\/V1\/carts\/mine(?:\/|$)/.exec(path)
  if (mine !== null) return `mine ${token ?? 'none'}`
  const guest = /^\/V1\/guest-carts\/([^/]+)(?:\/|$)/.exec(path)
  if (guest !== null) return `guest ${guest[1]}`
  const id = /^\/V1\/carts\/([^/]+)(?:\/|$)/.exec(path)?.[1]
  return id !== undefined && !NOT_A_CART.has(id) ? `cart ${id}` : undefined
}

/**
 * The probes' placeholder as a guest cart's masked id. A masked id is what the shop handed out for a cart (the
 * platform: 32 random characters), so this one names no shop's cart and its writes have no cart row to deadlock on. As
 * one group, the placeholder probes of every guest-cart endpoint by every caller were one chain (issue 29.9: 71 writes,
 * 2.3 s of a run at 20 ms answers, most of it with a few of 16 requests in flight). A placeholder cart id
 * (`/V1/carts/999999`) keeps its turn: a shop may hold a cart of that id.
 */
const PLACEHOLDER_MASK = `guest ${PLACEHOLDER_ID}`

/**
 * The cart a write touches (one at a time per cart), or undefined for a read, a write about no one cart, and one to the
 * placeholder masked id, which names none.
 */
export function cartWritten(spec: Pick<RequestSpec, 'method' | 'path' | 'token'>): string | undefined {
  const cart = spec.method === 'GET' ? undefined : cartNamed(spec.path, spec.token)
  return cart === PLACEHOLDER_MASK ? undefined : cart
}

/**
 * Names an answer shows to be one cart: a customer's or a guest's cart read (`id`), a customer's cart made (its id),
 * an item added or changed in a cart addressed as `mine` or by a masked id (`quote_id`). None for an answer that is
 * not a success or names no numeric id.
 */
export function cartAliases(spec: Pick<RequestSpec, 'method' | 'path' | 'token'>, answer: Answer): [string, string][] {
  const named = cartNamed(spec.path, spec.token)
  if (named === undefined || named.startsWith('cart ') || answer.status < 200 || answer.status >= 300) return []
  const body = answer.body
  const cartRoot = /^\/V1\/(carts\/mine|guest-carts\/[^/]+)$/.test(spec.path)
  const numeric = numericId(cartIdIn(body, cartRoot, spec.method))
  return numeric !== undefined && Number.isSafeInteger(numeric) && numeric > 0 ? [[named, `cart ${numeric}`]] : []
}

/** Where a success names its cart: a cart made is its id, a cart read has `id`, an item has `quote_id`. */
function cartIdIn(body: unknown, cartRoot: boolean, method: string): unknown {
  if (cartRoot && method === 'POST') return body
  if (!isObject(body)) return undefined
  if (cartRoot && method === 'GET') return body.id
  return body.quote_id
}

/** An id as a number, whether the shop wrote it as a number or as a string of digits; undefined otherwise. */
function numericId(id: unknown): number | undefined {
  if (typeof id === 'number') return id
  if (typeof id === 'string' && /^\d+$/.test(id)) return Number(id)
  return undefined
}

/**
 * Groups whose members go one at a time, by name; names found to be one group (aliases) share one turn from then on.
 * A turn is taken in the order asked for, and given up when its work ends, however it ends.
 */
export class SerialGroups {
  readonly #parent = new Map<string, string>()
  readonly #tail = new Map<string, Promise<unknown>>()

  #root(name: string): string {
    let at = name
    for (let next = this.#parent.get(at); next !== undefined; next = this.#parent.get(at)) at = next
    if (at !== name) this.#parent.set(name, at)
    return at
  }

  /** `a` and `b` are one group: what is under way under either is waited for by what comes next under both. */
  alias(a: string, b: string): void {
    const [ra, rb] = [this.#root(a), this.#root(b)]
    if (ra === rb) return
    this.#parent.set(rb, ra)
    const tails = [this.#tail.get(ra), this.#tail.get(rb)].filter((t) => t !== undefined)
    this.#tail.delete(rb)
    if (tails.length > 0) this.#tail.set(ra, Promise.all(tails))
  }

  /** Runs `work` when every earlier work of `name`'s group has ended. */
  run<T>(name: string, work: () => Promise<T>): Promise<T> {
    const root = this.#root(name)
    const turn = (this.#tail.get(root) ?? Promise.resolve()).then(work)
    const done = turn.then(
      () => undefined,
      () => undefined,
    )
    this.#tail.set(root, done)
    // The last of its group: nothing is kept once it ends.
    void done.then(() => {
      const now = this.#root(root)
      if (this.#tail.get(now) === done) this.#tail.delete(now)
    })
    return turn
  }
}
