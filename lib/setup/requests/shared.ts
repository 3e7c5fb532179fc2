/**
 * What several valid requests stand on, made once per session: the run's own customer (with a cart holding an
 * item), and data found through the shop's lists where read-only mode makes nothing.
 */
import type { Actor, MadeCustomer, MineCart, Provisioner } from '../provision.ts'
import { SetupError } from '../provision.ts'
import { itemsOf } from '../../shop/lookup.ts'
import { sendOnce } from '../setup-call.ts'

/**
 * A customer of the run's own for self endpoints (a write is never sent with the token of a customer the user
 * configured: that account is theirs). Read-only mode makes none: there the configured customer's token is used,
 * for GETs only.
 */
export function ownCustomer(fx: Provisioner): Promise<MadeCustomer> {
  return fx.session.memo('valid request: own customer', () => fx.customer('own customer'))
}

/** Who sends a self endpoint's valid request: the run's own customer, or in read-only mode the configured one. */
export async function ownCustomerActor(fx: Provisioner): Promise<Actor> {
  if (!fx.session.seed.readOnly) return { token: (await ownCustomer(fx)).token }
  if (fx.session.tokenFor('customer') === undefined) {
    throw new SetupError(
      'customer',
      'read-only mode registers no customer: configure SHOP_CUSTOMER_EMAIL and SHOP_CUSTOMER_PASSWORD',
      [],
      'no-customer-token',
    )
  }
  return 'customer'
}

/** The run's own customer with an active cart holding the main product: what `carts/mine` reads and writes need. */
export function ownCart(fx: Provisioner): Promise<{ customer: MadeCustomer; cart: MineCart; itemId: number }> {
  return fx.session.memo('valid request: own cart', async () => {
    const customer = await ownCustomer(fx)
    const cart = await fx.customerCart(customer, 'own cart')
    const { item_id } = await fx.addItem(cart, (await fx.mainProduct()).sku, 1)
    return { customer, cart, itemId: item_id }
  })
}

/**
 * The first item a search or list GET answers (`items` of a search result, or a plain list), for read-only mode's
 * requests on the shop's own data; a SetupError when the shop lists none.
 */
export function firstListed(
  fx: Provisioner,
  what: string,
  path: string,
  query?: string,
): Promise<Record<string, unknown>> {
  return fx.session.memo(`valid request: first ${path}?${query ?? ''}`, async () => {
    const outcome = await sendOnce(
      fx.session,
      { method: 'GET', path, actor: 'admin', ...(query !== undefined ? { query } : {}) },
      fx.tokenOf('admin'),
    )
    const body = outcome.answer?.status === 200 ? outcome.answer.body : undefined
    const items =
      itemsOf(outcome) ??
      (Array.isArray(body)
        ? body.filter((i): i is Record<string, unknown> => i !== null && typeof i === 'object')
        : undefined)
    const first = items?.[0]
    // Read-only mode makes nothing: a shop that has none of it leaves the request without a valid form.
    if (first === undefined)
      throw new SetupError(
        `find ${what}`,
        `no ${what} to name: GET ${path} listed none (${outcome.answer?.status ?? outcome.failure?.message})`,
        outcome.exchange,
        'no-valid-request',
      )
    return first
  })
}

/**
 * The run's own entity of a kind, made once per session (`make`); in read-only mode, which makes nothing, one the
 * shop already has (`find`, through its list and search endpoints: only GETs).
 */
export function ownOrFound<T>(
  fx: Provisioner,
  what: string,
  make: () => Promise<T>,
  find: () => Promise<T>,
): Promise<T> {
  return fx.session.memo(`valid request: ${what}`, () => (fx.session.seed.readOnly ? find() : make()))
}
