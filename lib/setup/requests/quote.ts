/**
 * Valid requests of the Quote module (platform contracts: Magento_Quote's webapi.xml and Api interfaces; bodies as its
 * api-functional tests send them). Reads and same-value saves name the run's ready cart (own-carts.ts); what uses a
 * cart or a customer up — creating a cart, assigning a customer to a guest cart, placing an order — gets one of its
 * own each time. `PUT /V1/carts/:cartId/order`, `DELETE /V1/carts/:cartId/items/:itemId` and
 * `POST /V1/carts/mine/estimate-shipping-methods` are the quote family's scenarios (lib/setup/families/quote.ts).
 */
import { idText, SetupError, toId, type Provisioner } from '../provision.ts'
import { isObject } from '../../base/is-object.ts'
import { addressedCart, cartToRead, readyCart, type OwnCart } from './own-carts.ts'
import { ownCoupon } from './sales-rules.ts'
import type { RequestRecipe } from './types.ts'
import { endpointId } from '../../spec/catalog/index.ts'

const paymentMethod = (fx: Provisioner) => ({ method: fx.session.seed.purchase.paymentMethod })
const billing = (fx: Provisioner, own: OwnCart) => fx.builders.address('own cart billing', own.customer.email)
const mine = (own: OwnCart) => ({ token: own.customer.token })

/** A guest cart made by the admin (`createEmptyCart`: no customer, no masked id), its id. */
async function adminGuestCart(fx: Provisioner, label: string): Promise<number> {
  const step = `create a cart as the admin ${label}`
  const { answer } = await fx.create(
    step,
    { method: 'POST', path: '/V1/carts', actor: 'admin' },
    { kind: 'cart', label: `cart ${label}`, idOf: idText },
  )
  const id = toId(answer.body)
  if (id === undefined) throw new SetupError(step, `set-up step "${step}" answered no cart id`)
  return id
}

export const quoteRecipes: RequestRecipe[] = [
  {
    endpoint: endpointId('POST /V1/carts'),
    // No body: the contract has no parameter. Every success makes an empty cart (the platform has no call removing
    // one).
    prepare: () => Promise.resolve({ actor: 'admin', path: {} }),
    creates: { kind: 'cart', idOf: idText },
  },
  {
    endpoint: endpointId('POST /V1/carts/:cartId/billing-address'),
    again: 'reuse',
    prepare: async (fx) => {
      const own = await readyCart(fx)
      return {
        actor: 'admin',
        path: { cartId: own.cart.id },
        body: { address: billing(fx, own), useForShipping: false },
      }
    },
  },
  {
    endpoint: endpointId('POST /V1/carts/:cartId/estimate-shipping-methods'),
    again: 'reuse',
    prepare: async (fx) => {
      const own = await readyCart(fx)
      return {
        actor: 'admin',
        path: { cartId: own.cart.id },
        body: { address: fx.builders.address('own cart estimate', own.customer.email) },
      }
    },
  },
  {
    endpoint: endpointId('POST /V1/carts/:cartId/estimate-shipping-methods-by-address-id'),
    again: 'reuse',
    prepare: async (fx) => {
      const own = await addressedCart(fx)
      return { actor: 'admin', path: { cartId: own.cart.id }, body: { addressId: own.addressId } }
    },
  },
  {
    endpoint: endpointId('POST /V1/carts/:quoteId/items'),
    // Adds one more of the main product to the run's cart (the item's qty grows; nothing else changes).
    prepare: async (fx) => {
      const own = await readyCart(fx)
      return {
        actor: 'admin',
        path: { quoteId: own.cart.id },
        body: { cartItem: { sku: (await fx.mainProduct()).sku, qty: 1, quote_id: own.cart.id } },
      }
    },
  },
  {
    endpoint: endpointId('POST /V1/carts/mine'),
    // A customer of its own each time: the call answers the customer's active cart when there is one, so only a
    // customer without a cart shows it makes one.
    prepare: async (fx, label) => ({ actor: { token: (await fx.customer(label)).token }, path: {} }),
    creates: { kind: 'cart', idOf: idText },
  },
  {
    endpoint: endpointId('POST /V1/carts/mine/billing-address'),
    again: 'reuse',
    prepare: async (fx) => {
      const own = await readyCart(fx)
      return { actor: mine(own), path: {}, body: { address: billing(fx, own), useForShipping: false } }
    },
  },
  {
    endpoint: endpointId('POST /V1/carts/mine/estimate-shipping-methods-by-address-id'),
    again: 'reuse',
    prepare: async (fx) => {
      const own = await addressedCart(fx)
      return { actor: mine(own), path: {}, body: { addressId: own.addressId } }
    },
  },
  {
    endpoint: endpointId('PUT /V1/carts/:cartId'),
    // A cart without a customer (made by the admin) and a customer of its own without a cart: the assignment uses both
    // up.
    prepare: async (fx, label) => {
      const cartId = await adminGuestCart(fx, label)
      const customer = await fx.customer(label)
      const { answer } = await fx.call(`read customer ${label}`, {
        method: 'GET',
        path: `/V1/customers/${customer.id}`,
        actor: 'admin',
      })
      // The store the customer registered in: one the customer's website shares, as the assignment requires.
      const storeId = (isObject(answer.body) ? toId(answer.body.store_id) : undefined) ?? 1
      return { actor: 'admin', path: { cartId }, body: { customerId: customer.id, storeId } }
    },
  },
  {
    endpoint: endpointId('PUT /V1/carts/:cartId/coupons/:couponCode'),
    // Applying the coupon the cart already has changes nothing more.
    again: 'reuse',
    prepare: async (fx) => {
      const own = await readyCart(fx)
      const { code } = await ownCoupon(fx)
      return { actor: 'admin', path: { cartId: own.cart.id, couponCode: code } }
    },
  },
  {
    endpoint: endpointId('PUT /V1/carts/:cartId/items/:itemId'),
    again: 'reuse',
    prepare: async (fx) => {
      const own = await readyCart(fx)
      return {
        actor: 'admin',
        path: { cartId: own.cart.id, itemId: own.itemId },
        body: { cartItem: { item_id: own.itemId, qty: 2, quote_id: own.cart.id } },
      }
    },
  },
  {
    endpoint: endpointId('PUT /V1/carts/:cartId/selected-payment-method'),
    again: 'reuse',
    prepare: async (fx) => ({
      actor: 'admin',
      path: { cartId: (await readyCart(fx)).cart.id },
      body: { method: paymentMethod(fx) },
    }),
  },
  {
    // "(listed as self)": a guest cart assigned to the customer whose token calls. A guest cart's masked id names
    // nobody's cart, so a fresh one each time, and a fresh customer (one who has an active cart already is refused).
    endpoint: endpointId('PUT /V1/guest-carts/:cartId'),
    prepare: async (fx, label) => {
      const [cart, customer] = await Promise.all([fx.guestCart(`${label} claimed`), fx.customer(`${label} claims`)])
      await fx.addItem(cart, (await fx.mainProduct()).sku, 1)
      return {
        actor: { token: customer.token },
        path: { cartId: cart.maskedId },
        body: { customerId: customer.id, storeId: 1 },
      }
    },
  },
  {
    endpoint: endpointId('PUT /V1/carts/mine'),
    // The cart saved as the platform reads its customer back: `quote.id` comes from the token, and a customer may save
    // only a quote of its own (the quote's customer must be the caller).
    again: 'reuse',
    prepare: async (fx) => {
      const own = await readyCart(fx)
      const { answer } = await fx.call(
        'read the own customer as itself',
        { method: 'GET', path: '/V1/customers/me', actor: mine(own) },
        (a) => a.status === 200 && isObject(a.body),
      )
      return { actor: mine(own), path: {}, body: { quote: { id: own.cart.id, customer: answer.body } } }
    },
  },
  {
    endpoint: endpointId('PUT /V1/carts/mine/collect-totals'),
    again: 'reuse',
    prepare: async (fx) => {
      const own = await readyCart(fx)
      const { carrier, method } = fx.session.seed.purchase.shipping
      return {
        actor: mine(own),
        path: {},
        body: { paymentMethod: paymentMethod(fx), shippingCarrierCode: carrier, shippingMethodCode: method },
      }
    },
  },
  {
    endpoint: endpointId('PUT /V1/carts/mine/coupons/:couponCode'),
    again: 'reuse',
    prepare: async (fx) => {
      const own = await readyCart(fx)
      const { code } = await ownCoupon(fx)
      return { actor: mine(own), path: { couponCode: code } }
    },
  },
  {
    endpoint: endpointId('PUT /V1/carts/mine/items/:itemId'),
    // `cartItem.quote_id` comes from the token on the platform; another customer naming this item finds no such item.
    again: 'reuse',
    prepare: async (fx) => {
      const own = await readyCart(fx)
      return {
        actor: mine(own),
        path: { itemId: own.itemId },
        body: { cartItem: { item_id: own.itemId, qty: 1, quote_id: own.cart.id } },
      }
    },
  },
  {
    endpoint: endpointId('PUT /V1/carts/mine/order'),
    // A customer of its own with a cart ready to order each time: the order uses the cart up.
    prepare: async (fx, label) => {
      const { customer } = await fx.customerCartReadyToOrder(label)
      return { actor: { token: customer.token }, path: {}, body: { paymentMethod: paymentMethod(fx) } }
    },
    creates: { kind: 'order', idOf: idText },
  },
  {
    endpoint: endpointId('PUT /V1/carts/mine/selected-payment-method'),
    again: 'reuse',
    prepare: async (fx) => ({ actor: mine(await readyCart(fx)), path: {}, body: { method: paymentMethod(fx) } }),
  },
  {
    endpoint: endpointId('GET /V1/carts/:cartId'),
    prepare: async (fx) => ({ actor: 'admin', path: { cartId: (await cartToRead(fx)).cartId } }),
  },
  {
    endpoint: endpointId('GET /V1/carts/:cartId/billing-address'),
    // Its own recipe (not the quote family's, which registers a customer): in read-only mode a cart the shop has.
    prepare: async (fx) => ({ actor: 'admin', path: { cartId: (await cartToRead(fx)).cartId } }),
  },
  {
    endpoint: endpointId('DELETE /V1/carts/:cartId/coupons'),
    // Removing the coupon of a cart that holds items succeeds whether or not one is applied: a repeat changes nothing.
    again: 'reuse',
    prepare: async (fx) => ({ actor: 'admin', path: { cartId: (await readyCart(fx)).cart.id } }),
  },
]
