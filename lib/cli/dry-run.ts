import { defined } from '../base/defined.ts'
import { isGivenToken, type RunConfig, type SignIn } from '../settings/config.ts'
import { applyAliases } from '../shop/aliases.ts'
import { impossiblePaths, impossibleStore } from '../shop/calibration.ts'
import { anonymousReadPath } from '../shop/preflight.ts'
import { WORKFLOWS } from '../workflows/index.ts'
import { buildPlan, PLAN, rowOfPlanned, selectionOf, selectPlan, SUITE, suiteWith, type Plan } from '../plan/plan.ts'
import { CHECKS, CHECK_KINDS } from '../checks/index.ts'
import { readingCall } from '../checks/extension-probes.ts'
import { endpointText } from '../spec/endpoint-id.ts'
import { loadSchema, schemaUrl } from '../schema/load.ts'
import { schemaFacts } from '../schema/block.ts'
import { shownUrl } from '../schema/setting.ts'
import { configFileOf, loadVendorConfig, type VendorParts } from '../extend/load.ts'
import { requireVendorModules } from '../run/run-settings.ts'
import { PLATFORM_CALLS } from '../setup/platform-calls.ts'
import type { AccessClass } from '../spec/types.ts'
import { callLine, probeLines, type UrlOf } from './dry-run-probes.ts'

/**
 * What a stateful kind sends (it plans no probes: lib/checks/types.ts, ProbeCheck): requests made of the run's own
 * data (set-up, ids the target answers), known only as the run goes. A kind without words here gets UNLISTED:
 * `--dry-run` never lists a check as sending nothing when it sends something.
 */
function inWords(readOnly: boolean, adminTokenGiven: boolean): Readonly<Record<string, string>> {
  // With the admin's token given, the admin token endpoint's check is not judged: it sends nothing there.
  const unknownUser = adminTokenGiven
    ? "an unknown user name at the customer token endpoint (none at the admin's: its token was given)"
    : 'an unknown user name at both token endpoints'
  return {
    tokens: readOnly
      ? `${unknownUser} (read-only: no customer of its own, so no wrong password and no revoke)`
      : `${unknownUser}, a wrong password for a customer registered for it; for another customer of its own GET /V1/customers/me, the revoke, GET /V1/customers/me, a new token and GET /V1/customers/me (again 2 s after the revoke if that token is refused)`,
    'body-keys':
      'set-up through the interface, then the documented call with the ids the target answered, the same call without each required key and with it under another name, and reads of what it changed',
    shape: 'set-up through the interface, then a valid call with the ids the target answered, whose answer is judged',
    'batch-partial':
      'products of its own, then a call mixing valid and invalid items, reads of the prices, and an all-valid call',
  }
}

const UNLISTED = "requests made of the run's own data, known only as the run goes: not listed"

/**
 * Every request `run` would send with these settings, without sending any: the preflight, the reads of the shop's
 * schema, each probe of the route/store-code/access checks (once, with the checks that share it). What depends on
 * the target's answers — ids, the shop's extension operations — is said in words, per kind, never left out. A
 * vendor's config is loaded (a config the run would refuse is refused here too); `cwd` is where the run would start.
 */
export async function dryRunPlan(config: RunConfig, cwd = process.cwd()): Promise<string> {
  const file = configFileOf(config.configFile, cwd)
  const vendor = file !== undefined ? await loadVendorConfig(file, CHECK_KINDS) : undefined
  requireVendorModules(config.modules, vendor)
  const base = config.baseUrl ?? 'http://127.0.0.1:<port of the bundled reference target>'
  const url = (store: string, path: string) => `${base}/rest/${store}${applyAliases(path, config.pathAliases)}`
  // The bundled run brings its own limited admin (run.ts).
  const limited = config.limitedAdmin !== undefined || config.baseUrl === undefined
  const selection = selectionOf(config.modules, config.checks)
  const planned = selectPlan(PLAN, selection).checks
  // What these settings can judge: a kind that lacks a setting sends nothing.
  const plan = selectPlan(buildPlan(SUITE, { limitedAdmin: limited }), selection)
  // A customer token: one configured, or (in full mode) one the run registers.
  const customerToken = config.customer !== undefined || !config.readOnly
  const out: string[] = [
    `# shop-conformance run --dry-run: nothing is sent${config.readOnly ? ' (read-only: token calls and GET only)' : ''}`,
    `# ${scopeText(config, planned.length)}`,
    "# every request is listed, but where it depends on the target's answers: those are said in words (lines starting with #)",
    '',
    '# preflight',
  ]
  out.push(...preflightLines(config, url, limited, customerToken))
  out.push(...schemaReads(config, base, customerToken))

  out.push(...probeLines(plan, SUITE, config, url))

  out.push(...describedLines(plan, config))
  out.push(...workflowLines(config))
  // The shop's extension operations are checked in a run of the whole suite: a --module or --check selects none of
  // their checks; a vendor's checks too, and where --module names the vendor's module.
  if (config.modules.length === 0 && config.checks.length === 0)
    out.push(...(await extensionProbes(config, url, customerToken)))
  if (vendor !== undefined && config.checks.length === 0) out.push(...vendorChecks(vendor, config.modules))
  if (!config.readOnly) {
    out.push(
      '',
      '# cleanup: DELETE of every removable entity the run created, newest first (listed in ledger.jsonl), then GET searches',
    )
    out.push(
      '#   (products by sku, customers by e-mail, attribute sets by name) for what still carries the run id, and DELETE of that',
    )
  }
  out.push(...platformCallLines(config.readOnly, (path) => url(config.storeCode, path)))
  return `${out.join('\n')}\n`
}

/** What the run covers: the whole suite, the checks selected, or a shard's share of them. */
function scopeText(config: RunConfig, planned: number): string {
  const suite = PLAN.checks.length
  if (config.shard !== undefined)
    return `partial: shard ${config.shard.index}/${config.shard.count} runs its share (by module) of the ${planned} checks selected, of ${suite} in the suite`
  if (planned === suite) return `the whole suite: ${suite} checks`
  return `partial: ${planned} of ${suite} checks selected`
}

/**
 * The preflight's calls: each caller's token (none for a token given), the run's own customers, the proof that the
 * tokens are accepted, and the calibration's paths no shop serves.
 */
function preflightLines(config: RunConfig, url: UrlOf, limited: boolean, customerToken: boolean): string[] {
  const out: string[] = []
  // A token given is used as it is: no token call for it.
  const given = (signIn: SignIn | undefined, who: string) =>
    isGivenToken(signIn) ? [`# ${who}: the token given as ${signIn.setting}, no token call`] : undefined
  out.push(
    ...(given(config.admin, 'admin') ?? [
      `POST ${url(config.storeCode, '/V1/integration/admin/token')}  {username, password}`,
    ]),
  )
  if (config.customer === undefined && !config.readOnly)
    out.push(
      `POST ${url(config.storeCode, '/V1/customers')}  {customer: {email (example.com), firstname, lastname}, password}  (main customer)`,
    )
  if (customerToken)
    out.push(
      ...(given(config.customer, 'customer') ?? [
        `POST ${url(config.storeCode, '/V1/integration/customer/token')}  {username, password}`,
      ]),
    )
  if (!config.readOnly)
    out.push(
      `POST ${url(config.storeCode, '/V1/customers')} and .../integration/customer/token  (a second customer, whose tokens the revoke endpoint may kill)`,
    )
  if (limited)
    out.push(
      ...(given(config.limitedAdmin, 'limited admin') ?? [
        `POST ${url(config.storeCode, '/V1/integration/admin/token')}  {username, password}  (the limited admin, for the acl check)`,
      ]),
    )
  out.push(
    `# GET of up to 3 admin${customerToken ? ' and up to 3 self' : ''} endpoints without parameters, one after another until one does not refuse the token: the tokens are accepted`,
  )
  // Calibration: paths no shop serves (the no-route answer) and a store code none has (the unknown-store answer).
  const methods = config.readOnly ? 'GET' : 'GET, POST, PUT, DELETE'
  for (const path of impossiblePaths('<nonce>'))
    out.push(`${methods} ${url(config.storeCode, path)}  [admin]   # calibration: the no-route answer`)
  out.push(
    `GET ${url(impossibleStore('<nonce>'), anonymousReadPath())} and ${url(impossibleStore('<nonce>'), impossiblePaths('<nonce>')[0])}  [admin]   # calibration: the unknown-store answer`,
  )
  return out
}

/** The checks said in words (their requests are made of the run's own data), and the kinds that lack a setting. */
function describedLines(plan: Plan, config: RunConfig): string[] {
  const out: string[] = []
  const described = describedChecks(plan)
  if (described.length > 0) {
    out.push(
      '',
      `# checks whose requests are made of the run's own data (set-up, ids the target answers): in words${config.readOnly ? ' (read-only: of these, only GETs and token calls are sent; what needs a write, set-up included, is not judged)' : ''}`,
    )
  }
  const words = inWords(config.readOnly, isGivenToken(config.admin))
  for (const [kind, endpoints] of described)
    out.push(`# ${kind}: ${words[kind] ?? UNLISTED} — at ${endpoints.join(', ')}`)
  const lacking = new Map(plan.unplanned.filter((u) => u.why === 'not-configured').map((u) => [u.kind, u.reason]))
  for (const [kind, reason] of lacking) out.push(`# ${kind}: nothing is sent for it — ${reason}`)
  return out
}

/** The workflows of the modules selected, each step by the endpoint it calls (when the workflow check is selected). */
function workflowLines(config: RunConfig): string[] {
  if (config.checks.length !== 0 && !config.checks.includes('workflow')) return []
  const out: string[] = []
  const flows = WORKFLOWS.filter((w) => config.modules.length === 0 || config.modules.includes(w.module))
  if (flows.length > 0)
    out.push('', '# workflows (each step calls the endpoint it names, with ids from the steps before)')
  for (const w of flows) out.push(`# ${w.name}: ${w.steps.map((s) => s.endpoint ?? s.title).join(' → ')}`)
  return out
}

/** Who a platform call is sent as, named as the probes' callers are. */
const CALLER_OF: Readonly<Record<AccessClass, string>> = { admin: 'admin', self: 'customer', anon: 'none' }

/**
 * The platform's calls beyond the spec (lib/setup/platform-calls.ts) that the set-up, the workflows and the cleanup
 * send as they need them, with ids the target answered: the table, each entry once (read-only mode: its GETs).
 */
function platformCallLines(readOnly: boolean, url: (path: string) => string): string[] {
  const calls = Object.values(PLATFORM_CALLS).filter((c) => !readOnly || c.method === 'GET')
  return [
    '',
    `# the platform's calls the spec does not list, sent by the set-up, the workflows and the cleanup as they need them (${calls.length}${readOnly ? ', read-only: the GETs' : ''}); a shop that does not serve one leaves what needs it not judged`,
    ...calls.map((c) => `${c.method} ${url(c.path)}  [${CALLER_OF[c.access]}]   # ${c.for}`),
  ]
}

/** Per stateful kind (no probes planned), the endpoints where a planned check of it sends what only words can say. */
function describedChecks(plan: Plan): [string, string[]][] {
  const kinds = new Map(CHECKS.map((k) => [k.name, k]))
  const at = new Map<string, string[]>()
  for (const p of plan.checks) {
    const kind = kinds.get(p.kind)
    const row = rowOfPlanned(p)
    if (kind === undefined || row === undefined || 'probes' in kind) continue
    at.set(p.kind, [...(at.get(p.kind) ?? []), endpointText(row)])
  }
  return CHECKS.flatMap((k): [string, string[]][] => {
    const endpoints = at.get(k.name)
    return endpoints === undefined ? [] : [[k.name, endpoints]]
  })
}

/** The reads of the shop's published schema (lib/run/shop-schema.ts), as --target-schema says. */
function schemaReads(config: RunConfig, base: string, customerToken: boolean): string[] {
  const setting = config.targetSchema
  const head = `# the shop's published schema (--target-schema ${setting.kind})`
  switch (setting.kind) {
    case 'off':
      return ['', `${head}: not read, and no extension operation is checked`]
    case 'file':
      return ['', `${head}: read from the file ${setting.path}: nothing is sent`]
    case 'url':
      return ['', head, `GET ${shownUrl(setting.url)}  (once, without a token)`]
    case 'auto': {
      const at = schemaUrl(base, config.storeCode)
      return [
        '',
        `${head}: once under each caller`,
        `GET ${at}  [none]`,
        customerToken ? `GET ${at}  [customer]` : `# GET ${at}  [customer]: not sent, no customer token in this run`,
        `GET ${at}  [admin]`,
      ]
    }
  }
}

/**
 * The probes of the shop's extension operations (lib/checks/extension-probes.ts): the operations are what the
 * schema declares beyond the spec. Read from a file (`--target-schema FILE`), they are known, and their probes listed
 * one by one as the run sends them; from the shop or a URL they are known only from its answer, so they are
 * described.
 */
async function extensionProbes(config: RunConfig, url: UrlOf, customerToken: boolean): Promise<string[]> {
  const setting = config.targetSchema
  if (setting.kind === 'off') return []
  const reading = readingCall(config.readOnly)
  if (setting.kind === 'file') {
    const facts = schemaFacts(
      await loadSchema({
        setting,
        baseUrl: '',
        storeCode: config.storeCode,
        tokens: {},
        get: () => Promise.resolve({ error: 'not read' }),
      }),
      { targetPath: (p) => applyAliases(p, config.pathAliases) },
    )
    if (facts.operations.length === 0)
      return ['', `# the shop's extension operations: the file declares none, so nothing is sent to any`]
    const parts = suiteWith({ operations: facts.operations, probeWrites: config.extensionsProbeWrites })
    const plan = buildPlan({ ...parts, rows: parts.rows.filter((r) => r.origin === 'extension'), workflows: [] })
    const lines = probeLines(plan, parts, config, url).slice(2)
    return [
      '',
      `# the shop's extension operations (${facts.operations.length}, from the file): each at its path with placeholder values, as its declared class and the safety rule allow; the target reading once`,
      ...lines,
    ]
  }
  const views = setting.kind === 'auto'
  const callers = `no token, a malformed token${customerToken ? ', the customer token' : ''} and the admin token`
  return [
    '',
    `# the shop's extension operations: those its schema declares beyond the spec — known only from its answer, so not listed one by one`,
    `${callLine(reading, config, url)}   # once, if it declares any: does the target route before it checks access?`,
    '# then each operation at its path with placeholder values (a POST or PUT with {}):',
    views
      ? `#   a GET: to each of ${callers} that its declared access class decides, and once more under the second store code (${config.secondStoreCode}) by the caller it admits`
      : '#   a GET: as the admin, under both store codes (a schema from a file or a URL has no caller views: no class is known)',
    extensionWritesLine(config, views),
    ...(customerToken ? [] : ["#   the customer token's calls are not sent: no customer token in this run"]),
  ]
}

/** What the extension probes send as a POST, PUT or DELETE, in the run's mode. */
function extensionWritesLine(config: RunConfig, views: boolean): string {
  if (config.readOnly) return '#   a POST, PUT or DELETE: not sent (read-only mode)'
  if (config.extensionsProbeWrites)
    return `#   a POST, PUT or DELETE: to every caller its class decides, also those it admits (--extensions-probe-writes: IT MAY CHANGE OR DELETE DATA)${views ? '' : '; as the admin where no class is known'}`
  return `#   a POST, PUT or DELETE: only to the callers its class must refuse${views ? '' : ' (none where no class is known)'}, never to one it admits (--extensions-probe-writes would)`
}

/**
 * A vendor's config (loaded as the run loads it): its checks of the selected modules named; what they send is their own
 * code's.
 */
function vendorChecks(vendor: VendorParts, modules: readonly string[]): string[] {
  const plan = selectPlan(
    buildPlan({ rows: vendor.rows, kinds: vendor.kinds, workflows: [] }),
    selectionOf(modules, []),
  )
  if (plan.checks.length === 0) return []
  const byKind = new Map<string, string[]>()
  for (const p of plan.checks)
    byKind.set(p.kind, [
      ...(byKind.get(p.kind) ?? []),
      endpointText(defined(p.added, "the row of a vendor's planned check")),
    ])
  const lines = [...byKind].map(([kind, endpoints]) => `# ${kind}: at ${endpoints.join(', ')}`)
  return ['', `# a vendor's checks (${vendor.file}): what each sends is its own code's — not listed`, ...lines]
}
