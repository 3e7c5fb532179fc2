/**
 * The spec's endpoints as data: one row per method+path the spec names (278), one file per module group.
 * The rows are plain data; `catalog.test.ts` checks them against the spec text and the observation matrix.
 */
import { MODULES } from '../modules.ts'
import type { EndpointRow } from '../types.ts'
import { rows as analyticsAsyncBackend } from './analytics-async-backend.ts'
import { rows as bundle } from './bundle.ts'
import { rows as catalogAttributes } from './catalog-attributes.ts'
import { rows as catalogCategories } from './catalog-categories.ts'
import { rows as catalogInventoryAgreements } from './catalog-inventory-agreements.ts'
import { rows as catalogPrices } from './catalog-prices.ts'
import { rows as catalogProducts } from './catalog-products.ts'
import { rows as checkout } from './checkout.ts'
import { rows as cms } from './cms.ts'
import { rows as configurableProduct } from './configurable-product.ts'
import { rows as customer } from './customer.ts'
import { rows as directory } from './directory.ts'
import { rows as downloadable } from './downloadable.ts'
import { rows as eav } from './eav.ts'
import { rows as giftMessage } from './gift-message.ts'
import { rows as integration } from './integration.ts'
import { rows as inventoryApi } from './inventory-api.ts'
import { rows as inventoryOther } from './inventory-other.ts'
import { rows as paymentPartnerCore } from './payment-partner-core.ts'
import { rows as paymentServicesPartner } from './payment-services-partner.ts'
import { rows as quote } from './quote.ts'
import { rows as salesTaxTfa } from './sales-tax-tfa.ts'
import { rows as stockMedia } from './stock-media.ts'

/** Rows per module id. Every id of MODULES has an entry (checked below at load time). */
export const ROWS_BY_MODULE: Readonly<Record<string, readonly EndpointRow[]>> = {
  'payment-partner-core': paymentPartnerCore,
  'stock-media': stockMedia,
  'analytics-async-backend': analyticsAsyncBackend,
  bundle,
  'catalog-categories': catalogCategories,
  'catalog-products': catalogProducts,
  'catalog-attributes': catalogAttributes,
  'catalog-prices': catalogPrices,
  'catalog-inventory-agreements': catalogInventoryAgreements,
  checkout,
  cms,
  'configurable-product': configurableProduct,
  customer,
  directory,
  downloadable,
  eav,
  'gift-message': giftMessage,
  integration,
  'inventory-api': inventoryApi,
  'inventory-other': inventoryOther,
  'payment-services-partner': paymentServicesPartner,
  quote,
  'sales-tax-tfa': salesTaxTfa,
}

for (const m of MODULES) {
  if (!(m.id in ROWS_BY_MODULE)) throw new Error(`catalog: no rows file for module ${m.id}`)
}

/** `${method} ${path}`, e.g. `GET /V1/creditmemo/:id`. */
export function rowId(row: Pick<EndpointRow, 'method' | 'path'>): string {
  return `${row.method} ${row.path}`
}

/** All rows, modules in MODULES order. */
export const CATALOG: readonly EndpointRow[] = Object.freeze(MODULES.flatMap((m) => ROWS_BY_MODULE[m.id] ?? []))

/** The ACL resources the detail table names (Authentication 2), in catalog order: the only ones a limited admin's role can be judged by. */
export const ACL_RESOURCES: readonly string[] = Object.freeze([...new Set(CATALOG.flatMap((r) => (r.acl !== undefined ? [r.acl] : [])))])

const BY_ID = new Map<string, EndpointRow>()
for (const row of CATALOG) if (!BY_ID.has(rowId(row))) BY_ID.set(rowId(row), row)

/** The rows of one module group; empty for an unknown id. */
export function rowsOfModule(moduleId: string): readonly EndpointRow[] {
  return ROWS_BY_MODULE[moduleId] ?? []
}

/**
 * The row for a method and a path template. The method is matched case-insensitively and a trailing slash
 * on the path is ignored (the spec writes some paths with one).
 */
export function findRow(method: string, path: string): EndpointRow | undefined {
  const p = path.length > 1 ? path.replace(/\/+$/, '') : path
  return BY_ID.get(`${method.toUpperCase()} ${p}`)
}
