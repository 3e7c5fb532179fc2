/**
 * The batch price operations `batch-partial` judges: their paths, what each row does, and the kinds of
 * invalid item the spec names for each family.
 */
import type { BatchItem } from '../batch-attribution.ts'

export type Family = 'base' | 'cost' | 'special' | 'tier'

export const PATHS = {
  base: { update: '/V1/products/base-prices', info: '/V1/products/base-prices-information' },
  cost: { update: '/V1/products/cost', info: '/V1/products/cost-information', delete: '/V1/products/cost-delete' },
  special: { update: '/V1/products/special-price', info: '/V1/products/special-price-information', delete: '/V1/products/special-price-delete' },
  tier: { update: '/V1/products/tier-prices', info: '/V1/products/tier-prices-information', delete: '/V1/products/tier-prices-delete' },
} as const

export type Operation =
  /** A batch of price items: update, delete or replace. */
  | { kind: 'items'; key: string; family: Family; op: 'update' | 'delete' | 'replace' }
  /** `{skus}` → the stored prices. */
  | { kind: 'information'; key: string; family: Family }
  /** `{skus}` → true. */
  | { kind: 'cost-delete'; key: string }

export const OPERATIONS: Readonly<Record<string, Operation>> = {
  'POST /V1/products/base-prices': { kind: 'items', key: 'base-prices', family: 'base', op: 'update' },
  'POST /V1/products/base-prices-information': { kind: 'information', key: 'base-prices-information', family: 'base' },
  'POST /V1/products/cost': { kind: 'items', key: 'cost', family: 'cost', op: 'update' },
  'POST /V1/products/cost-delete': { kind: 'cost-delete', key: 'cost-delete' },
  'POST /V1/products/cost-information': { kind: 'information', key: 'cost-information', family: 'cost' },
  'POST /V1/products/special-price': { kind: 'items', key: 'special-price', family: 'special', op: 'update' },
  'POST /V1/products/special-price-delete': { kind: 'items', key: 'special-price-delete', family: 'special', op: 'delete' },
  'POST /V1/products/special-price-information': { kind: 'information', key: 'special-price-information', family: 'special' },
  'POST /V1/products/tier-prices': { kind: 'items', key: 'tier-prices', family: 'tier', op: 'update' },
  'POST /V1/products/tier-prices-delete': { kind: 'items', key: 'tier-prices-delete', family: 'tier', op: 'delete' },
  'POST /V1/products/tier-prices-information': { kind: 'information', key: 'tier-prices-information', family: 'tier' },
  'PUT /V1/products/tier-prices': { kind: 'items', key: 'tier-prices-replace', family: 'tier', op: 'replace' },
}

/** The row ids this check judges. */
export const BATCH_ROWS: readonly string[] = Object.keys(OPERATIONS)

/**
 * The kinds of invalid item the spec names for each update. The deletes and the replace name none (the spec
 * says only "Failed items are excluded from the update, delete or replace"), so they get their update's kinds.
 * Each is invalid under every reading of the spec's words: "invalid … dates" is a date that is no date at all,
 * never a period whose start is after its end (a reading the spec allows, and a 2.4.7 shop stores such a
 * period: observations/special-price-reversed-dates).
 */
export const INVALID_KINDS: Readonly<Record<Family, readonly InvalidKind[]>> = {
  base: ['unknown sku', 'invalid price', 'unknown store id'],
  cost: ['unknown sku', 'invalid cost', 'unknown store id'],
  special: ['unknown sku', 'invalid price', 'unknown store id', 'malformed date'],
  tier: ['unknown sku', 'invalid price', 'invalid price type', 'unknown website id', 'unknown customer group', 'invalid quantity'],
}

export type InvalidKind =
  | 'unknown sku'
  | 'invalid price'
  | 'invalid cost'
  | 'unknown store id'
  | 'malformed date'
  | 'invalid price type'
  | 'unknown website id'
  | 'unknown customer group'
  | 'invalid quantity'

export type Price = Record<string, string | number>

/** An item of a judged call, with what makes it invalid (absent: valid). */
export interface PlannedItem extends BatchItem {
  kind?: string
}
