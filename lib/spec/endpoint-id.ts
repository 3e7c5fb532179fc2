/**
 * An endpoint's identity, as the suite carries it: the id of one catalog row. The catalog alone makes one
 * (lib/spec/catalog/index.ts: `rowId(row)`, `endpointId('GET /V1/x')`) and reads one back (`rowOf(id)`, the row —
 * never undefined, as no id names anything else). Its text is `METHOD /V1/template`, what result ids and messages
 * say; nothing takes it apart: what a reader needs of the endpoint is on its row.
 *
 * A shop's extension operations and a vendor's endpoints have no id of this type: they are no catalog row, and
 * exist only in a run (the shop's schema, a config). They are carried as their plan rows (method and path).
 */

declare const catalogRow: unique symbol

/** The id of a catalog row (`GET /V1/creditmemo/:id`). Only the catalog casts to it (a test greps the source). */
export type EndpointId = string & { readonly [catalogRow]: true }

/**
 * How a message, a key or a format names a method and a path — a template or a concrete path, of a catalog row
 * or not (`GET /V1/orders/12`): the one place that writes the two together.
 */
export function endpointText(endpoint: { readonly method: string; readonly path: string }): string {
  return `${endpoint.method} ${endpoint.path}`
}
