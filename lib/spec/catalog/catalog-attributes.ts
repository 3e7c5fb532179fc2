import type { EndpointRow } from '../types.ts'

/**
 * Spec § Endpoints › Endpoint lists by module › Catalog: attribute sets, groups, attributes: one row per method+path, as the spec gives it.
 */
export const rows: EndpointRow[] = [
  {
    method: 'POST',
    path: '/V1/products/attribute-sets',
    module: 'catalog-attributes',
    contract: 'AttributeSetManagementInterface::create',
    access: 'admin',
    sections: [
      'Endpoints › Endpoint lists by module › Catalog: attribute sets, groups, attributes',
    ],
  },
  {
    method: 'POST',
    path: '/V1/products/attribute-sets/attributes',
    module: 'catalog-attributes',
    contract: 'ProductAttributeManagementInterface::assign',
    access: 'admin',
    sections: [
      'Endpoints › Endpoint lists by module › Catalog: attribute sets, groups, attributes',
    ],
  },
  {
    method: 'POST',
    path: '/V1/products/attribute-sets/groups',
    module: 'catalog-attributes',
    contract: 'ProductAttributeGroupRepositoryInterface::save',
    access: 'admin',
    sections: [
      'Endpoints › Endpoint lists by module › Catalog: attribute sets, groups, attributes',
    ],
  },
  {
    method: 'PUT',
    path: '/V1/products/attribute-sets/:attributeSetId',
    module: 'catalog-attributes',
    contract: 'AttributeSetRepositoryInterface::save',
    access: 'admin',
    params: [
      { name: 'attributeSetId', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › Catalog: attribute sets, groups, attributes',
    ],
  },
  {
    method: 'PUT',
    path: '/V1/products/attribute-sets/:attributeSetId/groups',
    module: 'catalog-attributes',
    contract: 'ProductAttributeGroupRepositoryInterface::save',
    access: 'admin',
    params: [
      { name: 'attributeSetId', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › Catalog: attribute sets, groups, attributes',
    ],
  },
  {
    method: 'GET',
    path: '/V1/products/attribute-sets/:attributeSetId',
    module: 'catalog-attributes',
    contract: 'AttributeSetRepositoryInterface::get',
    access: 'admin',
    params: [
      { name: 'attributeSetId', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › Catalog: attribute sets, groups, attributes',
    ],
  },
  {
    method: 'GET',
    path: '/V1/products/attribute-sets/:attributeSetId/attributes',
    module: 'catalog-attributes',
    contract: 'ProductAttributeManagementInterface::getAttributes',
    access: 'admin',
    params: [
      { name: 'attributeSetId', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › Catalog: attribute sets, groups, attributes',
    ],
  },
  {
    method: 'GET',
    path: '/V1/products/attribute-sets/groups/list',
    module: 'catalog-attributes',
    contract: 'ProductAttributeGroupRepositoryInterface::getList',
    access: 'admin',
    sections: [
      'Endpoints › Endpoint lists by module › Catalog: attribute sets, groups, attributes',
    ],
  },
  {
    method: 'GET',
    path: '/V1/products/attribute-sets/sets/list',
    module: 'catalog-attributes',
    contract: 'AttributeSetRepositoryInterface::getList',
    access: 'admin',
    sections: [
      'Endpoints › Endpoint lists by module › Catalog: attribute sets, groups, attributes',
    ],
  },
  {
    method: 'POST',
    path: '/V1/products/attributes',
    module: 'catalog-attributes',
    contract: 'ProductAttributeRepositoryInterface::save',
    access: 'admin',
    sections: [
      'Endpoints › Endpoint lists by module › Catalog: attribute sets, groups, attributes',
    ],
  },
  {
    method: 'POST',
    path: '/V1/products/attributes/:attributeCode/options',
    module: 'catalog-attributes',
    contract: 'ProductAttributeOptionManagementInterface::add',
    access: 'admin',
    params: [
      { name: 'attributeCode', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › Catalog: attribute sets, groups, attributes',
    ],
  },
  {
    method: 'PUT',
    path: '/V1/products/attributes/:attributeCode',
    module: 'catalog-attributes',
    contract: 'ProductAttributeRepositoryInterface::save',
    access: 'admin',
    params: [
      { name: 'attributeCode', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › Catalog: attribute sets, groups, attributes',
    ],
  },
  {
    method: 'PUT',
    path: '/V1/products/attributes/:attributeCode/is-filterable/:isFilterable',
    module: 'catalog-attributes',
    contract: 'ProductAttributeIsFilterableManagementInterface::set',
    access: 'admin',
    params: [
      { name: 'attributeCode', in: 'path' },
      { name: 'isFilterable', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › Catalog: attribute sets, groups, attributes',
    ],
  },
  {
    method: 'PUT',
    path: '/V1/products/attributes/:attributeCode/options/:optionId',
    module: 'catalog-attributes',
    contract: 'ProductAttributeOptionUpdateInterface::update',
    access: 'admin',
    params: [
      { name: 'attributeCode', in: 'path' },
      { name: 'optionId', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › Catalog: attribute sets, groups, attributes',
    ],
  },
  {
    method: 'GET',
    path: '/V1/products/attributes',
    module: 'catalog-attributes',
    contract: 'ProductAttributeRepositoryInterface::getList',
    access: 'admin',
    sections: [
      'Endpoints › Endpoint lists by module › Catalog: attribute sets, groups, attributes',
    ],
  },
  {
    method: 'GET',
    path: '/V1/products/attributes/:attributeCode',
    module: 'catalog-attributes',
    contract: 'ProductAttributeRepositoryInterface::get',
    access: 'admin',
    params: [
      { name: 'attributeCode', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › Catalog: attribute sets, groups, attributes',
    ],
  },
  {
    method: 'GET',
    path: '/V1/products/attributes/:attributeCode/is-filterable',
    module: 'catalog-attributes',
    contract: 'ProductAttributeIsFilterableManagementInterface::get',
    access: 'admin',
    params: [
      { name: 'attributeCode', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › Catalog: attribute sets, groups, attributes',
    ],
  },
  {
    method: 'GET',
    path: '/V1/products/attributes/:attributeCode/options',
    module: 'catalog-attributes',
    contract: 'ProductAttributeOptionManagementInterface::getItems',
    access: 'admin',
    params: [
      { name: 'attributeCode', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › Catalog: attribute sets, groups, attributes',
    ],
  },
  {
    method: 'GET',
    path: '/V1/products/attributes/types',
    module: 'catalog-attributes',
    contract: 'ProductAttributeTypesListInterface::getItems',
    access: 'admin',
    sections: [
      'Endpoints › Endpoint lists by module › Catalog: attribute sets, groups, attributes',
    ],
  },
]
