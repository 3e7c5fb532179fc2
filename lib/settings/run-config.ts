/** What a run is configured with, once every setting is read and checked (config.ts `loadConfig`). */
import type { TargetSchemaSetting } from '../schema/setting.ts'

export interface Credentials {
  username: string
  password: string
}

/**
 * A token the user already has — an integration's access token, used as a bearer token — given instead of a
 * password (`SHOP_ADMIN_TOKEN`, …): for a shop whose admins sign in with two-factor authentication, which refuses
 * every password at the token endpoint. The run never asks for a token for it, and cannot renew it.
 */
export interface GivenToken {
  token: string
  /** The variable it came from (`SHOP_ADMIN_TOKEN`): what messages name, never the token. */
  setting: string
}

/**
 * How a caller signs in: with credentials (the token asked for at the start, renewed if it expires) or a token given.
 */
export type SignIn = Credentials | GivenToken

export function isGivenToken(signIn: SignIn | undefined): signIn is GivenToken {
  return signIn !== undefined && 'token' in signIn
}

/** The acl check's admin, whose role has only `resources` of the detail table's ACL resources (possibly none). */
export type LimitedAdmin = SignIn & {
  resources: string[]
}

export interface PathAlias {
  /** Spec path prefix, e.g. `/V1/stockmedia`. */
  from: string
  /** The target's own prefix, e.g. `/V1/adobestock`. */
  to: string
}

export interface RunConfig {
  /** Absent: run against the bundled reference target. */
  baseUrl?: string
  storeCode: string
  /** The second store code every endpoint is also called under (the spec: a store code can replace `default`). */
  secondStoreCode: string
  admin?: SignIn
  /**
   * What implementation the target runs, and its release (`--target-name`, `--target-version`): every report names it.
   */
  targetName?: string
  targetVersion?: string
  /** Absent: the suite registers its own customer. `username` is the email; a token given is the user's customer's. */
  customer?: SignIn
  /** Absent: the acl check is reported not configured. */
  limitedAdmin?: LimitedAdmin
  /** Selected module ids; empty means all. */
  modules: string[]
  /** Selected check kinds; empty means all. */
  checks: string[]
  concurrency: number
  /** `--max-rps`: at most this many requests start per second. */
  maxRps?: number
  /**
   * `adaptive`: the bound follows the shop's pace (lib/shop/pace.ts); `fixed`: `concurrency` in flight whenever there
   * are.
   */
  pace: 'adaptive' | 'fixed'
  /** Every request's deadline is at least this (lib/shop/deadlines.ts). */
  timeoutMs: number
  /** A kind of call's deadline grows with the shop's slowest answers up to this (never below timeoutMs). */
  maxTimeoutMs: number
  reportDir: string
  /** Only token calls and GET requests leave the machine. */
  readOnly: boolean
  /**
   * Every exchange the run sent written as HAR 1.2 beside the report (`evidence.har`); off: `--no-evidence`,
   * `SHOP_EVIDENCE=0`.
   */
  evidence: boolean
  /** The whole run is cut short (cleaned up, partial report) after this long. */
  runTimeoutMs: number
  /** A file of result ids expected to fail (each with a reason): only new failures fail the run. */
  baseline?: string
  /** A baseline entry that now passes does not fail the run. */
  allowStale: boolean
  /**
   * Progress on stderr: `failures` — each failure as it comes and a line per module (a terminal, or `--progress`);
   * `modules` — a line per module and at least one a minute (CI=true: a CI job that prints nothing for minutes looks
   * hung); `off` — `--quiet`.
   */
  progress: 'failures' | 'modules' | 'off'
  /** Print the requests the run would send, send none. */
  dryRun: boolean
  /** TLS certificates of the target are not verified (must be asked for explicitly; the report shows it). */
  insecure: boolean
  /** This machine's part of a run split across CI machines (`i/n`, vitest's own sharding by suite file). */
  shard?: { index: number; count: number }
  pathAliases: PathAlias[]
  /** Where the shop's published schema is read from (lib/schema/setting.ts). */
  targetSchema: TargetSchemaSetting
  /** `gate`: a failing extension or vendor check makes the exit status 1; `report-only`: it is reported only. */
  extensions: 'gate' | 'report-only'
  /** Send an extension operation's write to the callers its declared class admits too (it may change data). */
  extensionsProbeWrites: boolean
  /**
   * The vendor's config file (`--config`, `SHOP_CONFIG`), as given; absent: `shop-conformance.config.ts` of the working
   * directory, if there.
   */
  configFile?: string
  /** Seed of the data builders: the same seed gives the same data (apart from the run id). */
  seed: number
  /** Whether the seed was chosen at random (it is printed either way). */
  seedGiven: boolean
  purchase: PurchaseSettings
  /** Unknown `SHOP_*` variables of the environment and `.env`, ignored: named in a warning at start. */
  warnings: string[]
}

/** What the deep checks and workflows build on; a staging shop may name its own instead. */
export interface PurchaseSettings {
  /** An existing product to use instead of creating one. */
  sku?: string
  paymentMethod: string
  shipping: ShippingMethod
  /** Payment method of the order the invoice refund is made on: one the target can refund per invoice. */
  invoiceRefundPaymentMethod: string
  /** Shipping method of a zero-total order (the `free` payment method needs a zero total). */
  freeShipping: ShippingMethod
}

export interface ShippingMethod {
  carrier: string
  method: string
}
