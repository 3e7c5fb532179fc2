/**
 * Valid requests of the GiftMessage module (Magento_GiftMessage's webapi.xml; `CartRepositoryInterface` and
 * `ItemRepositoryInterface` save/get): the gift message of the run's ready cart, and of its item, saved and read.
 *
 * The message saved has no text. A stock install allows no gift messages (its "Allow Gift Messages" settings, on
 * order level and for items, are No), and the platform then refuses a message with text (400 "Gift Message is not
 * available") but saves one without (it answers `true` and removes the message the cart or item had): a request
 * every shop answers 2xx for, whatever its configuration, that touches nothing but the run's own cart. Reading a cart
 * or item without a message answers 200 too (an empty answer).
 */
import type { Provisioner } from '../provision.ts'
import { cartToRead, mineCartToRead, readyCart, type OwnCart } from './own-carts.ts'
import type { RequestRecipe } from './types.ts'
import { endpointId } from '../../spec/catalog/index.ts'

function giftMessage(fx: Provisioner, own: OwnCart): Record<string, unknown> {
  return { sender: fx.builders.name('gift message sender'), recipient: own.customer.email, message: '' }
}

const mine = (own: OwnCart) => ({ token: own.customer.token })

export const giftMessageRecipes: RequestRecipe[] = [
  {
    endpoint: endpointId('POST /V1/carts/:cartId/gift-message'),
    again: 'reuse',
    prepare: async (fx) => {
      const own = await readyCart(fx)
      return { actor: 'admin', path: { cartId: own.cart.id }, body: { giftMessage: giftMessage(fx, own) } }
    },
  },
  {
    endpoint: endpointId('GET /V1/carts/:cartId/gift-message'),
    prepare: async (fx) => ({ actor: 'admin', path: { cartId: (await cartToRead(fx)).cartId } }),
  },
  {
    endpoint: endpointId('POST /V1/carts/:cartId/gift-message/:itemId'),
    again: 'reuse',
    prepare: async (fx) => {
      const own = await readyCart(fx)
      return {
        actor: 'admin',
        path: { cartId: own.cart.id, itemId: own.itemId },
        body: { giftMessage: giftMessage(fx, own) },
      }
    },
  },
  {
    endpoint: endpointId('GET /V1/carts/:cartId/gift-message/:itemId'),
    prepare: async (fx) => {
      const cart = await cartToRead(fx)
      return { actor: 'admin', path: { cartId: cart.cartId, itemId: cart.itemId } }
    },
  },
  {
    endpoint: endpointId('POST /V1/carts/mine/gift-message'),
    again: 'reuse',
    prepare: async (fx) => {
      const own = await readyCart(fx)
      return { actor: mine(own), path: {}, body: { giftMessage: giftMessage(fx, own) } }
    },
  },
  {
    endpoint: endpointId('GET /V1/carts/mine/gift-message'),
    prepare: async (fx) => ({ actor: (await mineCartToRead(fx)).customer, path: {} }),
  },
  {
    endpoint: endpointId('POST /V1/carts/mine/gift-message/:itemId'),
    // Another customer naming this item has no such item in a cart of theirs.
    again: 'reuse',
    prepare: async (fx) => {
      const own = await readyCart(fx)
      return { actor: mine(own), path: { itemId: own.itemId }, body: { giftMessage: giftMessage(fx, own) } }
    },
  },
  {
    endpoint: endpointId('GET /V1/carts/mine/gift-message/:itemId'),
    prepare: async (fx) => {
      const cart = await mineCartToRead(fx)
      return { actor: cart.customer, path: { itemId: cart.itemId } }
    },
  },
]
