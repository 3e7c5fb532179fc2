/**
 * The spec's endpoints as data: one row per method+path the spec names (278), one file per module group.
 * The rows are plain data; `catalog.test.ts` checks them against the spec text and the observation matrix.
 */
import { endpointText, type EndpointId } from '../endpoint-id.ts'
import { MODULES } from '../modules.ts'
import { matchTemplate } from '../paths.ts'
import type { EndpointRow, HttpMethod } from '../types.ts'
import { defined } from '../../base/defined.ts'
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

/** All rows, modules in MODULES order. */
export const CATALOG: readonly EndpointRow[] = Object.freeze(MODULES.flatMap((m) => ROWS_BY_MODULE[m.id] ?? []))

/**
 * The ACL resources the detail table names (Authentication 2), in catalog order: the only ones a limited admin's role
 * can be judged by.
 */
export const ACL_RESOURCES: readonly string[] = Object.freeze([
  ...new Set(CATALOG.flatMap((r) => (r.acl !== undefined ? [r.acl] : []))),
])

// The catalog's ids, made here alone (the one cast to EndpointId): every row has one, and no two rows one id
// (catalog.test.ts checks there is no duplicate method and path).
const ID_OF = new Map<EndpointRow, EndpointId>(CATALOG.map((row) => [row, endpointText(row) as EndpointId]))
const BY_ID = new Map<string, EndpointRow>([...ID_OF].map(([row, id]) => [id, row]))
const POSITION = new Map<EndpointRow, number>(CATALOG.map((row, i) => [row, i]))

/**
 * The id of a catalog row (`GET /V1/creditmemo/:id`). Throws for any other row: an extension operation or a vendor's
 * endpoint has none.
 */
export function rowId(row: EndpointRow): EndpointId {
  const id = ID_OF.get(row)
  if (id === undefined) throw new Error(`${endpointText(row)} is not a row of the catalog: it has no endpoint id`)
  return id
}

/** The row an id names. */
export function rowOf(id: EndpointId): EndpointRow {
  return defined(BY_ID.get(id), `the catalog's row of ${id}`)
}

/**
 * The id of the row the suite's own data names, as the spec writes it (`'POST /V1/invoice/:invoiceId/refund'`):
 * a workflow step's, a valid request's, a rule's. Throws when the catalog has no such row — a mistake of that
 * data, found when its module loads.
 */
export function endpointId(text: `${HttpMethod} /V1/${string}`): EndpointId {
  const row = BY_ID.get(text)
  if (row === undefined) throw new Error(`the catalog has no row ${text}`)
  return rowId(row)
}

/** The row whose id a text is (a report's field, written from `rowId`); undefined when it names none. */
export function rowNamed(text: string): EndpointRow | undefined {
  return BY_ID.get(text)
}

/**
 * Where a method and path (a result's endpoint, a report's) stand in the catalog's order; undefined when they
 * name no catalog row (a workflow step on a set-up call, an extension operation).
 */
export function catalogPosition(endpoint: { readonly method: string; readonly path: string }): number | undefined {
  const row = findRow(endpoint.method, endpoint.path)
  return row === undefined ? undefined : POSITION.get(row)
}

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
  return BY_ID.get(endpointText({ method: method.toUpperCase(), path: p }))
}

/**
 * The row a concrete call names (`PUT /V1/creditmemo/12` → `PUT /V1/creditmemo/:id`), as a router picks it: of the
 * templates the path matches, the one with the most literal segments (`/customerGroups/default` over
 * `/customerGroups/:id`). Undefined for a call no row names (a platform call the spec does not list).
 */
export function rowOfCall(method: string, path: string): EndpointRow | undefined {
  const upper = method.toUpperCase()
  let best: { row: EndpointRow; literal: number } | undefined
  for (const row of CATALOG) {
    if (row.method !== upper) continue
    const m = matchTemplate(row.path, path)
    if (m !== undefined && (best === undefined || m.literalSegments > best.literal))
      best = { row, literal: m.literalSegments }
  }
  return best?.row
}
