import type { EndpointRow } from '../types.ts'

/**
 * Spec § Endpoints › Endpoint lists by module › Eav: one row per method+path, as the spec gives it. Also the endpoint
 * of the detail table / additional operations that no list names but that belong here: DELETE
 * /V1/eav/attribute-sets/:attributeSetId.
 */
export const rows: EndpointRow[] = [
  {
    method: 'POST',
    path: '/V1/eav/attribute-sets',
    module: 'eav',
    family: 'catalog',
    contract: 'AttributeSetManagementInterface::create',
    contractModule: 'Eav',
    access: 'admin',
    acl: 'Shop_Catalog::sets',
    params: [
      { name: 'attributeSet', in: 'body', type: 'object' },
      { name: 'entityTypeCode', in: 'body', type: 'string' },
      { name: 'skeletonId', in: 'body', type: 'number' },
    ],
    returns: 'AttributeSetInterface',
    sections: ['Endpoints › Endpoint lists by module › Eav', 'Endpoints › Endpoints with detailed shape'],
  },
  {
    method: 'PUT',
    path: '/V1/eav/attribute-sets/:attributeSetId',
    module: 'eav',
    family: 'catalog',
    contract: 'AttributeSetRepositoryInterface::save',
    contractModule: 'Eav',
    access: 'admin',
    acl: 'Shop_Catalog::sets',
    params: [
      { name: 'attributeSetId', in: 'path' },
      { name: 'attributeSet', in: 'body', type: 'AttributeSetInterface', required: true },
    ],
    returns: 'AttributeSetInterface (saved set)',
    sections: ['Endpoints › Endpoint lists by module › Eav', 'Endpoints › Endpoints with detailed shape'],
  },
  {
    method: 'GET',
    path: '/V1/eav/attribute-sets/:attributeSetId',
    module: 'eav',
    // The spec names no contract for this endpoint.
    access: 'admin',
    params: [{ name: 'attributeSetId', in: 'path' }],
    sections: ['Endpoints › Endpoint lists by module › Eav'],
  },
  {
    method: 'GET',
    path: '/V1/eav/attribute-sets/list',
    module: 'eav',
    contract: 'AttributeSetRepositoryInterface::getList',
    access: 'admin',
    sections: ['Endpoints › Endpoint lists by module › Eav'],
  },
  {
    method: 'DELETE',
    path: '/V1/eav/attribute-sets/:attributeSetId',
    module: 'eav',
    contract: 'AttributeSetRepositoryInterface::deleteById',
    contractModule: 'Eav',
    access: 'admin',
    params: [{ name: 'attributeSetId', in: 'path' }],
    sections: ['Endpoints › Additional operations known only by path and purpose'],
  },
]
