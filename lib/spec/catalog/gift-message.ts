import type { EndpointRow } from '../types.ts'

/**
 * Spec § Endpoints › Endpoint lists by module › GiftMessage: one row per method+path, as the spec gives it.
 */
export const rows: EndpointRow[] = [
  {
    method: 'POST',
    path: '/V1/carts/:cartId/gift-message',
    module: 'gift-message',
    contract: 'CartRepositoryInterface::save',
    access: 'admin',
    params: [
      { name: 'cartId', in: 'path' },
    ],
    purpose: 'whole order',
    sections: [
      'Endpoints › Endpoint lists by module › GiftMessage',
    ],
  },
  {
    method: 'GET',
    path: '/V1/carts/:cartId/gift-message',
    module: 'gift-message',
    contract: 'CartRepositoryInterface::get',
    access: 'admin',
    params: [
      { name: 'cartId', in: 'path' },
    ],
    purpose: 'whole order',
    sections: [
      'Endpoints › Endpoint lists by module › GiftMessage',
    ],
  },
  {
    method: 'POST',
    path: '/V1/carts/:cartId/gift-message/:itemId',
    module: 'gift-message',
    contract: 'ItemRepositoryInterface::save',
    access: 'admin',
    params: [
      { name: 'cartId', in: 'path' },
      { name: 'itemId', in: 'path' },
    ],
    purpose: 'one item',
    sections: [
      'Endpoints › Endpoint lists by module › GiftMessage',
    ],
  },
  {
    method: 'GET',
    path: '/V1/carts/:cartId/gift-message/:itemId',
    module: 'gift-message',
    contract: 'ItemRepositoryInterface::get',
    access: 'admin',
    params: [
      { name: 'cartId', in: 'path' },
      { name: 'itemId', in: 'path' },
    ],
    purpose: 'one item',
    sections: [
      'Endpoints › Endpoint lists by module › GiftMessage',
    ],
  },
  {
    method: 'POST',
    path: '/V1/carts/mine/gift-message',
    module: 'gift-message',
    contract: 'CartRepositoryInterface::save',
    access: 'self',
    sections: [
      'Endpoints › Endpoint lists by module › GiftMessage',
    ],
  },
  {
    method: 'GET',
    path: '/V1/carts/mine/gift-message',
    module: 'gift-message',
    contract: 'CartRepositoryInterface::get',
    access: 'self',
    sections: [
      'Endpoints › Endpoint lists by module › GiftMessage',
    ],
  },
  {
    method: 'POST',
    path: '/V1/carts/mine/gift-message/:itemId',
    module: 'gift-message',
    contract: 'ItemRepositoryInterface::save',
    access: 'self',
    params: [
      { name: 'itemId', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › GiftMessage',
    ],
  },
  {
    method: 'GET',
    path: '/V1/carts/mine/gift-message/:itemId',
    module: 'gift-message',
    contract: 'ItemRepositoryInterface::get',
    access: 'self',
    params: [
      { name: 'itemId', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › GiftMessage',
    ],
  },
  {
    method: 'POST',
    path: '/V1/guest-carts/:cartId/gift-message',
    module: 'gift-message',
    contract: 'GuestCartRepositoryInterface::save',
    access: 'anon',
    params: [
      { name: 'cartId', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › GiftMessage',
    ],
  },
  {
    method: 'GET',
    path: '/V1/guest-carts/:cartId/gift-message',
    module: 'gift-message',
    contract: 'GuestCartRepositoryInterface::get',
    access: 'anon',
    params: [
      { name: 'cartId', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › GiftMessage',
    ],
  },
  {
    method: 'POST',
    path: '/V1/guest-carts/:cartId/gift-message/:itemId',
    module: 'gift-message',
    contract: 'GuestItemRepositoryInterface::save',
    access: 'anon',
    params: [
      { name: 'cartId', in: 'path' },
      { name: 'itemId', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › GiftMessage',
    ],
  },
  {
    method: 'GET',
    path: '/V1/guest-carts/:cartId/gift-message/:itemId',
    module: 'gift-message',
    contract: 'GuestItemRepositoryInterface::get',
    access: 'anon',
    params: [
      { name: 'cartId', in: 'path' },
      { name: 'itemId', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › GiftMessage',
    ],
  },
]
