import type { EndpointRow } from '../types.ts'

/**
 * Spec § Endpoints › Endpoint lists by module › PaymentPartnerCore: one row per method+path, as the spec gives it.
 */
export const rows: EndpointRow[] = [
  {
    method: 'POST',
    path: '/V1/cardvault/mine/payment/vault',
    module: 'payment-partner-core',
    contract: 'CustomerAddPaymentToVaultInterface::execute',
    access: 'self',
    sections: ['Endpoints › Endpoint lists by module › PaymentPartnerCore'],
  },
  {
    method: 'POST',
    path: '/V1/paypartner/lineItems',
    module: 'payment-partner-core',
    contract: 'GetLineItemsAndAmountBreakDownInterface::execute',
    access: 'anon',
    sections: ['Endpoints › Endpoint lists by module › PaymentPartnerCore'],
  },
  {
    method: 'POST',
    path: '/V1/paypartner/oneClick',
    module: 'payment-partner-core',
    contract: 'PartnerOneClickInterface::execute',
    access: 'anon',
    sections: ['Endpoints › Endpoint lists by module › PaymentPartnerCore'],
  },
  {
    method: 'POST',
    path: '/V1/paypartner/validatePhoneNumber',
    module: 'payment-partner-core',
    contract: 'PhoneNumberServiceInterface::execute',
    access: 'anon',
    sections: ['Endpoints › Endpoint lists by module › PaymentPartnerCore'],
  },
  {
    method: 'GET',
    path: '/V1/mobilewallet/auth',
    module: 'payment-partner-core',
    contract: 'AuthInterface::get',
    access: 'anon',
    sections: ['Endpoints › Endpoint lists by module › PaymentPartnerCore'],
  },
]
