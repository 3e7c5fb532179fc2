import type { ShippingMethod } from '../settings/config.ts'
import type { AddressDraft } from './builders.ts'
import { CatalogMaker, type MadeCustomer } from './catalog-maker.ts'
import { idText, toId } from './platform-ids.ts'
import { isSuccess, SetupError, sendOnce, type Actor, type Called, type Creation } from './setup-call.ts'
import { platformCall } from './platform-calls.ts'
import { isObject } from '../base/is-object.ts'
import { findOrder, type AdminGet } from '../shop/lookup.ts'
import { defined } from '../base/defined.ts'

/** A cart as the interface addresses it: the customer's own, a guest's masked id, or its id for the admin. */
export type CartRef = { kind: 'mine'; token: string; id?: number } | GuestCart | { kind: 'admin'; id: number }
/** A customer's own cart, as made: the platform's id is known. */
export type MineCart = { kind: 'mine'; token: string; id: number }
export type GuestCart = { kind: 'guest'; maskedId: string }

export interface PlacedOrder {
  orderId: number
  cart: CartRef
  /** Order items as the order read back lists them. */
  items: { item_id: number; sku: string; qty_ordered: number }[]
  order: Record<string, unknown>
}

/**
 * The provisioner's carts, orders and sales documents (shipments, credit memos, invoices), made of the
 * catalog-side fixtures and through the set-up calls of catalog-maker.ts.
 */
export abstract class SalesMaker extends CatalogMaker {
  async customerCart(customer: { token: string }, label: string): Promise<MineCart> {
    // A repeat makes no second cart: the platform answers the customer's active cart.
    const { answer } = await this.create(
      `create cart ${label}`,
      { method: 'POST', path: '/V1/carts/mine', actor: { token: customer.token }, repeat: 'safe' },
      { kind: 'cart', label: `customer cart ${label}`, idOf: idText },
      (a) => isSuccess(a) && toId(a.body) !== undefined,
    )
    return { kind: 'mine', token: customer.token, id: acceptedId(answer.body) }
  }

  async guestCart(label: string): Promise<GuestCart> {
    // Repeated after no answer: an empty cart is all an attempt can leave, and each attempt is in the ledger.
    const { answer } = await this.create(
      `create guest cart ${label}`,
      { ...platformCall('createGuestCart'), actor: 'guest', repeat: 'safe' },
      {
        kind: 'guest cart',
        label: `guest cart ${label}`,
        idOf: (body) => (typeof body === 'string' && body !== '' ? body : undefined),
      },
      (a) => isSuccess(a) && typeof a.body === 'string' && a.body !== '',
    )
    return { kind: 'guest', maskedId: answer.body as string }
  }

  cartPath(cart: CartRef): string {
    switch (cart.kind) {
      case 'mine':
        return '/V1/carts/mine'
      case 'guest':
        return `/V1/guest-carts/${cart.maskedId}`
      case 'admin':
        return `/V1/carts/${cart.id}`
    }
  }

  /**
   * A cart's read and the adding of an item to it, as its kind addresses it: the spec lists them for the admin's
   * carts (`/V1/carts/:cartId`), the platform's calls serve a customer's own and a guest's.
   */
  #cartCall(cart: CartRef, what: 'read' | 'add item'): { method: string; path: string } {
    if (cart.kind === 'admin')
      return {
        method: what === 'read' ? 'GET' : 'POST',
        path: `${this.cartPath(cart)}${what === 'read' ? '' : '/items'}`,
      }
    if (cart.kind === 'mine') return platformCall(what === 'read' ? 'readMineCart' : 'addMineCartItem')
    return platformCall(what === 'read' ? 'readGuestCart' : 'addGuestCartItem', { cartId: cart.maskedId })
  }

  cartActor(cart: CartRef): Actor {
    switch (cart.kind) {
      case 'mine':
        return { token: cart.token }
      case 'guest':
        return 'guest'
      case 'admin':
        return 'admin'
    }
  }

  /**
   * The item added; `quote_id`, the cart's id as the shop answers it (a guest cart's is known only so), when it says.
   */
  async addItem(cart: CartRef, sku: string, qty: number): Promise<{ item_id: number; quote_id?: number }> {
    const cartItem: Record<string, unknown> = { sku, qty }
    if (cart.kind === 'admin') cartItem.quote_id = cart.id
    if (cart.kind === 'guest') cartItem.quote_id = cart.maskedId
    // Adding again would add to the quantity: a repeat first looks for the item in the cart.
    const repeat = { find: () => this.#itemOf(cart, sku) }
    const { answer } = await this.call(`add ${sku} to the cart`, {
      ...this.#cartCall(cart, 'add item'),
      actor: this.cartActor(cart),
      body: { cartItem },
      repeat,
    })
    const itemId = toId((answer.body as { item_id?: unknown }).item_id)
    if (itemId === undefined)
      throw new SetupError(
        'add item',
        `set-up step "add ${sku} to the cart" answered an item without a numeric item_id`,
      )
    const quoteId = toId((answer.body as { quote_id?: unknown }).quote_id)
    // The guest cart's cart id (the platform answers the item with it): what names the cart once its order is placed
    // and its masked id stops working.
    if (cart.kind === 'guest' && quoteId !== undefined) this.ledger.alias('guest cart', cart.maskedId, String(quoteId))
    return { item_id: itemId, ...(quoteId !== undefined ? { quote_id: quoteId } : {}) }
  }

  /** The item of `sku` in the cart, read back (`GET` of the cart): what an attempt to add it may have made. */
  async #itemOf(cart: CartRef, sku: string): Promise<Awaited<ReturnType<NonNullable<Creation['find']>>>> {
    const outcome = await sendOnce(
      this.session,
      { ...this.#cartCall(cart, 'read'), actor: this.cartActor(cart) },
      this.tokenOf(this.cartActor(cart)),
    )
    const body = outcome.answer?.status === 200 ? outcome.answer.body : undefined
    const items: unknown[] = isObject(body) && Array.isArray(body.items) ? body.items : []
    const item = items.find((i) => isObject(i) && i.sku === sku)
    return item === undefined ? { exchanges: [outcome.exchange] } : { body: item, exchanges: [outcome.exchange] }
  }

  async shippingInformation(cart: CartRef, address: AddressDraft, shipping: ShippingMethod): Promise<Called> {
    return this.call('set shipping information', {
      method: 'POST',
      path: `${this.cartPath(cart)}/shipping-information`,
      actor: this.cartActor(cart),
      body: {
        addressInformation: {
          shipping_address: address,
          billing_address: address,
          shipping_carrier_code: shipping.carrier,
          shipping_method_code: shipping.method,
        },
      },
      repeat: 'safe',
    })
  }

  /**
   * Places the cart's order. A placement whose answer never came (a real shop took 13–16 s, and went on placing it
   * after a client gave up) or was a server error is looked for before it is repeated — among the orders of the
   * cart's e-mail (`email`: its customer's, or the address a guest gave), the one of the cart (`quoteId`, the
   * cart's id) — and, found, adopted: what depends on the order is judged as if the answer had come.
   */
  async placeOrder(
    cart: CartRef,
    paymentMethod: string,
    placedBy: { email: string; quoteId?: number },
  ): Promise<number> {
    const quoteId = placedBy.quoteId ?? (cart.kind === 'guest' ? undefined : cart.id)
    const get: AdminGet = (path, query) =>
      sendOnce(
        this.session,
        { method: 'GET', path, actor: 'admin', ...(query !== undefined ? { query } : {}) },
        this.tokenOf('admin'),
      )
    const { answer } = await this.create(
      'place the order',
      {
        method: 'PUT',
        path: `${this.cartPath(cart)}/order`,
        actor: this.cartActor(cart),
        body: { paymentMethod: { method: paymentMethod } },
      },
      {
        kind: 'order',
        label: 'order',
        idOf: idText,
        find: () =>
          findOrder(get, platformCall('searchOrders').path, {
            email: placedBy.email,
            ...(quoteId !== undefined ? { quoteId } : {}),
          }),
      },
      (a) => isSuccess(a) && toId(a.body) !== undefined,
    )
    return acceptedId(answer.body)
  }

  /**
   * A guest order of `qty` units of a product, shipped and paid as the settings say. Zero-total orders
   * (`free` payment) use a product of their own priced 0 and the free shipping method.
   */
  async guestOrder(
    label: string,
    options: { qty?: number; zeroTotal?: boolean; paymentMethod?: string } = {},
  ): Promise<PlacedOrder> {
    const fx = this.session.seed.purchase
    const zero = options.zeroTotal === true
    const product = zero ? await this.product(`${label} zero-priced`, { price: 0 }) : await this.mainProduct()
    const cart = await this.guestCart(label)
    const item = await this.addItem(cart, product.sku, options.qty ?? 2)
    const address = this.builders.address(`${label} shipping`)
    await this.shippingInformation(cart, address, zero ? fx.freeShipping : fx.shipping)
    const placedBy = { email: address.email, ...(item.quote_id !== undefined ? { quoteId: item.quote_id } : {}) }
    const orderId = await this.placeOrder(
      cart,
      options.paymentMethod ?? (zero ? fx.invoiceRefundPaymentMethod : fx.paymentMethod),
      placedBy,
    )
    const order = await this.readOrder(orderId)
    return { orderId, cart, order, items: orderItems(order) }
  }

  async readOrder(orderId: number): Promise<Record<string, unknown>> {
    const { answer } = await this.call(
      'read the order',
      { ...platformCall('readOrder', { id: orderId }), actor: 'admin' },
      (a) => a.status === 200 && isObject(a.body),
    )
    return answer.body as Record<string, unknown>
  }

  /** A customer of its own with a cart holding the main product and shipping information set: ready to order. */
  async customerCartReadyToOrder(label: string): Promise<{ customer: MadeCustomer; cart: MineCart; itemId: number }> {
    const customer = await this.customer(label)
    const cart = await this.customerCart(customer, label)
    const product = await this.mainProduct()
    const { item_id } = await this.addItem(cart, product.sku, 1)
    await this.shippingInformation(
      cart,
      this.builders.address(`${label} shipping`, customer.email),
      this.session.seed.purchase.shipping,
    )
    return { customer, cart, itemId: item_id }
  }

  /** Ships the order (all of it, or `items`): a shipment to read. */
  async ship(orderId: number, items?: { order_item_id: number; qty: number }[]): Promise<number> {
    return this.#createId(
      'ship the order',
      'shipment',
      `shipment of order ${orderId}`,
      platformCall('shipOrder', { orderId }),
      { ...(items !== undefined ? { items } : {}), notify: false },
    )
  }

  /** An offline refund of one unit of the order's first item: a credit memo to read. */
  async refundOffline(orderId: number, orderItemId: number): Promise<number> {
    return this.#createId(
      'refund the order offline',
      'credit memo',
      `credit memo of order ${orderId}`,
      { method: 'POST', path: `/V1/order/${orderId}/refund` },
      { items: [{ order_item_id: orderItemId, qty: 1 }], notify: false },
    )
  }

  async invoice(orderId: number): Promise<number> {
    return this.#createId(
      'invoice the order',
      'invoice',
      `invoice of order ${orderId}`,
      platformCall('invoiceOrder', { orderId }),
      { capture: true, notify: false },
    )
  }

  /** An admin call whose answer is the id of what it made (a sales document the interface cannot find again). */
  async #createId(
    step: string,
    kind: Creation['kind'],
    label: string,
    call: { method: string; path: string },
    body: unknown,
  ): Promise<number> {
    const { answer } = await this.create(
      step,
      { ...call, actor: 'admin', body },
      { kind, label, idOf: idText },
      (a) => isSuccess(a) && toId(a.body) !== undefined,
    )
    return acceptedId(answer.body)
  }
}

/** The id an answer carries, once `accept` has taken it for carrying one (`toId(a.body) !== undefined`). */
function acceptedId(body: unknown): number {
  return defined(toId(body), 'the id of an answer accepted for carrying one')
}

/**
 * The id of an order's first item, as the order read back lists it: what a refund or a shipment of part of it names.
 * An order the shop read back without an item leaves the step that needs one not made.
 */
export function firstItemId(order: PlacedOrder): number {
  const item = order.items[0]
  if (item === undefined)
    throw new SetupError(
      'read the order',
      `set-up step "read the order" answered order ${order.orderId} without an item`,
    )
  return item.item_id
}

export function orderItems(order: Record<string, unknown>): PlacedOrder['items'] {
  const items = Array.isArray(order.items) ? order.items : []
  return items.flatMap((i: unknown) => {
    if (!isObject(i)) return []
    const id = toId(i.item_id)
    return id === undefined ? [] : [{ item_id: id, sku: String(i.sku), qty_ordered: Number(i.qty_ordered) }]
  })
}
