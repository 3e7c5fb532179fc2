import { rowId } from '../../spec/catalog/index.ts'
import type { EndpointRow, FamilyName } from '../../spec/types.ts'
import { catalogFamily } from './catalog.ts'
import { integrationFamily } from './integration.ts'
import { quoteFamily } from './quote.ts'
import { salesFamily } from './sales.ts'
import type { Conventions, Family, Scenario } from './types.ts'

/** Every endpoint family, by the name a catalog row's `family` gives. */
export const FAMILIES: Readonly<Record<FamilyName, Family>> = {
  catalog: catalogFamily,
  quote: quoteFamily,
  sales: salesFamily,
  integration: integrationFamily,
}

/** The scenario of a valid call of the row's endpoint, from the family the row names. */
export function scenarioOf(row: EndpointRow): Scenario | undefined {
  return row.family === undefined ? undefined : FAMILIES[row.family].scenarios.find((s) => s.endpoint === rowId(row))
}

/** The platform's conventions for the row's endpoint (none for most). */
export function conventionsOf(row: EndpointRow): Conventions {
  return (row.family === undefined ? undefined : FAMILIES[row.family].conventions?.[rowId(row)]) ?? {}
}

export type { PreparedCall, Scenario } from './types.ts'
