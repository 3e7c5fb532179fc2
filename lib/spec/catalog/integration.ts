import type { EndpointRow } from '../types.ts'

/**
 * Spec § Endpoints › Endpoint lists by module › Integration (tokens): one row per method+path, as the spec gives it.
 */
export const rows: EndpointRow[] = [
  {
    method: 'POST',
    path: '/V1/integration/admin/token',
    module: 'integration',
    contract: 'AdminTokenServiceInterface::createAdminAccessToken',
    access: 'anon',
    purpose: 'admin credentials in, access token out',
    sections: ['Endpoints › Endpoint lists by module › Integration (tokens)', 'Authentication'],
  },
  {
    method: 'POST',
    path: '/V1/integration/customer/token',
    module: 'integration',
    contract: 'CustomerTokenServiceInterface::createCustomerAccessToken',
    access: 'anon',
    purpose: 'customer credentials in, access token out',
    sections: ['Endpoints › Endpoint lists by module › Integration (tokens)', 'Authentication'],
  },
  {
    method: 'POST',
    path: '/V1/integration/customer/revoke-customer-token',
    module: 'integration',
    family: 'integration',
    contract: 'CustomerTokenServiceInterface::revokeCustomerAccessToken',
    access: 'self',
    purpose: 'revokes by customer id',
    sections: ['Endpoints › Endpoint lists by module › Integration (tokens)', 'Authentication'],
  },
]
