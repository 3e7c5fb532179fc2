/**
 * Test support for check tests (not a test itself): a session against a target as the runner would open it, a check run
 * over every catalog row, the rows a check judges, and the reference target's fault switches that break a check kind.
 */
import { ACL_RESOURCES, CATALOG, rowId } from '../spec/catalog/index.ts'
import type { EndpointRow } from '../spec/types.ts'
import { loadConfig, type Credentials } from '../settings/config.ts'
import { preflight } from '../shop/preflight.ts'
import { customerRegistrar } from '../setup/registrar.ts'
import { Session } from '../shop/session.ts'
import type { Verdict } from '../results/verdict.ts'
import type { Check } from './types.ts'
import { FAULTS, type FaultName } from '../../reference-target/index.ts'

/** A session as the run opens it; the target's admin signs in with its password unless `env` gives SHOP_ADMIN_TOKEN. */
export async function openSession(
  target: { url: string; admin: Credentials },
  argv: string[] = [],
  env: Record<string, string> = {},
): Promise<Session> {
  const admin =
    env.SHOP_ADMIN_TOKEN !== undefined
      ? {}
      : { SHOP_ADMIN_USERNAME: target.admin.username, SHOP_ADMIN_PASSWORD: target.admin.password }
  const config = loadConfig(argv, { SHOP_BASE_URL: target.url, ...admin, ...env }, {}, [], ACL_RESOURCES)
  const pre = await preflight(
    { ...config, baseUrl: config.baseUrl!, admin: config.admin! },
    `t${Date.now().toString(36)}`,
    { registrar: customerRegistrar() },
  )
  return new Session(pre.seed)
}

/**
 * The settings that give a run a target's limited admin (its role's resources as the target has them, unless given).
 */
export function limitedAdminEnv(
  target: { limitedAdmin: { username: string; password: string; resources: readonly string[] } },
  resources = target.limitedAdmin.resources,
): Record<string, string> {
  return {
    SHOP_LIMITED_ADMIN_USERNAME: target.limitedAdmin.username,
    SHOP_LIMITED_ADMIN_PASSWORD: target.limitedAdmin.password,
    SHOP_LIMITED_ADMIN_RESOURCES: resources.join(','),
  }
}

/** Sessions opened on targets in a test file; `closeAll` (for afterAll) closes each session, then its target. */
export function targetSessions(): {
  open(
    target: { url: string; admin: Credentials; close(): Promise<void> },
    argv?: string[],
    env?: Record<string, string>,
  ): Promise<Session>
  closeAll(): Promise<void>
} {
  const closers: (() => Promise<void>)[] = []
  return {
    async open(target, argv = [], env = {}) {
      closers.push(() => target.close())
      const s = await openSession(target, argv, env)
      closers.push(() => s.close())
      return s
    },
    async closeAll() {
      for (const close of closers.reverse()) await close()
    },
  }
}

export async function runOverCatalog(
  check: Check,
  session: Session,
  rows: readonly EndpointRow[] = CATALOG,
): Promise<Map<string, Verdict>> {
  const verdicts = await Promise.all(rows.map((row) => check.run(row, session)))
  return new Map(rows.map((row, i) => [rowId(row), verdicts[i]!]))
}

/**
 * Row ids by verdict status, sorted: what a test compares against (`error` only when a check's code threw, so a test's
 * toEqual shows it).
 */
export function byStatus(
  verdicts: Map<string, Verdict>,
): Record<'passed' | 'failed' | 'skipped', string[]> & { error?: string[] } {
  const out: Record<Verdict['status'], string[]> = { passed: [], failed: [], skipped: [], error: [] }
  for (const [id, v] of verdicts) out[v.status].push(id)
  for (const list of Object.values(out)) list.sort()
  const { error, ...judged } = out
  return error.length > 0 ? { ...judged, error } : judged
}

/** The 7 endpoints a 2.4.7 instance does not serve (platform conventions, "A real instance's answers"). */
export const NOT_ON_247 = [
  'POST /V1/customers/activate',
  'POST /V1/inventory/in-store-pickup/pickup-locations',
  'POST /V1/paypartner/lineItems',
  'POST /V1/paypartner/oneClick',
  'POST /V1/paypartner/validatePhoneNumber',
  'PUT /V1/tfa/default-provider-code/:userId',
  'PUT /V1/tfa/user-providers/:userId',
]

/** The catalog rows `check` judges (its appliesTo says true; each kind's test proves which they are). */
export function rowsJudgedBy(check: Pick<Check, 'appliesTo'>): EndpointRow[] {
  return CATALOG.filter((r) => check.appliesTo(r) === true)
}

/** The reference target's fault switches that break `kind` (FAULTS' `breaks`). */
export function faultsBreaking(kind: string): FaultName[] {
  return (Object.keys(FAULTS) as FaultName[]).filter((name) => FAULTS[name].breaks === kind)
}
