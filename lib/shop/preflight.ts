import { CATALOG, endpointId } from '../spec/catalog/index.ts'
import type { EndpointRow } from '../spec/types.ts'
import { calibrate, CalibrationError } from './calibration.ts'
import type { Exchange } from '../results/exchange.ts'
import { TargetClient } from './client.ts'
import type { RateShare } from './pace.ts'
import { isGivenToken, type SignIn } from '../settings/config.ts'
import { Secrets } from './secrets.ts'
import type { SessionSeed } from './session.ts'
import { CONFIGURED_CUSTOMER, requestToken, TokenError, type RegisteredCustomer, type Registrar } from './tokens.ts'
import { SECOND_STORE_SETTING, STORE_SETTING, unknownStoreCode } from './store-codes.ts'
import { endpointText } from '../spec/endpoint-id.ts'
import type { DeadlinesUsed } from '../results/deadlines.ts'
import {
  type CallersTokens,
  type GivenCaller,
  givenTokens,
  type PreflightConfig,
  sessionSeed,
} from './preflight-seed.ts'

/** The target cannot be tested as configured; the message is the one line the user sees. */
export class PreflightError extends Error {}

export interface PreflightResult {
  seed: SessionSeed
  secrets: Secrets
  /** Customers this run registered (for the report and for cleanup). */
  registeredCustomers: { role: string; email: string; id?: number | string }[]
  exchanges: Exchange[]
  /** The longest deadline each kind of call was given in the preflight (the report states the run's). */
  deadlinesUsed: DeadlinesUsed
  /**
   * `signed in with the tokens given: admin (SHOP_ADMIN_TOKEN), …` when a caller's token was given rather than
   * asked for with a password: the line the run prints (and notes in its report) so the user sees which it used.
   */
  signedIn?: string
}

/** How many endpoints of a class must all refuse a token before the run stops on it. */
const SANITY_ENDPOINTS = 3

interface PreflightOptions {
  /** Makes the customers it registers (set-up: the run's cleanup ledger records them, lib/setup/registrar.ts). */
  registrar: Registrar
  ledgerFile?: string
  /**
   * Told the admin token as soon as it is known — a preflight that fails after its first write (a customer
   * registered, then a timeout) still leaves the run a token to clean up with.
   */
  onAdminToken?: (token: string) => void
  /** The run's one `--max-rps` share (lib/shop/pace.ts), which its token calls take first. */
  rate?: RateShare
}

/** What every step of the preflight shares: its client and secrets, the run's settings, and its customers' record. */
interface Preflight {
  client: TargetClient
  secrets: Secrets
  config: PreflightConfig
  runId: string
  options: PreflightOptions
  /** Records a customer this run registered, under its role. */
  note: (c: RegisteredCustomer, role: string) => void
}

/**
 * Before any check: an admin token, then a customer token (registering customers of the run's own when none
 * is configured), the target's no-route answers, and proof that each token is accepted somewhere.
 */
export async function preflight(
  config: PreflightConfig,
  runId: string,
  options: PreflightOptions,
): Promise<PreflightResult> {
  const secrets = new Secrets()
  const client = preflightClient(config, secrets, options.rate)
  const registeredCustomers: PreflightResult['registeredCustomers'] = []
  const note = (c: RegisteredCustomer, role: string) => {
    registeredCustomers.push({ role, email: c.username, ...(c.id !== undefined ? { id: c.id } : {}) })
  }
  const p: Preflight = { client, secrets, config, runId, options, note }
  const anonPath = anonymousReadPath()
  try {
    // The admin token first: unreachable targets and refused credentials are told before anything is created.
    const admin = await adminTokenOf(p, anonPath)
    options.onAdminToken?.(admin)
    const adminRows = firstRows(
      (r) => r.access === 'admin' && r.method === 'GET' && !r.path.includes(':'),
      SANITY_ENDPOINTS,
    )
    // A token given was never shown to the shop, as a password is by the token call: proven before anything is made.
    const givenAdminCheck = isGivenToken(config.admin)
      ? await requireAccepted(client, config.storeCode, admin, 'admin', adminRows, config.admin)
      : undefined
    // A store code the target does not know would fail every endpoint under it: a setting to fix, told now.
    const unknown = await unknownStoreCode(client, anonPath, storesOf(config), admin)
    if (unknown !== undefined) throw new PreflightError(unknown)
    const tokens = await callersTokens(p, admin, givenAdminCheck, adminRows)
    const [customerCheckPath, calibration] = await settledAll([
      customerCheck(p, tokens.customer),
      calibrate(client, config.storeCode, admin, anonPath, config.readOnly ? ['GET'] : undefined),
    ])
    const given = givenTokens(config)
    return {
      seed: sessionSeed(p, admin, tokens, customerCheckPath, calibration, given),
      secrets,
      registeredCustomers,
      exchanges: calibration.exchanges,
      deadlinesUsed: client.deadlinesUsed,
      ...(given.length > 0 ? { signedIn: signedInLine(given) } : {}),
    }
  } catch (err) {
    if (err instanceof TokenError || err instanceof CalibrationError) throw new PreflightError(err.message)
    throw err
  } finally {
    await client.close()
  }
}

/** The preflight's own client, with the run's settings and its `--max-rps` share. */
function preflightClient(config: PreflightConfig, secrets: Secrets, rate: RateShare | undefined): TargetClient {
  return new TargetClient({
    baseUrl: config.baseUrl,
    timeoutMs: config.timeoutMs,
    maxTimeoutMs: config.maxTimeoutMs,
    concurrency: config.concurrency,
    secrets,
    insecure: config.insecure,
    ...(rate !== undefined ? { rate } : {}),
  })
}

/** The store codes the run tests under, each with the setting that names it. */
function storesOf(config: PreflightConfig): { code: string; setting: string }[] {
  return [
    { code: config.storeCode, setting: STORE_SETTING },
    { code: config.secondStoreCode, setting: SECOND_STORE_SETTING },
  ]
}

/** The admin's token; a token call refused for another reason than the credentials may be an unknown --store's. */
async function adminTokenOf(p: Preflight, anonPath: string): Promise<string> {
  const { client, secrets, config } = p
  return tokenOf(client, secrets, 'admin', config.admin, config.storeCode).catch(async (err: unknown) => {
    // Refused for another reason than the credentials: an unknown --store is refused everywhere, the token call first.
    if (err instanceof TokenError && !/^(target unreachable|admin credentials refused)/.test(err.message)) {
      const unknown = await unknownStoreCode(client, anonPath, storesOf(config).slice(0, 1))
      if (unknown !== undefined) throw new PreflightError(unknown)
    }
    throw err
  })
}

/**
 * Every caller's token, asked for together as none depends on another: the main customer's, the run's own
 * customers', the admin's proven accepted (unless a token given was proven already), and the limited admin's.
 */
async function callersTokens(
  p: Preflight,
  admin: string,
  givenAdminCheck: string | undefined,
  adminRows: EndpointRow[],
): Promise<CallersTokens> {
  const { client, secrets, config, runId, note, options } = p
  const store = config.storeCode
  // A write is never sent with the token of a customer the user configured (that account is theirs): where the
  // main customer is the user's, the writes a customer makes go out as a customer of the run's own.
  const usersCustomer = config.customer !== undefined
  const [
    { credentials: customerCredentials, token: customer },
    disposableCustomer,
    ownCustomer,
    adminCheckPath,
    limitedAdmin,
  ] = await settledAll([
    mainCustomer(p, admin),
    config.readOnly
      ? undefined
      : disposableCustomerToken(client, secrets, note, options.registrar, {
          runId,
          role: 'disposable',
          store,
          adminToken: admin,
        }),
    config.readOnly || !usersCustomer
      ? undefined
      : disposableCustomerToken(client, secrets, note, options.registrar, {
          runId,
          role: 'own',
          store,
          adminToken: admin,
        }),
    givenAdminCheck ?? requireAccepted(client, store, admin, 'admin', adminRows, config.admin),
    limitedAdminToken(client, secrets, config.limitedAdmin, store),
  ])
  return { customerCredentials, customer, disposableCustomer, ownCustomer, adminCheckPath, limitedAdmin }
}

/** The main customer: the token given, or the configured customer's, or one of the run's own registered now. */
async function mainCustomer(
  p: Preflight,
  admin: string,
): Promise<{ credentials?: RegisteredCustomer; token?: string }> {
  const { client, secrets, config } = p
  const store = config.storeCode
  // A token given is the user's customer's: the run knows no password of it, and never renews it.
  if (isGivenToken(config.customer))
    return { token: await tokenOf(client, secrets, 'customer', config.customer, store) }
  let credentials: RegisteredCustomer | undefined = config.customer
  // Read-only mode registers nobody: without configured credentials there is no customer token.
  if (credentials === undefined && !config.readOnly) {
    credentials = await p.options.registrar.registerCustomer(client, secrets, {
      runId: p.runId,
      role: 'main',
      store,
      adminToken: admin,
    })
    p.note(credentials, 'main')
  }
  if (credentials === undefined) return {}
  // Labelled apart from the run's own customers' (issue 31.15): a report shows that the user's account was only read.
  const who = credentials === config.customer ? CONFIGURED_CUSTOMER : 'customer'
  return { credentials, token: await requestToken(client, secrets, 'customer', credentials, store, who) }
}

/** The path where the customer's token was proven accepted (none without a customer token). */
function customerCheck(p: Preflight, customer: string | undefined): Promise<string | undefined> | undefined {
  if (customer === undefined) return undefined
  return requireAccepted(
    p.client,
    p.config.storeCode,
    customer,
    'customer',
    firstRows((r) => r.access === 'self' && r.method === 'GET' && !r.path.includes(':'), SANITY_ENDPOINTS),
    p.config.customer,
  )
}

/** The token of a caller: the one the user gave (a secret from now on), or one asked for with its credentials. */
async function tokenOf(
  client: TargetClient,
  secrets: Secrets,
  kind: 'admin' | 'customer',
  signIn: SignIn,
  store: string,
  who: string = kind,
): Promise<string> {
  if (!isGivenToken(signIn)) return requestToken(client, secrets, kind, signIn, store, who)
  secrets.add(signIn.token, `${who} token given as ${signIn.setting}`)
  return signIn.token
}

/**
 * The preflight's one line on the tokens it was given (never a token): which, and what a run without passwords cannot
 * do.
 */
function signedInLine(given: readonly [GivenCaller, string][]): string {
  const names: Record<GivenCaller, string> = { admin: 'admin', customer: 'customer', limitedAdmin: 'limited admin' }
  const admin = given.some(([caller]) => caller === 'admin')
  return `signed in with the tokens given: ${given.map(([caller, setting]) => `${names[caller]} (${setting})`).join(', ')}; a token given is never renewed (refused mid-run, it stays refused)${admin ? `; the tokens check of ${ADMIN_TOKEN_ENDPOINT} is not judged without the admin's password` : ''}`
}

const ADMIN_TOKEN_ENDPOINT = endpointId('POST /V1/integration/admin/token')

/** Promise.all that lets every call finish before it throws the first failure: none is left running unwatched. */
async function settledAll<T extends readonly unknown[]>(
  promises: readonly [...{ [K in keyof T]: Promise<T[K]> | T[K] }],
): Promise<T> {
  // Promise.resolve as allSettled itself applies it: a value given for a call not made (undefined) settles as itself.
  const settled = await Promise.allSettled(promises.map((p) => Promise.resolve(p)))
  const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected')
  if (failed !== undefined) throw failed.reason
  return settled.map((r) => (r as PromiseFulfilledResult<unknown>).value) as unknown as T
}

/**
 * A customer of the run's own (one whose tokens the checks may revoke, or one that writes where the user's may not).
 */
async function disposableCustomerToken(
  client: TargetClient,
  secrets: Secrets,
  note: (c: RegisteredCustomer, role: string) => void,
  registrar: Registrar,
  customer: Parameters<Registrar['registerCustomer']>[2],
): Promise<string | undefined> {
  try {
    const c = await registrar.registerCustomer(client, secrets, customer)
    note(c, customer.role)
    return await requestToken(client, secrets, 'customer', c, customer.store)
  } catch (err) {
    if (err instanceof TokenError) return undefined
    throw err
  }
}

/**
 * The limited admin's token (read-only mode too: token calls are allowed). Refused credentials are a setting
 * to fix, told before any check; the token is not proven accepted anywhere, as its role may admit it nowhere.
 */
async function limitedAdminToken(
  client: TargetClient,
  secrets: Secrets,
  signIn: SignIn | undefined,
  store: string,
): Promise<string | undefined> {
  if (signIn === undefined) return undefined
  try {
    return await tokenOf(client, secrets, 'admin', signIn, store, 'limited admin')
  } catch (err) {
    if (err instanceof TokenError && err.message.startsWith('limited admin'))
      throw new TokenError(`${err.message}: check SHOP_LIMITED_ADMIN_USERNAME and SHOP_LIMITED_ADMIN_PASSWORD`)
    throw err
  }
}

/**
 * A harmless anonymous GET of the spec, without parameters: asked under store codes that may not exist (the
 * calibration's, the settings').
 */
export function anonymousReadPath(): string {
  return (
    firstRows((r) => r.access === 'anon' && r.method === 'GET' && !r.path.includes(':'), 1)[0]?.path ??
    '/V1/directory/countries'
  )
}

function firstRows(pred: (r: EndpointRow) => boolean, n: number): EndpointRow[] {
  return CATALOG.filter(pred).slice(0, n)
}

/** The path of the first endpoint that accepts the token (later: the place to tell an expired token). */
async function requireAccepted(
  client: TargetClient,
  store: string,
  token: string,
  kind: string,
  rows: EndpointRow[],
  signIn: SignIn | undefined,
): Promise<string | undefined> {
  if (rows.length === 0) return undefined
  const seen: string[] = []
  for (const row of rows) {
    const o = await client.send({ method: row.method, path: row.path, store, token })
    if (o.answer === undefined)
      throw new PreflightError(`target stopped answering: ${endpointText(row)} (${o.failure?.message})`)
    if (o.answer.status !== 401 && o.answer.status !== 403) return row.path
    seen.push(`${endpointText(row)} → ${o.answer.status}`)
  }
  const whose = isGivenToken(signIn) ? `the ${kind} token given (${signIn.setting})` : `the ${kind} token`
  const why = isGivenToken(signIn)
    ? ': it may have expired or been revoked, or be of an integration without access to them, or the shop may not take an integration\'s access token as a bearer token (Stores › Configuration › Services › OAuth › Consumer Settings › "Allow OAuth Access Tokens to be used as standalone Bearer tokens", off by default since 2.4.4)'
    : ''
  throw new PreflightError(
    `${whose} is refused by every ${kind === 'admin' ? 'admin' : 'self'} endpoint tried (${seen.join(', ')})${why}`,
  )
}
