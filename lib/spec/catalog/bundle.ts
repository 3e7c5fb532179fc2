import type { EndpointRow } from '../types.ts'

/**
 * Spec § Endpoints › Endpoint lists by module › Bundle: one row per method+path, as the spec gives it.
 */
export const rows: EndpointRow[] = [
  {
    method: 'POST',
    path: '/V1/bundle-products/:sku/links/:optionId',
    module: 'bundle',
    contract: 'ProductLinkManagementInterface::addChildByProductSku',
    access: 'admin',
    params: [
      { name: 'sku', in: 'path' },
      { name: 'optionId', in: 'path' },
    ],
    sections: ['Endpoints › Endpoint lists by module › Bundle'],
  },
  {
    method: 'POST',
    path: '/V1/bundle-products/options/add',
    module: 'bundle',
    contract: 'ProductOptionManagementInterface::save',
    access: 'admin',
    sections: ['Endpoints › Endpoint lists by module › Bundle'],
  },
  {
    method: 'PUT',
    path: '/V1/bundle-products/:sku/links/:id',
    module: 'bundle',
    contract: 'ProductLinkManagementInterface::saveChild',
    access: 'admin',
    params: [
      { name: 'sku', in: 'path' },
      { name: 'id', in: 'path' },
    ],
    sections: ['Endpoints › Endpoint lists by module › Bundle'],
  },
  {
    method: 'PUT',
    path: '/V1/bundle-products/options/:optionId',
    module: 'bundle',
    contract: 'ProductOptionManagementInterface::save',
    access: 'admin',
    params: [{ name: 'optionId', in: 'path' }],
    sections: ['Endpoints › Endpoint lists by module › Bundle'],
  },
  {
    method: 'GET',
    path: '/V1/bundle-products/:productSku/children',
    module: 'bundle',
    contract: 'ProductLinkManagementInterface::getChildren',
    access: 'admin',
    params: [{ name: 'productSku', in: 'path' }],
    sections: ['Endpoints › Endpoint lists by module › Bundle'],
  },
  {
    method: 'GET',
    path: '/V1/bundle-products/:sku/options/:optionId',
    module: 'bundle',
    contract: 'ProductOptionRepositoryInterface::get',
    access: 'admin',
    params: [
      { name: 'sku', in: 'path' },
      { name: 'optionId', in: 'path' },
    ],
    sections: ['Endpoints › Endpoint lists by module › Bundle'],
  },
  {
    method: 'GET',
    path: '/V1/bundle-products/:sku/options/all',
    module: 'bundle',
    contract: 'ProductOptionRepositoryInterface::getList',
    access: 'admin',
    params: [{ name: 'sku', in: 'path' }],
    sections: ['Endpoints › Endpoint lists by module › Bundle'],
  },
  {
    method: 'GET',
    path: '/V1/bundle-products/options/types',
    module: 'bundle',
    contract: 'ProductOptionTypeListInterface::getItems',
    access: 'admin',
    sections: ['Endpoints › Endpoint lists by module › Bundle'],
  },
]
