/**
 * Valid requests of the Checkout module (Magento_Checkout's webapi.xml and Api interfaces): shipping information
 * saved again with the values the run's ready cart already has, totals calculated for its address and carrier,
 * payment information saved or read; placing an order with payment information uses a customer and cart of its own
 * each time.
 */
import { idText, type Provisioner } from '../provision.ts'
import { mineCartToRead, readyCart, type OwnCart } from './own-carts.ts'
import type { RequestRecipe } from './types.ts'
import { endpointId } from '../../spec/catalog/index.ts'

const paymentMethod = (fx: Provisioner) => ({ method: fx.session.seed.purchase.paymentMethod })
/** The address the ready cart was given: saving it again is a same-value save. */
const shippingAddress = (fx: Provisioner, own: OwnCart) => fx.builders.address('own cart shipping', own.customer.email)
const mine = (own: OwnCart) => ({ token: own.customer.token })

/** `ShippingInformationInterface`: both addresses and the configured carrier. */
function addressInformation(fx: Provisioner, own: OwnCart): Record<string, unknown> {
  const { carrier, method } = fx.session.seed.purchase.shipping
  const address = shippingAddress(fx, own)
  return {
    shipping_address: address,
    billing_address: address,
    shipping_carrier_code: carrier,
    shipping_method_code: method,
  }
}

/** `TotalsInformationInterface`: one address and the configured carrier. */
function totalsInformation(fx: Provisioner, own: OwnCart): Record<string, unknown> {
  const { carrier, method } = fx.session.seed.purchase.shipping
  return { address: shippingAddress(fx, own), shipping_carrier_code: carrier, shipping_method_code: method }
}

export const checkoutRecipes: RequestRecipe[] = [
  {
    endpoint: endpointId('POST /V1/carts/:cartId/shipping-information'),
    again: 'reuse',
    prepare: async (fx) => {
      const own = await readyCart(fx)
      return {
        actor: 'admin',
        path: { cartId: own.cart.id },
        body: { addressInformation: addressInformation(fx, own) },
      }
    },
  },
  {
    endpoint: endpointId('POST /V1/carts/:cartId/totals-information'),
    again: 'reuse',
    prepare: async (fx) => {
      const own = await readyCart(fx)
      return { actor: 'admin', path: { cartId: own.cart.id }, body: { addressInformation: totalsInformation(fx, own) } }
    },
  },
  {
    endpoint: endpointId('POST /V1/carts/mine/payment-information'),
    // Places the order: a customer of its own with a cart ready to order each time.
    prepare: async (fx, label) => {
      const { customer } = await fx.customerCartReadyToOrder(label)
      return {
        actor: { token: customer.token },
        path: {},
        body: {
          paymentMethod: paymentMethod(fx),
          billingAddress: fx.builders.address(`${label} billing`, customer.email),
        },
      }
    },
    creates: { kind: 'order', idOf: idText },
  },
  {
    endpoint: endpointId('POST /V1/carts/mine/set-payment-information'),
    again: 'reuse',
    prepare: async (fx) => {
      const own = await readyCart(fx)
      return {
        actor: mine(own),
        path: {},
        body: { paymentMethod: paymentMethod(fx), billingAddress: shippingAddress(fx, own) },
      }
    },
  },
  {
    endpoint: endpointId('POST /V1/carts/mine/shipping-information'),
    again: 'reuse',
    prepare: async (fx) => {
      const own = await readyCart(fx)
      return { actor: mine(own), path: {}, body: { addressInformation: addressInformation(fx, own) } }
    },
  },
  {
    endpoint: endpointId('POST /V1/carts/mine/totals-information'),
    again: 'reuse',
    prepare: async (fx) => {
      const own = await readyCart(fx)
      return { actor: mine(own), path: {}, body: { addressInformation: totalsInformation(fx, own) } }
    },
  },
  {
    endpoint: endpointId('GET /V1/carts/mine/payment-information'),
    prepare: async (fx) => ({ actor: (await mineCartToRead(fx)).customer, path: {} }),
  },
]
