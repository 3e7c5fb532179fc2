/**
 * The carts the valid requests of the Quote, Checkout and GiftMessage modules name: the run's own customer's cart
 * (shared.ts `ownCart`) with its shipping information set — ready for the payment, totals and gift-message calls,
 * never ordered —, a customer of the run's own with an address in its address book and a cart, and in read-only
 * mode, which makes nothing, a cart the shop already has.
 */
import { SetupError, toId, type Actor, type MadeCustomer, type MineCart, type Provisioner } from '../provision.ts'
import { sendOnce } from '../setup-call.ts'
import { platformCall } from '../platform-calls.ts'
import { itemsOf, searchQuery } from '../../shop/lookup.ts'
import { isObject } from '../../base/is-object.ts'
import { ownCart, ownOrFound } from './shared.ts'

export interface OwnCart {
  customer: MadeCustomer
  cart: MineCart
  itemId: number
}

/** The run's own cart (the main product in it) with a shipping address and the configured carrier set. */
export function readyCart(fx: Provisioner): Promise<OwnCart> {
  return fx.session.memo('valid request: own cart ready', async () => {
    const own = await ownCart(fx)
    await fx.shippingInformation(
      own.cart,
      fx.builders.address('own cart shipping', own.customer.email),
      fx.session.seed.purchase.shipping,
    )
    return own
  })
}

/** A cart to read: its id, an item of it, and who reads it as its customer. */
interface CartToRead {
  cartId: number
  itemId: number
  /** The cart's customer: a customer of the run's own, or in read-only mode the configured customer. */
  customer: Actor
}

const toRead = (own: OwnCart): CartToRead => ({
  cartId: own.cart.id,
  itemId: own.itemId,
  customer: { token: own.customer.token },
})

/** The first item of a cart as the platform answers it, with the cart's id. */
function cartWithItem(body: unknown): { cartId: number; itemId: number } | undefined {
  if (!isObject(body) || !Array.isArray(body.items)) return undefined
  const cartId = toId(body.id)
  const item: unknown = body.items.find((i: unknown) => isObject(i) && toId(i.item_id) !== undefined)
  const itemId = isObject(item) ? toId(item.item_id) : undefined
  return cartId === undefined || itemId === undefined ? undefined : { cartId, itemId }
}

/**
 * The cart a self GET names (`carts/mine/...`): the run's ready cart; in read-only mode the configured customer's
 * active cart (GET /V1/carts/mine), which must hold an item.
 */
export function mineCartToRead(fx: Provisioner): Promise<CartToRead> {
  return ownOrFound(
    fx,
    'cart to read as its customer',
    async () => toRead(await readyCart(fx)),
    async () => {
      const step = "read the configured customer's cart"
      const outcome = await sendOnce(
        fx.session,
        { ...platformCall('readMineCart'), actor: 'customer' },
        fx.tokenOf('customer'),
      )
      const found = outcome.answer?.status === 200 ? cartWithItem(outcome.answer.body) : undefined
      if (found === undefined)
        throw new SetupError(
          step,
          `read-only mode: the configured customer has no active cart with an item to read (GET /V1/carts/mine answered ${outcome.answer?.status ?? outcome.failure?.message})`,
          outcome.exchange,
        )
      return { ...found, customer: 'customer' }
    },
  )
}

/**
 * The cart an admin GET names (`carts/:cartId...`): the run's ready cart; in read-only mode the first active cart
 * with an item that the platform's cart search lists (`GET /V1/carts/search`, `Shop_Cart::manage`).
 */
export function cartToRead(fx: Provisioner): Promise<CartToRead> {
  return ownOrFound(
    fx,
    'cart to read as the admin',
    async () => toRead(await readyCart(fx)),
    async () => {
      const step = 'find an active cart'
      const outcome = await sendOnce(
        fx.session,
        {
          ...platformCall('searchCarts'),
          actor: 'admin',
          query: searchQuery([['is_active', '1', 'eq']], { size: 50, current: 1 }),
        },
        fx.tokenOf('admin'),
      )
      const found = (itemsOf(outcome) ?? []).map(cartWithItem).find((c) => c !== undefined)
      if (found === undefined)
        throw new SetupError(
          step,
          `read-only mode: GET /V1/carts/search listed no active cart with an item (${outcome.answer?.status ?? outcome.failure?.message})`,
          outcome.exchange,
        )
      return { ...found, customer: 'customer' }
    },
  )
}

/**
 * A customer of the run's own registered with one address in its address book (default billing and shipping: the
 * platform's `createAccount` takes `customer.addresses`), its token, and a cart holding the main product: what the
 * estimate by address id needs. Made once per session.
 */
export function addressedCart(fx: Provisioner): Promise<OwnCart & { addressId: number }> {
  return fx.session.memo('valid request: own customer with an address', async () => {
    const label = 'own customer with an address'
    const draft = fx.builders.customer(label)
    const a = fx.builders.address(`${label} home`, draft.email)
    // A customer address has no email or region_code of its own (the platform refuses fields its type lacks).
    const address = {
      firstname: a.firstname,
      lastname: a.lastname,
      street: a.street,
      city: a.city,
      postcode: a.postcode,
      country_id: a.country_id,
      region_id: a.region_id,
      region: { region: a.region, region_code: a.region_code, region_id: a.region_id },
      telephone: a.telephone,
    }
    const step = `register customer ${label}`
    const { customer, account } = await fx.registerCustomer(label, {
      ...draft,
      addresses: [{ ...address, default_billing: true, default_shipping: true }],
    })
    const addressId = Array.isArray(account.addresses) ? toId(account.addresses.find(isObject)?.id) : undefined
    if (addressId === undefined)
      throw new SetupError(step, `set-up step "${step}" answered a customer without the address it was given`)
    const cart = await fx.customerCart(customer, label)
    const { item_id } = await fx.addItem(cart, (await fx.mainProduct()).sku, 1)
    return { customer, cart, itemId: item_id, addressId }
  })
}
