import type { EndpointRow } from '../types.ts'

/**
 * Spec § Endpoints › Endpoint lists by module › PaymentServicesPartner: one row per method+path, as the spec gives it.
 */
export const rows: EndpointRow[] = [
  {
    method: 'POST',
    path: '/V1/carts/mine/payment-order',
    module: 'payment-services-partner',
    contract: 'PaymentOrderRequestInterface::create',
    access: 'self',
    sections: ['Endpoints › Endpoint lists by module › PaymentServicesPartner'],
  },
  {
    method: 'POST',
    path: '/V1/carts/mine/payment-order/:id',
    module: 'payment-services-partner',
    contract: 'PaymentOrderRequestInterface::sync',
    access: 'self',
    params: [{ name: 'id', in: 'path' }],
    sections: ['Endpoints › Endpoint lists by module › PaymentServicesPartner'],
  },
  {
    method: 'POST',
    path: '/V1/guest-carts/:cartId/payment-order',
    module: 'payment-services-partner',
    contract: 'PaymentOrderRequestInterface::createGuest',
    access: 'anon',
    params: [{ name: 'cartId', in: 'path' }],
    sections: ['Endpoints › Endpoint lists by module › PaymentServicesPartner'],
  },
  {
    method: 'POST',
    path: '/V1/guest-carts/:cartId/payment-order/:id',
    module: 'payment-services-partner',
    contract: 'PaymentOrderRequestInterface::syncForGuest',
    access: 'anon',
    params: [
      { name: 'cartId', in: 'path' },
      { name: 'id', in: 'path' },
    ],
    sections: ['Endpoints › Endpoint lists by module › PaymentServicesPartner'],
  },
  {
    method: 'POST',
    path: '/V1/payment-order/completeOrder',
    module: 'payment-services-partner',
    contract: 'CompleteOrderInterface::execute',
    access: 'anon',
    purpose: 'places an order',
    sections: ['Endpoints › Endpoint lists by module › PaymentServicesPartner'],
  },
]
