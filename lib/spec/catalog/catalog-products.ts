import type { EndpointRow } from '../types.ts'

/**
 * Spec § Endpoints › Endpoint lists by module › Catalog: products, links, media, options: one row per method+path, as the spec gives it.
 */
export const rows: EndpointRow[] = [
  {
    method: 'POST',
    path: '/V1/products',
    module: 'catalog-products',
    contract: 'ProductRepositoryInterface::save',
    access: 'admin',
    sections: [
      'Endpoints › Endpoint lists by module › Catalog: products, links, media, options',
    ],
  },
  {
    method: 'PUT',
    path: '/V1/products/:sku',
    module: 'catalog-products',
    contract: 'ProductRepositoryInterface::save',
    access: 'admin',
    params: [
      { name: 'sku', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › Catalog: products, links, media, options',
    ],
  },
  {
    method: 'GET',
    path: '/V1/products',
    module: 'catalog-products',
    contract: 'ProductRepositoryInterface::getList',
    access: 'admin',
    sections: [
      'Endpoints › Endpoint lists by module › Catalog: products, links, media, options',
    ],
  },
  {
    method: 'GET',
    path: '/V1/products/:sku',
    module: 'catalog-products',
    contract: 'ProductRepositoryInterface::get',
    access: 'admin',
    params: [
      { name: 'sku', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › Catalog: products, links, media, options',
    ],
  },
  {
    method: 'GET',
    path: '/V1/products-render-info',
    module: 'catalog-products',
    contract: 'ProductRenderListInterface::getList',
    access: 'anon',
    sections: [
      'Endpoints › Endpoint lists by module › Catalog: products, links, media, options',
    ],
  },
  {
    method: 'POST',
    path: '/V1/products/:sku/links',
    module: 'catalog-products',
    contract: 'ProductLinkManagementInterface::setProductLinks',
    access: 'admin',
    params: [
      { name: 'sku', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › Catalog: products, links, media, options',
    ],
  },
  {
    method: 'PUT',
    path: '/V1/products/:sku/links',
    module: 'catalog-products',
    contract: 'ProductLinkRepositoryInterface::save',
    access: 'admin',
    params: [
      { name: 'sku', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › Catalog: products, links, media, options',
    ],
  },
  {
    method: 'GET',
    path: '/V1/products/:sku/links/:type',
    module: 'catalog-products',
    contract: 'ProductLinkManagementInterface::getLinkedItemsByType',
    access: 'admin',
    params: [
      { name: 'sku', in: 'path' },
      { name: 'type', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › Catalog: products, links, media, options',
    ],
  },
  {
    method: 'GET',
    path: '/V1/products/links/:type/attributes',
    module: 'catalog-products',
    contract: 'ProductLinkTypeListInterface::getItemAttributes',
    access: 'admin',
    params: [
      { name: 'type', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › Catalog: products, links, media, options',
    ],
  },
  {
    method: 'GET',
    path: '/V1/products/links/types',
    module: 'catalog-products',
    contract: 'ProductLinkTypeListInterface::getItems',
    access: 'admin',
    sections: [
      'Endpoints › Endpoint lists by module › Catalog: products, links, media, options',
    ],
  },
  {
    method: 'POST',
    path: '/V1/products/:sku/media',
    module: 'catalog-products',
    contract: 'ProductAttributeMediaGalleryManagementInterface::create',
    access: 'admin',
    params: [
      { name: 'sku', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › Catalog: products, links, media, options',
    ],
  },
  {
    method: 'PUT',
    path: '/V1/products/:sku/media/:entryId',
    module: 'catalog-products',
    contract: 'ProductAttributeMediaGalleryManagementInterface::update',
    access: 'admin',
    params: [
      { name: 'sku', in: 'path' },
      { name: 'entryId', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › Catalog: products, links, media, options',
    ],
  },
  {
    method: 'GET',
    path: '/V1/products/:sku/media',
    module: 'catalog-products',
    contract: 'ProductAttributeMediaGalleryManagementInterface::getList',
    access: 'admin',
    params: [
      { name: 'sku', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › Catalog: products, links, media, options',
    ],
  },
  {
    method: 'GET',
    path: '/V1/products/:sku/media/:entryId',
    module: 'catalog-products',
    contract: 'ProductAttributeMediaGalleryManagementInterface::get',
    access: 'admin',
    params: [
      { name: 'sku', in: 'path' },
      { name: 'entryId', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › Catalog: products, links, media, options',
    ],
  },
  {
    method: 'GET',
    path: '/V1/products/media/types/:attributeSetName',
    module: 'catalog-products',
    contract: 'ProductMediaAttributeManagementInterface::getList',
    access: 'admin',
    params: [
      { name: 'attributeSetName', in: 'path' },
    ],
    purpose: 'media_image attributes of the set',
    sections: [
      'Endpoints › Endpoint lists by module › Catalog: products, links, media, options',
    ],
  },
  {
    method: 'POST',
    path: '/V1/products/:sku/websites',
    module: 'catalog-products',
    contract: 'ProductWebsiteLinkRepositoryInterface::save',
    access: 'admin',
    params: [
      { name: 'sku', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › Catalog: products, links, media, options',
    ],
  },
  {
    method: 'PUT',
    path: '/V1/products/:sku/websites',
    module: 'catalog-products',
    contract: 'ProductWebsiteLinkRepositoryInterface::save',
    access: 'admin',
    params: [
      { name: 'sku', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › Catalog: products, links, media, options',
    ],
  },
  {
    method: 'POST',
    path: '/V1/products/options',
    module: 'catalog-products',
    contract: 'ProductCustomOptionRepositoryInterface::save',
    access: 'admin',
    sections: [
      'Endpoints › Endpoint lists by module › Catalog: products, links, media, options',
    ],
  },
  {
    method: 'PUT',
    path: '/V1/products/options/:optionId',
    module: 'catalog-products',
    contract: 'ProductCustomOptionRepositoryInterface::save',
    access: 'admin',
    params: [
      { name: 'optionId', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › Catalog: products, links, media, options',
    ],
  },
  {
    method: 'GET',
    path: '/V1/products/:sku/options',
    module: 'catalog-products',
    contract: 'ProductCustomOptionRepositoryInterface::getList',
    access: 'admin',
    params: [
      { name: 'sku', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › Catalog: products, links, media, options',
    ],
  },
  {
    method: 'GET',
    path: '/V1/products/:sku/options/:optionId',
    module: 'catalog-products',
    contract: 'ProductCustomOptionRepositoryInterface::get',
    access: 'admin',
    params: [
      { name: 'sku', in: 'path' },
      { name: 'optionId', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › Catalog: products, links, media, options',
    ],
  },
  {
    method: 'GET',
    path: '/V1/products/options/types',
    module: 'catalog-products',
    contract: 'ProductCustomOptionTypeListInterface::getItems',
    access: 'admin',
    sections: [
      'Endpoints › Endpoint lists by module › Catalog: products, links, media, options',
    ],
  },
  {
    method: 'GET',
    path: '/V1/products/types',
    module: 'catalog-products',
    contract: 'ProductTypeListInterface::getProductTypes',
    access: 'admin',
    sections: [
      'Endpoints › Endpoint lists by module › Catalog: products, links, media, options',
    ],
  },
]
