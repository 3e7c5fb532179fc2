/**
 * The batch price operations `batch-partial` judges, read from the rows' `batch` (lib/spec/catalog/): the
 * kinds of call, the paths of each price family's calls, and the kinds of invalid item its update's words
 * name. (Which kind one row's call is, `operationOf`, is the check's own: batch-partial.ts.)
 */
import { CATALOG, rowId } from '../../spec/catalog/index.ts'
import type { EndpointId } from '../../spec/endpoint-id.ts'
import type { BatchOperation, EndpointRow, InvalidKind, PriceFamily } from '../../spec/types.ts'
import type { BatchItem } from '../batch-attribution.ts'

export type { InvalidKind, PriceFamily } from '../../spec/types.ts'

export type Operation =
  /** A batch of price items: update, delete or replace. */
  | { kind: 'items'; key: string; family: PriceFamily; op: 'update' | 'delete' | 'replace' }
  /** `{skus}` → the stored prices. */
  | { kind: 'information'; key: string; family: PriceFamily }
  /** `{skus}` → true. */
  | { kind: 'cost-delete'; key: string }

const BATCH = CATALOG.filter((row): row is EndpointRow & { batch: BatchOperation } => row.batch !== undefined)

/** The row ids this check judges. */
export const BATCH_ROWS: readonly EndpointId[] = BATCH.map(rowId)

/** The path of a price family's call of one kind (its update, information or delete row). */
function pathOf(prices: PriceFamily, op: 'update' | 'information' | 'delete' | 'cost-delete'): string {
  const row = BATCH.find((r) => r.batch.prices === prices && r.batch.op === op)
  if (row === undefined) throw new Error(`catalog: no ${op} row of the ${prices} prices`)
  return row.path
}

/** Where each price family is updated, read and deleted: the paths of its rows. */
export const PATHS = {
  base: { update: pathOf('base', 'update'), info: pathOf('base', 'information') },
  cost: {
    update: pathOf('cost', 'update'),
    info: pathOf('cost', 'information'),
    delete: pathOf('cost', 'cost-delete'),
  },
  special: {
    update: pathOf('special', 'update'),
    info: pathOf('special', 'information'),
    delete: pathOf('special', 'delete'),
  },
  tier: { update: pathOf('tier', 'update'), info: pathOf('tier', 'information'), delete: pathOf('tier', 'delete') },
} as const

/**
 * The kinds of invalid item of each family: its update row's (from the update's words). The deletes and the
 * replace name none (the spec says only "Failed items are excluded from the update, delete or replace"), so
 * they get their update's kinds. Each is invalid under every reading of the spec's words: "invalid … dates" is
 * a date that is no date at all, never a period whose start is after its end (a reading the spec allows, and a
 * 2.4.7 shop stores such a period: observations/special-price-reversed-dates).
 */
export function invalidKindsOf(prices: PriceFamily): readonly InvalidKind[] {
  return BATCH.find((r) => r.batch.prices === prices && r.batch.op === 'update')?.batch.invalid ?? []
}

export type Price = Record<string, string | number>

/** An item of a judged call, with what makes it invalid (absent: valid). */
export interface PlannedItem extends BatchItem {
  kind?: string
}
