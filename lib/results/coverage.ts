/**
 * What traffic judged passively covered (report.json `passive`, `judge --har FILE --passive` and `proxy`): how many
 * exchanges, which of the spec's endpoints they touched, how often, and as which callers — the scope a passive
 * report states in every format, since it judges only what the traffic shows.
 */

/** One spec endpoint the traffic touched. */
export interface CoverageRow {
  /** The catalog row's id, `METHOD /V1/template`. */
  endpoint: string
  module: string
  /** Its access class in the spec. */
  access: string
  exchanges: number
  /** Exchanges by the caller's class (`unknown`: nothing in the capture showed it). */
  callers: Record<string, number>
  /** The store codes they were sent under. */
  stores: string[]
}

export interface PassiveCoverage {
  /** Every exchange of the capture. */
  exchanges: number
  /** Of them, those at an endpoint of the spec (below `/rest/{store}`). */
  atEndpoints: number
  /** The others: pages, assets, the shop's own operations, paths no endpoint has. */
  outside: number
  /** Exchanges at an endpoint whose caller's class is unknown: no access is judged from them. */
  unknownCallers: number
  endpoints: CoverageRow[]
  /** One line every format shows. */
  text: string
}
