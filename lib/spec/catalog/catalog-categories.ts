import type { EndpointRow } from '../types.ts'

/**
 * Spec § Endpoints › Endpoint lists by module › Catalog: categories: one row per method+path, as the spec gives it.
 * Also the endpoint of the detail table / additional operations that no list names but that belong here: GET /V1/categories/:categoryId.
 */
export const rows: EndpointRow[] = [
  {
    method: 'POST',
    path: '/V1/categories',
    module: 'catalog-categories',
    contract: 'CategoryRepositoryInterface::save',
    access: 'admin',
    sections: [
      'Endpoints › Endpoint lists by module › Catalog: categories',
    ],
  },
  {
    method: 'POST',
    path: '/V1/categories/:categoryId/products',
    module: 'catalog-categories',
    contract: 'CategoryLinkRepositoryInterface::save',
    access: 'admin',
    params: [
      { name: 'categoryId', in: 'path' },
    ],
    purpose: 'assign product to category',
    sections: [
      'Endpoints › Endpoint lists by module › Catalog: categories',
    ],
  },
  {
    method: 'PUT',
    path: '/V1/categories/:categoryId/move',
    module: 'catalog-categories',
    contract: 'CategoryManagementInterface::move',
    access: 'admin',
    params: [
      { name: 'categoryId', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › Catalog: categories',
    ],
  },
  {
    method: 'PUT',
    path: '/V1/categories/:categoryId/products',
    module: 'catalog-categories',
    contract: 'CategoryLinkRepositoryInterface::save',
    access: 'admin',
    params: [
      { name: 'categoryId', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › Catalog: categories',
    ],
  },
  {
    method: 'PUT',
    path: '/V1/categories/:id',
    module: 'catalog-categories',
    contract: 'CategoryRepositoryInterface::save',
    access: 'admin',
    params: [
      { name: 'id', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › Catalog: categories',
    ],
  },
  {
    method: 'GET',
    path: '/V1/categories',
    module: 'catalog-categories',
    contract: 'CategoryManagementInterface::getTree',
    access: 'admin',
    sections: [
      'Endpoints › Endpoint lists by module › Catalog: categories',
    ],
  },
  {
    method: 'GET',
    path: '/V1/categories/:categoryId/products',
    module: 'catalog-categories',
    contract: 'CategoryLinkManagementInterface::getAssignedProducts',
    access: 'admin',
    params: [
      { name: 'categoryId', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › Catalog: categories',
    ],
  },
  {
    method: 'GET',
    path: '/V1/categories/attributes',
    module: 'catalog-categories',
    contract: 'CategoryAttributeRepositoryInterface::getList',
    access: 'admin',
    sections: [
      'Endpoints › Endpoint lists by module › Catalog: categories',
    ],
  },
  {
    method: 'GET',
    path: '/V1/categories/attributes/:attributeCode',
    module: 'catalog-categories',
    contract: 'CategoryAttributeRepositoryInterface::get',
    access: 'admin',
    params: [
      { name: 'attributeCode', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › Catalog: categories',
    ],
  },
  {
    method: 'GET',
    path: '/V1/categories/attributes/:attributeCode/options',
    module: 'catalog-categories',
    contract: 'CategoryAttributeOptionManagementInterface::getItems',
    access: 'admin',
    params: [
      { name: 'attributeCode', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › Catalog: categories',
    ],
  },
  {
    method: 'GET',
    path: '/V1/categories/list',
    module: 'catalog-categories',
    contract: 'CategoryListInterface::getList',
    access: 'admin',
    sections: [
      'Endpoints › Endpoint lists by module › Catalog: categories',
    ],
  },
  {
    method: 'GET',
    path: '/V1/categories/:categoryId',
    module: 'catalog-categories',
    family: 'catalog',
    contract: 'CategoryRepositoryInterface::get',
    contractModule: 'Catalog',
    access: 'admin',
    acl: 'Shop_Catalog::categories',
    params: [
      { name: 'categoryId', in: 'path', type: 'int', required: true },
      { name: 'storeId', in: 'query', type: 'int', default: 'null' },
    ],
    returns: 'CategoryInterface',
    sections: [
      'Endpoints › Endpoints with detailed shape',
    ],
  },
]
