import type { EndpointRow } from '../types.ts'

/**
 * Spec § Endpoints › Endpoint lists by module › Downloadable: one row per method+path, as the spec gives it.
 */
export const rows: EndpointRow[] = [
  {
    method: 'POST',
    path: '/V1/products/:sku/downloadable-links',
    module: 'downloadable',
    contract: 'LinkRepositoryInterface::save',
    access: 'admin',
    params: [{ name: 'sku', in: 'path' }],
    purpose: 'link type and its resources cannot be changed',
    sections: ['Endpoints › Endpoint lists by module › Downloadable'],
  },
  {
    method: 'PUT',
    path: '/V1/products/:sku/downloadable-links/:id',
    module: 'downloadable',
    contract: 'LinkRepositoryInterface::save',
    access: 'admin',
    params: [
      { name: 'sku', in: 'path' },
      { name: 'id', in: 'path' },
    ],
    purpose: 'link type and its resources cannot be changed',
    sections: ['Endpoints › Endpoint lists by module › Downloadable'],
  },
  {
    method: 'POST',
    path: '/V1/products/:sku/downloadable-links/samples',
    module: 'downloadable',
    contract: 'SampleRepositoryInterface::save',
    access: 'admin',
    params: [{ name: 'sku', in: 'path' }],
    sections: ['Endpoints › Endpoint lists by module › Downloadable'],
  },
  {
    method: 'PUT',
    path: '/V1/products/:sku/downloadable-links/samples/:id',
    module: 'downloadable',
    contract: 'SampleRepositoryInterface::save',
    access: 'admin',
    params: [
      { name: 'sku', in: 'path' },
      { name: 'id', in: 'path' },
    ],
    sections: ['Endpoints › Endpoint lists by module › Downloadable'],
  },
  {
    method: 'GET',
    path: '/V1/products/:sku/downloadable-links',
    module: 'downloadable',
    contract: 'LinkRepositoryInterface::getList',
    access: 'admin',
    params: [{ name: 'sku', in: 'path' }],
    sections: ['Endpoints › Endpoint lists by module › Downloadable'],
  },
  {
    method: 'GET',
    path: '/V1/products/:sku/downloadable-links/samples',
    module: 'downloadable',
    contract: 'SampleRepositoryInterface::getList',
    access: 'admin',
    params: [{ name: 'sku', in: 'path' }],
    sections: ['Endpoints › Endpoint lists by module › Downloadable'],
  },
]
