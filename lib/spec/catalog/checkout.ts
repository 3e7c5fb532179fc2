import type { EndpointRow } from '../types.ts'

/**
 * Spec § Endpoints › Endpoint lists by module › Checkout: one row per method+path, as the spec gives it.
 */
export const rows: EndpointRow[] = [
  {
    method: 'POST',
    path: '/V1/carts/:cartId/shipping-information',
    module: 'checkout',
    contract: 'ShippingInformationManagementInterface::saveAddressInformation',
    access: 'admin',
    params: [
      { name: 'cartId', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › Checkout',
    ],
  },
  {
    method: 'POST',
    path: '/V1/carts/:cartId/totals-information',
    module: 'checkout',
    contract: 'TotalsInformationManagementInterface::calculate',
    access: 'admin',
    params: [
      { name: 'cartId', in: 'path' },
    ],
    purpose: 'totals from address and shipping method',
    sections: [
      'Endpoints › Endpoint lists by module › Checkout',
    ],
  },
  {
    method: 'POST',
    path: '/V1/carts/mine/payment-information',
    module: 'checkout',
    contract: 'PaymentInformationManagementInterface::savePaymentInformationAndPlaceOrder',
    access: 'self',
    sections: [
      'Endpoints › Endpoint lists by module › Checkout',
    ],
  },
  {
    method: 'POST',
    path: '/V1/carts/mine/set-payment-information',
    module: 'checkout',
    contract: 'PaymentInformationManagementInterface::savePaymentInformation',
    access: 'self',
    sections: [
      'Endpoints › Endpoint lists by module › Checkout',
    ],
  },
  {
    method: 'POST',
    path: '/V1/carts/mine/shipping-information',
    module: 'checkout',
    contract: 'ShippingInformationManagementInterface::saveAddressInformation',
    access: 'self',
    sections: [
      'Endpoints › Endpoint lists by module › Checkout',
    ],
  },
  {
    method: 'POST',
    path: '/V1/carts/mine/totals-information',
    module: 'checkout',
    contract: 'TotalsInformationManagementInterface::calculate',
    access: 'self',
    sections: [
      'Endpoints › Endpoint lists by module › Checkout',
    ],
  },
  {
    method: 'GET',
    path: '/V1/carts/mine/payment-information',
    module: 'checkout',
    contract: 'PaymentInformationManagementInterface::getPaymentInformation',
    access: 'self',
    sections: [
      'Endpoints › Endpoint lists by module › Checkout',
    ],
  },
  {
    method: 'POST',
    path: '/V1/guest-carts/:cartId/payment-information',
    module: 'checkout',
    contract: 'GuestPaymentInformationManagementInterface::savePaymentInformationAndPlaceOrder',
    access: 'anon',
    params: [
      { name: 'cartId', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › Checkout',
    ],
  },
  {
    method: 'POST',
    path: '/V1/guest-carts/:cartId/set-payment-information',
    module: 'checkout',
    contract: 'GuestPaymentInformationManagementInterface::savePaymentInformation',
    access: 'anon',
    params: [
      { name: 'cartId', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › Checkout',
    ],
  },
  {
    method: 'POST',
    path: '/V1/guest-carts/:cartId/shipping-information',
    module: 'checkout',
    contract: 'GuestShippingInformationManagementInterface::saveAddressInformation',
    access: 'anon',
    params: [
      { name: 'cartId', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › Checkout',
    ],
  },
  {
    method: 'POST',
    path: '/V1/guest-carts/:cartId/totals-information',
    module: 'checkout',
    contract: 'GuestTotalsInformationManagementInterface::calculate',
    access: 'anon',
    params: [
      { name: 'cartId', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › Checkout',
    ],
  },
  {
    method: 'GET',
    path: '/V1/guest-carts/:cartId/payment-information',
    module: 'checkout',
    contract: 'GuestPaymentInformationManagementInterface::getPaymentInformation',
    access: 'anon',
    params: [
      { name: 'cartId', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › Checkout',
    ],
  },
]
