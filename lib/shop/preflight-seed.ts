import { randomBytes } from 'node:crypto'
import { MALFORMED_TOKEN_PREFIX } from '../results/redactor.ts'
import { isGivenToken, type RunConfig, type SignIn } from '../settings/config.ts'
import type { RateShare } from './pace.ts'
import type { Secrets } from './secrets.ts'
import type { SessionSeed } from './session.ts'
import type { RegisteredCustomer } from './tokens.ts'

/** The run's settings the preflight is given: a base URL and an admin's sign-in among them. */
export type PreflightConfig = RunConfig & { baseUrl: string; admin: SignIn }

/** The tokens the preflight got for each caller, and the path where the admin's was proven accepted. */
export interface CallersTokens {
  customerCredentials: RegisteredCustomer | undefined
  customer: string | undefined
  disposableCustomer: string | undefined
  ownCustomer: string | undefined
  adminCheckPath: string | undefined
  limitedAdmin: string | undefined
}

/** What the seed is made of besides the preflight's answers: the run's settings, and what its client saw. */
interface SeedSources {
  config: PreflightConfig
  runId: string
  options: { rate?: RateShare; ledgerFile?: string }
  client: { slowestMs: SessionSeed['slowestMs'] }
  secrets: Pick<Secrets, 'entries'>
}

/** The seed of every worker's session: the run's settings, the callers' tokens and credentials, the calibration. */
export function sessionSeed(
  p: SeedSources,
  admin: string,
  tokens: CallersTokens,
  customerCheckPath: string | undefined,
  calibration: SessionSeed['calibration'],
  given: [GivenCaller, string][],
): SessionSeed {
  const { config, options } = p
  const { customerCredentials, adminCheckPath } = tokens
  const rate = options.rate
  return {
    runId: p.runId,
    baseUrl: config.baseUrl,
    storeCode: config.storeCode,
    secondStoreCode: config.secondStoreCode,
    timeoutMs: config.timeoutMs,
    maxTimeoutMs: config.maxTimeoutMs,
    // A customer registered in 14 s here: the checks' registrations are given three times that from the start.
    slowestMs: p.client.slowestMs,
    concurrency: config.concurrency,
    ...(rate !== undefined ? { rate } : {}),
    pace: config.pace,
    insecure: config.insecure,
    pathAliases: config.pathAliases,
    tokens: seedTokens(admin, tokens),
    ...(config.limitedAdmin !== undefined ? { limitedAdmin: limitedAdminOfSeed(config.limitedAdmin) } : {}),
    malformedToken: `${MALFORMED_TOKEN_PREFIX}${randomBytes(6).toString('hex')}`,
    calibration,
    secrets: p.secrets.entries(),
    builderSeed: config.seed,
    purchase: config.purchase,
    ...(options.ledgerFile !== undefined ? { ledgerFile: options.ledgerFile } : {}),
    ...(customerCredentials !== undefined ? { customer: seedCustomer(customerCredentials) } : {}),
    readOnly: config.readOnly,
    customerIsTheUsers: config.customer !== undefined,
    credentials: {
      ...(isGivenToken(config.admin) ? {} : { admin: config.admin }),
      ...(customerCredentials !== undefined ? { customer: customerCredentials } : {}),
    },
    ...(given.length > 0 ? { givenTokens: Object.fromEntries(given) } : {}),
    tokenCheckPaths: {
      admin: adminCheckPath ?? '/V1/modules',
      ...(customerCheckPath !== undefined ? { customer: customerCheckPath } : {}),
    },
  }
}

/** The session's tokens: the admin's, and each other caller's the preflight got. */
function seedTokens(admin: string, tokens: CallersTokens): SessionSeed['tokens'] {
  const { customer, disposableCustomer, ownCustomer, limitedAdmin } = tokens
  return {
    admin,
    ...(customer !== undefined ? { customer } : {}),
    ...(disposableCustomer !== undefined ? { disposableCustomer } : {}),
    ...(ownCustomer !== undefined ? { ownCustomer } : {}),
    ...(limitedAdmin !== undefined ? { limitedAdmin } : {}),
  }
}

/** The main customer as the session knows it: its email, and its id where the shop told it. */
function seedCustomer(credentials: RegisteredCustomer): NonNullable<SessionSeed['customer']> {
  return { email: credentials.username, ...(credentials.id !== undefined ? { id: credentials.id } : {}) }
}

/** The limited admin as the session knows it: its name (or the setting its token was given as) and resources. */
function limitedAdminOfSeed(
  limitedAdmin: NonNullable<RunConfig['limitedAdmin']>,
): NonNullable<SessionSeed['limitedAdmin']> {
  return {
    username: isGivenToken(limitedAdmin) ? `the token given as ${limitedAdmin.setting}` : limitedAdmin.username,
    resources: limitedAdmin.resources,
  }
}

/** Which callers' tokens were given, by caller, with the variable each came from. */
export function givenTokens(
  config: Pick<RunConfig, 'customer' | 'limitedAdmin'> & { admin: SignIn },
): [GivenCaller, string][] {
  const callers: [GivenCaller, SignIn | undefined][] = [
    ['admin', config.admin],
    ['customer', config.customer],
    ['limitedAdmin', config.limitedAdmin],
  ]
  return callers.flatMap(([caller, signIn]) =>
    isGivenToken(signIn) ? [[caller, signIn.setting] as [GivenCaller, string]] : [],
  )
}

export type GivenCaller = keyof NonNullable<SessionSeed['givenTokens']>
