/**
 * Extending the suite by hand: the one module a vendor's or QA team's `shop-conformance.config.ts` imports
 * (`import { defineConfig } from 'shop-conformance/lib/extend/index.ts'`). It declares extra endpoint rows and
 * custom checks with the built-in kinds' signature — `run(row, session)` resolving to a verdict — and, optionally,
 * each endpoint's valid call. Their results carry `origin: 'vendor'` and `extension: true`, are reported under
 * their own module, and never count in the spec's certification; under `--extensions gate` (the default) their
 * failures fail the run. README: "Extending the suite".
 */
import type { Session } from '../shop/session.ts'
import type { Verdict } from '../results/verdict.ts'
import type { AccessClass, EndpointRow, HttpMethod } from '../spec/types.ts'

export type { Session } from '../shop/session.ts'
export type { Exchange } from '../results/exchange.ts'
export type { Verdict } from '../results/verdict.ts'
export type { AccessClass, HttpMethod } from '../spec/types.ts'

/** One endpoint of the vendor's own: not one of the spec's. */
export interface VendorEndpoint {
  method: HttpMethod
  /** `/V1/...`, parameters as `:name`, below `/rest/{store}` like the spec's paths. */
  path: string
  /** Who may call it, in the spec's three classes. */
  access: AccessClass
  /** The module it is reported under: an id of the vendor's own (`vendor-warehouses`), never one of the spec's. */
  module: string
  /** One line for the reader of the report. */
  note?: string
}

/** A valid call of a vendor endpoint, for its checks to send (`row.scenario`). */
export interface VendorScenario {
  body?: unknown
  /** Already-encoded query string without `?`. */
  query?: string
}

/** A vendor endpoint as its checks get it. */
export interface VendorRow extends EndpointRow {
  origin: 'vendor'
  note?: string
  scenario?: VendorScenario
}

/**
 * A custom check, with the built-in check kinds' signature. It may send any request through `session`
 * (`session.send`, `session.tokenFor('admin')`), and must return the exchanges its verdict rests on; it judges
 * only its vendor's rows and never changes the spec's verdict.
 */
export interface VendorCheck {
  /** Its name in reports and result ids (`GET /V1/… › <name>`): not a built-in kind's name. */
  name: string
  /** One line: the rule it enforces. */
  description: string
  /** Where its rule comes from (a vendor document's section), shown with each result. */
  spec?: readonly string[]
  /** `true`, or why it does not apply to the row; default: it applies to every row of the config. */
  appliesTo?(row: VendorRow): true | string
  /**
   * Resolves to a verdict of status `passed`, `failed` or `skipped`. A check that throws (or resolves to anything
   * else) is reported as its own error — status `error`, never the shop's failure — under `--extensions` as a
   * failure would be.
   */
  run(row: VendorRow, session: Session): Promise<Verdict>
}

export interface VendorConfig {
  endpoints: readonly VendorEndpoint[]
  checks: readonly VendorCheck[]
  /** Valid calls, keyed `METHOD /V1/path` of a declared endpoint. */
  scenarios?: Readonly<Record<string, VendorScenario>>
}

/** The config file's default export: returns it as given, typed. */
export function defineConfig(config: VendorConfig): VendorConfig {
  return config
}
