import type { EndpointRow } from '../types.ts'

/**
 * Spec § Endpoints › Endpoint lists by module › Customer: one row per method+path, as the spec gives it.
 */
export const rows: EndpointRow[] = [
  {
    method: 'POST',
    path: '/V1/customerGroups',
    module: 'customer',
    contract: 'GroupRepositoryInterface::save',
    access: 'admin',
    sections: [
      'Endpoints › Endpoint lists by module › Customer',
    ],
  },
  {
    method: 'PUT',
    path: '/V1/customerGroups/:id',
    module: 'customer',
    contract: 'GroupRepositoryInterface::save',
    access: 'admin',
    params: [
      { name: 'id', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › Customer',
    ],
  },
  {
    method: 'PUT',
    path: '/V1/customerGroups/default/:id',
    module: 'customer',
    contract: 'CustomerGroupConfigInterface::setDefaultCustomerGroup',
    access: 'admin',
    params: [
      { name: 'id', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › Customer',
    ],
  },
  {
    method: 'GET',
    path: '/V1/customerGroups/:id',
    module: 'customer',
    contract: 'GroupRepositoryInterface::getById',
    access: 'admin',
    params: [
      { name: 'id', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › Customer',
    ],
  },
  {
    method: 'GET',
    path: '/V1/customerGroups/:id/permissions',
    module: 'customer',
    contract: 'GroupManagementInterface::isReadonly',
    access: 'admin',
    params: [
      { name: 'id', in: 'path' },
    ],
    purpose: 'whether the group can be deleted',
    sections: [
      'Endpoints › Endpoint lists by module › Customer',
    ],
  },
  {
    method: 'GET',
    path: '/V1/customerGroups/default',
    module: 'customer',
    family: 'catalog',
    contract: 'GroupManagementInterface::getDefaultGroup',
    contractModule: 'Customer',
    access: 'admin',
    acl: 'Shop_Customer::group',
    params: [
      { name: 'storeId', in: 'query', type: 'int', default: 'null' },
    ],
    returns: 'GroupInterface',
    sections: [
      'Endpoints › Endpoint lists by module › Customer',
      'Endpoints › Endpoints with detailed shape',
    ],
  },
  {
    method: 'GET',
    path: '/V1/customerGroups/default/:storeId',
    module: 'customer',
    contract: 'GroupManagementInterface::getDefaultGroup',
    access: 'admin',
    params: [
      { name: 'storeId', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › Customer',
    ],
  },
  {
    method: 'GET',
    path: '/V1/customerGroups/search',
    module: 'customer',
    contract: 'GroupRepositoryInterface::getList',
    access: 'admin',
    sections: [
      'Endpoints › Endpoint lists by module › Customer',
    ],
  },
  {
    method: 'POST',
    path: '/V1/customers',
    module: 'customer',
    contract: 'AccountManagementInterface::createAccount',
    access: 'anon',
    purpose: 'also sends an email',
    sections: [
      'Endpoints › Endpoint lists by module › Customer',
    ],
  },
  {
    method: 'POST',
    path: '/V1/customers/activate',
    module: 'customer',
    contract: 'AccountManagementInterface::activate',
    access: 'anon',
    purpose: 'key from the confirmation email',
    sections: [
      'Endpoints › Endpoint lists by module › Customer',
    ],
  },
  {
    method: 'POST',
    path: '/V1/customers/confirm',
    module: 'customer',
    contract: 'AccountManagementInterface::resendConfirmation',
    access: 'admin',
    sections: [
      'Endpoints › Endpoint lists by module › Customer',
    ],
  },
  {
    method: 'POST',
    path: '/V1/customers/isEmailAvailable',
    module: 'customer',
    contract: 'AccountManagementInterface::isEmailAvailable',
    access: 'anon',
    purpose: 'for a given website',
    sections: [
      'Endpoints › Endpoint lists by module › Customer',
    ],
  },
  {
    method: 'POST',
    path: '/V1/customers/resetPassword',
    module: 'customer',
    contract: 'AccountManagementInterface::resetPassword',
    access: 'anon',
    sections: [
      'Endpoints › Endpoint lists by module › Customer',
    ],
  },
  {
    method: 'PUT',
    path: '/V1/customers/:customerId',
    module: 'customer',
    contract: 'CustomerRepositoryInterface::save',
    access: 'admin',
    params: [
      { name: 'customerId', in: 'path' },
    ],
    purpose: 'create or update',
    sections: [
      'Endpoints › Endpoint lists by module › Customer',
    ],
  },
  {
    method: 'PUT',
    path: '/V1/customers/:email/activate',
    module: 'customer',
    contract: 'AccountManagementInterface::activate',
    access: 'admin',
    params: [
      { name: 'email', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › Customer',
    ],
  },
  {
    method: 'PUT',
    path: '/V1/customers/me',
    module: 'customer',
    contract: 'CustomerRepositoryInterface::save',
    access: 'self',
    sections: [
      'Endpoints › Endpoint lists by module › Customer',
      'Endpoints › Endpoint lists by module › Sales, SalesRule, Tax, TwoFactorAuth',
    ],
  },
  {
    method: 'PUT',
    path: '/V1/customers/me/activate',
    module: 'customer',
    contract: 'AccountManagementInterface::activateById',
    access: 'self',
    sections: [
      'Endpoints › Endpoint lists by module › Customer',
    ],
  },
  {
    method: 'PUT',
    path: '/V1/customers/me/password',
    module: 'customer',
    contract: 'AccountManagementInterface::changePasswordById',
    access: 'self',
    sections: [
      'Endpoints › Endpoint lists by module › Customer',
    ],
  },
  {
    method: 'PUT',
    path: '/V1/customers/password',
    module: 'customer',
    contract: 'AccountManagementInterface::initiatePasswordReset',
    access: 'anon',
    purpose: 'sends a reset-link email',
    sections: [
      'Endpoints › Endpoint lists by module › Customer',
    ],
  },
  {
    method: 'PUT',
    path: '/V1/customers/validate',
    module: 'customer',
    contract: 'AccountManagementInterface::validate',
    access: 'admin',
    sections: [
      'Endpoints › Endpoint lists by module › Customer',
    ],
  },
  {
    method: 'GET',
    path: '/V1/customers/:customerId',
    module: 'customer',
    contract: 'CustomerRepositoryInterface::getById',
    access: 'admin',
    params: [
      { name: 'customerId', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › Customer',
    ],
  },
  {
    method: 'GET',
    path: '/V1/customers/:customerId/billingAddress',
    module: 'customer',
    contract: 'AccountManagementInterface::getDefaultBillingAddress',
    access: 'admin',
    params: [
      { name: 'customerId', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › Customer',
    ],
  },
  {
    method: 'GET',
    path: '/V1/customers/:customerId/shippingAddress',
    module: 'customer',
    contract: 'AccountManagementInterface::getDefaultShippingAddress',
    access: 'admin',
    params: [
      { name: 'customerId', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › Customer',
    ],
  },
  {
    method: 'GET',
    path: '/V1/customers/:customerId/confirm',
    module: 'customer',
    contract: 'AccountManagementInterface::getConfirmationStatus',
    access: 'admin',
    params: [
      { name: 'customerId', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › Customer',
    ],
  },
  {
    method: 'GET',
    path: '/V1/customers/:customerId/password/resetLinkToken/:resetPasswordLinkToken',
    module: 'customer',
    contract: 'AccountManagementInterface::validateResetPasswordLinkToken',
    access: 'anon',
    params: [
      { name: 'customerId', in: 'path' },
      { name: 'resetPasswordLinkToken', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › Customer',
    ],
  },
  {
    method: 'GET',
    path: '/V1/customers/:customerId/permissions/readonly',
    module: 'customer',
    contract: 'AccountManagementInterface::isReadonly',
    access: 'admin',
    params: [
      { name: 'customerId', in: 'path' },
    ],
    purpose: 'whether the customer can be deleted',
    sections: [
      'Endpoints › Endpoint lists by module › Customer',
    ],
  },
  {
    method: 'GET',
    path: '/V1/customers/addresses/:addressId',
    module: 'customer',
    contract: 'AddressRepositoryInterface::getById',
    access: 'admin',
    params: [
      { name: 'addressId', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › Customer',
    ],
  },
  {
    method: 'GET',
    path: '/V1/customers/me',
    module: 'customer',
    contract: 'CustomerRepositoryInterface::getById',
    access: 'self',
    sections: [
      'Endpoints › Endpoint lists by module › Customer',
    ],
  },
  {
    method: 'GET',
    path: '/V1/customers/me/billingAddress',
    module: 'customer',
    // The spec names no contract for this endpoint.
    access: 'self',
    purpose: 'default address getters',
    sections: [
      'Endpoints › Endpoint lists by module › Customer',
    ],
  },
  {
    method: 'GET',
    path: '/V1/customers/me/shippingAddress',
    module: 'customer',
    // The spec names no contract for this endpoint.
    access: 'self',
    purpose: 'default address getters',
    sections: [
      'Endpoints › Endpoint lists by module › Customer',
    ],
  },
  {
    method: 'GET',
    path: '/V1/customers/search',
    module: 'customer',
    contract: 'CustomerRepositoryInterface::getList',
    access: 'admin',
    sections: [
      'Endpoints › Endpoint lists by module › Customer',
    ],
  },
  {
    method: 'GET',
    path: '/V1/attributeMetadata/customer',
    module: 'customer',
    contract: 'CustomerMetadataInterface::getAllAttributesMetadata',
    access: 'admin',
    sections: [
      'Endpoints › Endpoint lists by module › Customer',
    ],
  },
  {
    method: 'GET',
    path: '/V1/attributeMetadata/customer/attribute/:attributeCode',
    module: 'customer',
    contract: 'CustomerMetadataInterface::getAttributeMetadata',
    access: 'admin',
    params: [
      { name: 'attributeCode', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › Customer',
    ],
  },
  {
    method: 'GET',
    path: '/V1/attributeMetadata/customer/custom',
    module: 'customer',
    contract: 'CustomerMetadataInterface::getCustomAttributesMetadata',
    access: 'admin',
    sections: [
      'Endpoints › Endpoint lists by module › Customer',
    ],
  },
  {
    method: 'GET',
    path: '/V1/attributeMetadata/customer/form/:formCode',
    module: 'customer',
    contract: 'CustomerMetadataInterface::getAttributes',
    access: 'admin',
    params: [
      { name: 'formCode', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › Customer',
    ],
  },
  {
    method: 'GET',
    path: '/V1/attributeMetadata/customerAddress',
    module: 'customer',
    contract: 'AddressMetadataInterface::getAllAttributesMetadata',
    access: 'admin',
    sections: [
      'Endpoints › Endpoint lists by module › Customer',
    ],
  },
  {
    method: 'GET',
    path: '/V1/attributeMetadata/customerAddress/attribute/:attributeCode',
    module: 'customer',
    contract: 'AddressMetadataInterface::getAttributeMetadata',
    access: 'admin',
    params: [
      { name: 'attributeCode', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › Customer',
    ],
  },
  {
    method: 'GET',
    path: '/V1/attributeMetadata/customerAddress/custom',
    module: 'customer',
    contract: 'AddressMetadataInterface::getCustomAttributesMetadata',
    access: 'admin',
    sections: [
      'Endpoints › Endpoint lists by module › Customer',
    ],
  },
  {
    method: 'GET',
    path: '/V1/attributeMetadata/customerAddress/form/:formCode',
    module: 'customer',
    contract: 'AddressMetadataInterface::getAttributes',
    access: 'admin',
    params: [
      { name: 'formCode', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › Customer',
    ],
  },
]
