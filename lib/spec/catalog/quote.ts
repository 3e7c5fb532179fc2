import type { EndpointRow } from '../types.ts'

/**
 * Spec § Endpoints › Endpoint lists by module › Quote: one row per method+path, as the spec gives it.
 * Also the endpoints of the detail table / additional operations that no list names but that belong here: DELETE /V1/carts/:cartId/items/:itemId, GET /V1/carts/:cartId, GET /V1/carts/:cartId/billing-address, DELETE /V1/carts/:cartId/coupons.
 */
export const rows: EndpointRow[] = [
  {
    method: 'POST',
    path: '/V1/carts',
    module: 'quote',
    family: 'quote',
    contract: 'CartManagementInterface::createEmptyCart',
    access: 'admin',
    purpose: 'guest cart',
    sections: [
      'Endpoints › Endpoint lists by module › Quote',
    ],
  },
  {
    method: 'POST',
    path: '/V1/carts/:cartId/billing-address',
    module: 'quote',
    contract: 'BillingAddressManagementInterface::assign',
    access: 'admin',
    params: [
      { name: 'cartId', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › Quote',
    ],
  },
  {
    method: 'POST',
    path: '/V1/carts/:cartId/estimate-shipping-methods',
    module: 'quote',
    contract: 'ShipmentEstimationInterface::estimateByExtendedAddress',
    access: 'admin',
    params: [
      { name: 'cartId', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › Quote',
    ],
  },
  {
    method: 'POST',
    path: '/V1/carts/:cartId/estimate-shipping-methods-by-address-id',
    module: 'quote',
    contract: 'ShippingMethodManagementInterface::estimateByAddressId',
    access: 'admin',
    params: [
      { name: 'cartId', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › Quote',
    ],
  },
  {
    method: 'POST',
    path: '/V1/carts/:quoteId/items',
    module: 'quote',
    contract: 'CartItemRepositoryInterface::save',
    access: 'admin',
    params: [
      { name: 'quoteId', in: 'path' },
    ],
    purpose: 'add or update item',
    sections: [
      'Endpoints › Endpoint lists by module › Quote',
    ],
  },
  {
    method: 'POST',
    path: '/V1/carts/mine',
    module: 'quote',
    family: 'quote',
    contract: 'CartManagementInterface::createEmptyCartForCustomer',
    access: 'self',
    purpose: 'only if the customer has no cart',
    sections: [
      'Endpoints › Endpoint lists by module › Quote',
    ],
  },
  {
    method: 'POST',
    path: '/V1/carts/mine/billing-address',
    module: 'quote',
    contract: 'BillingAddressManagementInterface::assign',
    access: 'self',
    sections: [
      'Endpoints › Endpoint lists by module › Quote',
    ],
  },
  {
    method: 'POST',
    path: '/V1/carts/mine/estimate-shipping-methods',
    module: 'quote',
    family: 'quote',
    contract: 'ShipmentEstimationInterface::estimateByExtendedAddress',
    contractModule: 'Quote',
    access: 'self',
    params: [
      { name: 'cartId', in: 'body', required: true },
      { name: 'address', in: 'body', type: 'AddressInterface', required: true },
    ],
    returns: 'ShippingMethodInterface[]',
    sections: [
      'Endpoints › Endpoint lists by module › Quote',
      'Endpoints › Endpoints with detailed shape',
    ],
  },
  {
    method: 'POST',
    path: '/V1/carts/mine/estimate-shipping-methods-by-address-id',
    module: 'quote',
    contract: 'ShippingMethodManagementInterface::estimateByAddressId',
    access: 'self',
    sections: [
      'Endpoints › Endpoint lists by module › Quote',
    ],
  },
  {
    method: 'PUT',
    path: '/V1/carts/:cartId',
    module: 'quote',
    contract: 'CartManagementInterface::assignCustomer',
    access: 'admin',
    params: [
      { name: 'cartId', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › Quote',
    ],
  },
  {
    method: 'PUT',
    path: '/V1/carts/:cartId/coupons/:couponCode',
    module: 'quote',
    contract: 'CouponManagementInterface::set',
    access: 'admin',
    params: [
      { name: 'cartId', in: 'path' },
      { name: 'couponCode', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › Quote',
    ],
  },
  {
    method: 'PUT',
    path: '/V1/carts/:cartId/items/:itemId',
    module: 'quote',
    contract: 'CartItemRepositoryInterface::save',
    access: 'admin',
    params: [
      { name: 'cartId', in: 'path' },
      { name: 'itemId', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › Quote',
    ],
  },
  {
    method: 'PUT',
    path: '/V1/carts/:cartId/order',
    module: 'quote',
    family: 'quote',
    contract: 'CartManagementInterface::placeOrder',
    contractModule: 'Quote',
    access: 'admin',
    acl: 'Shop_Cart::manage',
    params: [
      { name: 'cartId', in: 'path', type: 'int', required: true },
      { name: 'paymentMethod', in: 'body', type: 'PaymentInterface', default: 'null' },
    ],
    returns: 'int (order ID)',
    purpose: 'place order for a cart',
    sections: [
      'Endpoints › Endpoint lists by module › Quote',
      'Endpoints › Endpoints with detailed shape',
      'States and transitions',
    ],
  },
  {
    method: 'PUT',
    path: '/V1/carts/:cartId/selected-payment-method',
    module: 'quote',
    contract: 'PaymentMethodManagementInterface::set',
    access: 'admin',
    params: [
      { name: 'cartId', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › Quote',
    ],
  },
  {
    method: 'PUT',
    path: '/V1/carts/mine',
    module: 'quote',
    contract: 'CartRepositoryInterface::save',
    access: 'self',
    sections: [
      'Endpoints › Endpoint lists by module › Quote',
    ],
  },
  {
    method: 'PUT',
    path: '/V1/carts/mine/collect-totals',
    module: 'quote',
    contract: 'CartTotalManagementInterface::collectTotals',
    access: 'self',
    purpose: 'sets shipping/billing methods and extra data, then collects totals',
    sections: [
      'Endpoints › Endpoint lists by module › Quote',
    ],
  },
  {
    method: 'PUT',
    path: '/V1/carts/mine/coupons/:couponCode',
    module: 'quote',
    contract: 'CouponManagementInterface::set',
    access: 'self',
    params: [
      { name: 'couponCode', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › Quote',
    ],
  },
  {
    method: 'PUT',
    path: '/V1/carts/mine/items/:itemId',
    module: 'quote',
    contract: 'CartItemRepositoryInterface::save',
    access: 'self',
    params: [
      { name: 'itemId', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › Quote',
    ],
  },
  {
    method: 'PUT',
    path: '/V1/carts/mine/order',
    module: 'quote',
    contract: 'CartManagementInterface::placeOrder',
    access: 'self',
    sections: [
      'Endpoints › Endpoint lists by module › Quote',
    ],
  },
  {
    method: 'PUT',
    path: '/V1/carts/mine/selected-payment-method',
    module: 'quote',
    contract: 'PaymentMethodManagementInterface::set',
    access: 'self',
    sections: [
      'Endpoints › Endpoint lists by module › Quote',
    ],
  },
  {
    method: 'PUT',
    path: '/V1/guest-carts/:cartId',
    module: 'quote',
    contract: 'GuestCartManagementInterface::assignCustomer',
    access: 'self',
    accessNote: 'listed as self',
    params: [
      { name: 'cartId', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › Quote',
    ],
  },
  {
    method: 'PUT',
    path: '/V1/guest-carts/:cartId/collect-totals',
    module: 'quote',
    contract: 'GuestCartTotalManagementInterface::collectTotals',
    access: 'anon',
    params: [
      { name: 'cartId', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › Quote',
    ],
  },
  {
    method: 'PUT',
    path: '/V1/guest-carts/:cartId/coupons/:couponCode',
    module: 'quote',
    contract: 'GuestCouponManagementInterface::set',
    access: 'anon',
    params: [
      { name: 'cartId', in: 'path' },
      { name: 'couponCode', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › Quote',
    ],
  },
  {
    method: 'PUT',
    path: '/V1/guest-carts/:cartId/items/:itemId',
    module: 'quote',
    contract: 'GuestCartItemRepositoryInterface::save',
    access: 'anon',
    params: [
      { name: 'cartId', in: 'path' },
      { name: 'itemId', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › Quote',
    ],
  },
  {
    method: 'PUT',
    path: '/V1/guest-carts/:cartId/order',
    module: 'quote',
    contract: 'GuestCartManagementInterface::placeOrder',
    access: 'anon',
    params: [
      { name: 'cartId', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › Quote',
    ],
  },
  {
    method: 'PUT',
    path: '/V1/guest-carts/:cartId/selected-payment-method',
    module: 'quote',
    contract: 'GuestPaymentMethodManagementInterface::set',
    access: 'anon',
    params: [
      { name: 'cartId', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › Quote',
    ],
  },
  {
    method: 'POST',
    path: '/V1/guest-carts/:cartId/billing-address',
    module: 'quote',
    family: 'quote',
    contract: 'GuestBillingAddressManagementInterface::assign',
    contractModule: 'Quote',
    access: 'anon',
    params: [
      { name: 'cartId', in: 'path', note: 'cart ID' },
      { name: 'address', in: 'body', note: 'address object' },
      { name: 'useForShipping', in: 'body', type: 'boolean' },
    ],
    returns: 'int (address ID)',
    sections: [
      'Endpoints › Endpoint lists by module › Quote',
      'Endpoints › Endpoints with detailed shape',
    ],
  },
  {
    method: 'DELETE',
    path: '/V1/carts/:cartId/items/:itemId',
    module: 'quote',
    family: 'quote',
    contract: 'CartItemRepositoryInterface::deleteById',
    contractModule: 'Quote',
    access: 'admin',
    acl: 'Shop_Cart::manage',
    params: [
      { name: 'cartId', in: 'path', type: 'int', required: true },
      { name: 'itemId', in: 'path', type: 'int', required: true, note: 'item to remove' },
    ],
    returns: 'bool',
    sections: [
      'Endpoints › Endpoints with detailed shape',
    ],
  },
  {
    method: 'GET',
    path: '/V1/carts/:cartId',
    module: 'quote',
    contract: 'CartRepositoryInterface::get',
    contractModule: 'Quote',
    access: 'admin',
    params: [
      { name: 'cartId', in: 'path' },
    ],
    purpose: 'returns a cart for an administrative user.',
    sections: [
      'Endpoints › Additional operations known only by path and purpose',
    ],
  },
  {
    method: 'GET',
    path: '/V1/carts/:cartId/billing-address',
    module: 'quote',
    answer: 'cartAddress',
    family: 'quote',
    contract: 'BillingAddressManagementInterface::get',
    contractModule: 'Quote',
    access: 'admin',
    params: [
      { name: 'cartId', in: 'path' },
    ],
    purpose: 'billing address of a quote.',
    sections: [
      'Endpoints › Additional operations known only by path and purpose',
    ],
  },
  {
    method: 'DELETE',
    path: '/V1/carts/:cartId/coupons',
    module: 'quote',
    contract: 'CouponManagementInterface::remove',
    contractModule: 'Quote',
    access: 'admin',
    params: [
      { name: 'cartId', in: 'path' },
    ],
    purpose: 'removes a coupon.',
    sections: [
      'Endpoints › Additional operations known only by path and purpose',
    ],
  },
]
