import type { EndpointRow } from '../types.ts'

/**
 * Spec § Endpoints › Endpoint lists by module › Directory: one row per method+path, as the spec gives it.
 */
export const rows: EndpointRow[] = [
  {
    method: 'GET',
    path: '/V1/directory/countries',
    module: 'directory',
    contract: 'CountryInformationAcquirerInterface::getCountriesInfo',
    access: 'anon',
    sections: ['Endpoints › Endpoint lists by module › Directory'],
  },
  {
    method: 'GET',
    path: '/V1/directory/countries/:countryId',
    module: 'directory',
    contract: 'CountryInformationAcquirerInterface::getCountryInfo',
    access: 'anon',
    params: [{ name: 'countryId', in: 'path' }],
    sections: ['Endpoints › Endpoint lists by module › Directory'],
  },
  {
    method: 'GET',
    path: '/V1/directory/currency',
    module: 'directory',
    contract: 'CurrencyInformationAcquirerInterface::getCurrencyInfo',
    access: 'anon',
    sections: ['Endpoints › Endpoint lists by module › Directory'],
  },
]
