import type { EndpointRow } from '../types.ts'

/**
 * Spec § Endpoints › Endpoint lists by module › Sales, SalesRule, Tax, TwoFactorAuth: one row per method+path, as the spec gives it.
 * Also the endpoints of the detail table / additional operations that no list names but that belong here: GET /V1/creditmemo/:id, GET /V1/creditmemo/:id/comments, POST /V1/creditmemo/:id/comments, POST /V1/creditmemo/:id/emails.
 */
export const rows: EndpointRow[] = [
  {
    method: 'POST',
    path: '/V1/creditmemo',
    module: 'sales-tax-tfa',
    family: 'sales',
    contract: 'CreditmemoRepositoryInterface::save',
    contractModule: 'Sales',
    access: 'admin',
    acl: 'Shop_Sales::sales_creditmemo',
    params: [
      { name: 'entity', in: 'body', type: 'CreditmemoInterface', required: true },
    ],
    returns: 'CreditmemoInterface',
    sections: [
      'Endpoints › Endpoint lists by module › Sales, SalesRule, Tax, TwoFactorAuth',
      'Endpoints › Endpoints with detailed shape',
    ],
  },
  {
    method: 'PUT',
    path: '/V1/creditmemo/:id',
    module: 'sales-tax-tfa',
    // The spec names no contract for this endpoint.
    access: 'admin',
    params: [
      { name: 'id', in: 'path' },
    ],
    purpose: 'cancel credit memo',
    sections: [
      'Endpoints › Endpoint lists by module › Sales, SalesRule, Tax, TwoFactorAuth',
      'States and transitions',
    ],
  },
  {
    method: 'PUT',
    path: '/V1/orders/:parent_id',
    module: 'sales-tax-tfa',
    family: 'sales',
    contract: 'OrderAddressRepositoryInterface::save',
    contractModule: 'Sales',
    access: 'admin',
    acl: 'Shop_Sales::create',
    params: [
      { name: 'parent_id', in: 'path' },
      { name: 'entity', in: 'body', type: 'OrderAddressInterface', required: true },
    ],
    returns: 'OrderAddressInterface',
    sections: [
      'Endpoints › Endpoint lists by module › Sales, SalesRule, Tax, TwoFactorAuth',
      'Endpoints › Endpoints with detailed shape',
    ],
  },
  {
    method: 'POST',
    path: '/V1/invoice/:invoiceId/refund',
    module: 'sales-tax-tfa',
    family: 'sales',
    contract: 'RefundInvoiceInterface::execute',
    contractModule: 'Sales',
    access: 'admin',
    acl: 'Shop_Sales::sales_invoice',
    params: [
      { name: 'invoiceId', in: 'path' },
      { name: 'appendComment', in: 'body', type: 'boolean' },
      { name: 'arguments', in: 'body' },
      { name: 'comment', in: 'body' },
      { name: 'isOnline', in: 'body', type: 'boolean' },
      { name: 'items', in: 'body', type: 'array' },
      { name: 'notify', in: 'body', type: 'boolean' },
    ],
    returns: 'int',
    sections: [
      'Endpoints › Endpoint lists by module › Sales, SalesRule, Tax, TwoFactorAuth',
      'Endpoints › Endpoints with detailed shape',
    ],
  },
  {
    method: 'POST',
    path: '/V1/order/:orderId/refund',
    module: 'sales-tax-tfa',
    family: 'sales',
    contract: 'RefundOrderInterface::execute',
    contractModule: 'Sales',
    access: 'admin',
    acl: 'Shop_Sales::creditmemo',
    params: [
      { name: 'orderId', in: 'path' },
      { name: 'appendComment', in: 'body', type: 'boolean' },
      { name: 'arguments', in: 'body' },
      { name: 'comment', in: 'body' },
      { name: 'items', in: 'body', type: 'array' },
      { name: 'notify', in: 'body', type: 'boolean' },
    ],
    returns: 'int',
    purpose: 'offline refund',
    sections: [
      'Endpoints › Endpoint lists by module › Sales, SalesRule, Tax, TwoFactorAuth',
      'Endpoints › Endpoints with detailed shape',
    ],
  },
  {
    method: 'GET',
    path: '/V1/shipment/:id/label',
    module: 'sales-tax-tfa',
    family: 'sales',
    contract: 'ShipmentManagementInterface::getLabel',
    contractModule: 'Sales',
    access: 'admin',
    acl: 'Shop_Sales::shipment',
    params: [
      { name: 'id', in: 'path', type: 'int', required: true, note: 'shipment label ID' },
    ],
    returns: 'string (shipment label)',
    sections: [
      'Endpoints › Endpoint lists by module › Sales, SalesRule, Tax, TwoFactorAuth',
      'Endpoints › Endpoints with detailed shape',
    ],
  },
  {
    method: 'PUT',
    path: '/V1/orders/create',
    module: 'sales-tax-tfa',
    contract: 'OrderRepositoryInterface::save',
    access: 'admin',
    sections: [
      'Endpoints › Endpoint lists by module › Sales, SalesRule, Tax, TwoFactorAuth',
    ],
  },
  {
    method: 'PUT',
    path: '/V1/coupons/:couponId',
    module: 'sales-tax-tfa',
    contract: 'CouponRepositoryInterface::save',
    access: 'admin',
    params: [
      { name: 'couponId', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › Sales, SalesRule, Tax, TwoFactorAuth',
    ],
  },
  {
    method: 'PUT',
    path: '/V1/salesRules/:ruleId',
    module: 'sales-tax-tfa',
    contract: 'RuleRepositoryInterface::save',
    access: 'admin',
    params: [
      { name: 'ruleId', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › Sales, SalesRule, Tax, TwoFactorAuth',
    ],
  },
  {
    method: 'PUT',
    path: '/V1/taxClasses/:classId',
    module: 'sales-tax-tfa',
    contract: 'TaxClassRepositoryInterface::save',
    access: 'admin',
    params: [
      { name: 'classId', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › Sales, SalesRule, Tax, TwoFactorAuth',
    ],
  },
  {
    method: 'PUT',
    path: '/V1/taxRates',
    module: 'sales-tax-tfa',
    contract: 'TaxRateRepositoryInterface::save',
    access: 'admin',
    purpose: 'create or update',
    sections: [
      'Endpoints › Endpoint lists by module › Sales, SalesRule, Tax, TwoFactorAuth',
    ],
  },
  {
    method: 'PUT',
    path: '/V1/taxRules',
    module: 'sales-tax-tfa',
    contract: 'TaxRuleRepositoryInterface::save',
    access: 'admin',
    sections: [
      'Endpoints › Endpoint lists by module › Sales, SalesRule, Tax, TwoFactorAuth',
    ],
  },
  {
    method: 'GET',
    path: '/V1/taxRates/:rateId',
    module: 'sales-tax-tfa',
    family: 'sales',
    contract: 'TaxRateRepositoryInterface::get',
    contractModule: 'Tax',
    access: 'admin',
    acl: 'Shop_Tax::manage_tax',
    params: [
      { name: 'rateId', in: 'path', type: 'int', required: true },
    ],
    returns: 'TaxRateInterface',
    sections: [
      'Endpoints › Endpoint lists by module › Sales, SalesRule, Tax, TwoFactorAuth',
      'Endpoints › Endpoints with detailed shape',
    ],
  },
  {
    method: 'PUT',
    path: '/V1/tfa/default-provider-code/:userId',
    module: 'sales-tax-tfa',
    contract: 'TfaInterface::setDefaultProviderCode',
    access: 'admin',
    params: [
      { name: 'userId', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › Sales, SalesRule, Tax, TwoFactorAuth',
    ],
  },
  {
    method: 'PUT',
    path: '/V1/tfa/user-providers/:userId',
    module: 'sales-tax-tfa',
    contract: 'TfaInterface::setProvidersCodes',
    access: 'admin',
    params: [
      { name: 'userId', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › Sales, SalesRule, Tax, TwoFactorAuth',
    ],
  },
  {
    method: 'GET',
    path: '/V1/creditmemo/:id',
    module: 'sales-tax-tfa',
    answer: 'creditmemo',
    family: 'sales',
    contract: 'CreditmemoRepositoryInterface::get',
    contractModule: 'Sales',
    access: 'admin',
    params: [
      { name: 'id', in: 'path' },
    ],
    purpose: 'loads a credit memo.',
    sections: [
      'Endpoints › Additional operations known only by path and purpose',
    ],
  },
  {
    method: 'GET',
    path: '/V1/creditmemo/:id/comments',
    module: 'sales-tax-tfa',
    contract: 'CreditmemoManagementInterface::getCommentsList',
    contractModule: 'Sales',
    access: 'admin',
    params: [
      { name: 'id', in: 'path' },
    ],
    sections: [
      'Endpoints › Additional operations known only by path and purpose',
    ],
  },
  {
    method: 'POST',
    path: '/V1/creditmemo/:id/comments',
    module: 'sales-tax-tfa',
    contract: 'CreditmemoCommentRepositoryInterface::save',
    contractModule: 'Sales',
    access: 'admin',
    params: [
      { name: 'id', in: 'path' },
    ],
    sections: [
      'Endpoints › Additional operations known only by path and purpose',
    ],
  },
  {
    method: 'POST',
    path: '/V1/creditmemo/:id/emails',
    module: 'sales-tax-tfa',
    contract: 'CreditmemoManagementInterface::notify',
    contractModule: 'Sales',
    access: 'admin',
    params: [
      { name: 'id', in: 'path' },
    ],
    purpose: 'emails the credit memo.',
    sections: [
      'Endpoints › Additional operations known only by path and purpose',
    ],
  },
]
