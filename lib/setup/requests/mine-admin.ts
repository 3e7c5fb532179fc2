/**
 * The admin's request at a `mine` write (issue 29.5). "Self: … an admin token also works" (Authentication 3), so the
 * admin is let through there — but a `mine` path names the calling customer's own cart or account, which an admin
 * has none of, and a valid request could make something nobody owns (an admin's `{}` at `PUT /V1/carts/mine` made a
 * cart on a real shop). So the admin is sent a request whose data the shop refuses whatever it does with an admin
 * token: each object the contract takes holds a value of the wrong type for one of its fields (a string where an
 * int is declared, an object where a string is), which the platform's input layer refuses (400) while converting
 * the body, before the service runs; the path's ids are placeholders no cart of the admin's holds; the id a `mine`
 * path takes from the token, named in the body, is not a number. A 401/403 to it is the admin refused (`access`
 * fails); another 4xx is the admin's data refused — let through. What a success there could make anyway is named
 * (`creates`): the ledger records it before the request leaves.
 *
 * Only the `mine` and `me` paths: `POST /V1/integration/customer/revoke-customer-token` and `PUT
 * /V1/guest-carts/:cartId` are self writes whose admin request would name someone else's tokens or a cart by id,
 * not the caller's own, and are not sent to the admin.
 */
import { endpointId } from '../../spec/catalog/index.ts'
import type { EndpointId } from '../../spec/endpoint-id.ts'
import type { EndpointRow } from '../../spec/types.ts'
import type { EntityKind } from '../ledger.ts'

/** Where an int (or a float) is declared: not a number, so the platform's conversion of the body refuses it. */
const NOT_A_NUMBER = 'shop-conformance: not a number'
/** Where a string is declared: an object, which the platform's conversion refuses as well. */
const NOT_A_STRING = { 'shop-conformance': 'not a string' }

/** An address (`AddressInterface`) whose region id is not a number. */
const ADDRESS = { region_id: NOT_A_NUMBER }
/** A payment (`PaymentInterface`) whose method is not a string. */
const PAYMENT = { method: NOT_A_STRING }

interface MineAdminRequest {
  body: Record<string, unknown>
  /** What a success could make all the same, as the ledger names it. */
  creates?: EntityKind
}

/** By endpoint: the admin's request at every `mine`/`me` write (mine-admin.test.ts checks that none is missing). */
export const MINE_ADMIN_REQUESTS: Readonly<Partial<Record<EndpointId, MineAdminRequest>>> = {
  [endpointId('POST /V1/carts/mine')]: { body: { customerId: NOT_A_NUMBER }, creates: 'cart' },
  [endpointId('PUT /V1/carts/mine')]: {
    body: { quote: { id: NOT_A_NUMBER, store_id: NOT_A_NUMBER } },
    creates: 'cart',
  },
  [endpointId('POST /V1/carts/mine/billing-address')]: {
    body: { cartId: NOT_A_NUMBER, address: ADDRESS, useForShipping: false },
  },
  [endpointId('POST /V1/carts/mine/estimate-shipping-methods')]: { body: { cartId: NOT_A_NUMBER, address: ADDRESS } },
  [endpointId('POST /V1/carts/mine/estimate-shipping-methods-by-address-id')]: {
    body: { cartId: NOT_A_NUMBER, addressId: NOT_A_NUMBER },
  },
  [endpointId('POST /V1/carts/mine/gift-message')]: {
    body: { cartId: NOT_A_NUMBER, giftMessage: { gift_message_id: NOT_A_NUMBER, message: '' } },
  },
  [endpointId('POST /V1/carts/mine/gift-message/:itemId')]: {
    body: { cartId: NOT_A_NUMBER, giftMessage: { gift_message_id: NOT_A_NUMBER, message: '' } },
  },
  [endpointId('POST /V1/carts/mine/payment-information')]: {
    body: { cartId: NOT_A_NUMBER, paymentMethod: PAYMENT, billingAddress: ADDRESS },
    creates: 'order',
  },
  [endpointId('POST /V1/carts/mine/set-payment-information')]: {
    body: { cartId: NOT_A_NUMBER, paymentMethod: PAYMENT, billingAddress: ADDRESS },
  },
  [endpointId('POST /V1/carts/mine/shipping-information')]: {
    body: {
      cartId: NOT_A_NUMBER,
      addressInformation: {
        shipping_address: ADDRESS,
        billing_address: ADDRESS,
        shipping_carrier_code: NOT_A_STRING,
        shipping_method_code: NOT_A_STRING,
      },
    },
  },
  [endpointId('POST /V1/carts/mine/totals-information')]: {
    body: { cartId: NOT_A_NUMBER, addressInformation: { address: ADDRESS, shipping_carrier_code: NOT_A_STRING } },
  },
  [endpointId('POST /V1/carts/mine/payment-order')]: { body: { cartId: NOT_A_NUMBER, methodCode: NOT_A_STRING } },
  [endpointId('POST /V1/carts/mine/payment-order/:id')]: { body: { cartId: NOT_A_NUMBER } },
  [endpointId('PUT /V1/carts/mine/collect-totals')]: { body: { cartId: NOT_A_NUMBER, paymentMethod: PAYMENT } },
  [endpointId('PUT /V1/carts/mine/coupons/:couponCode')]: { body: { cartId: NOT_A_NUMBER } },
  [endpointId('PUT /V1/carts/mine/items/:itemId')]: {
    body: { cartItem: { qty: NOT_A_NUMBER, quote_id: NOT_A_NUMBER } },
  },
  [endpointId('PUT /V1/carts/mine/order')]: {
    body: { cartId: NOT_A_NUMBER, paymentMethod: PAYMENT },
    creates: 'order',
  },
  [endpointId('PUT /V1/carts/mine/selected-payment-method')]: { body: { cartId: NOT_A_NUMBER, method: PAYMENT } },
  [endpointId('POST /V1/cardvault/mine/payment/vault')]: {
    body: { customerId: NOT_A_NUMBER, setupTokenId: NOT_A_STRING },
  },
  // No e-mail: even a shop that took the rest could not save a customer from it.
  [endpointId('PUT /V1/customers/me')]: {
    body: { customer: { group_id: NOT_A_NUMBER, website_id: NOT_A_NUMBER } },
    creates: 'customer',
  },
  [endpointId('PUT /V1/customers/me/activate')]: { body: { customerId: NOT_A_NUMBER, confirmationKey: NOT_A_STRING } },
  [endpointId('PUT /V1/customers/me/password')]: {
    body: { customerId: NOT_A_NUMBER, currentPassword: NOT_A_STRING, newPassword: NOT_A_STRING },
  },
}

/**
 * A write whose path names the calling customer's own cart or account (`/mine`, `/me`): the admin gets its request
 * above.
 */
export function isMineWrite(row: Pick<EndpointRow, 'method' | 'path' | 'access'>): boolean {
  return row.access === 'self' && row.method !== 'GET' && /\/(mine|me)(\/|$)/.test(row.path)
}
