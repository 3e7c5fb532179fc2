import type { RunConfig } from '../settings/config.ts'
import { applyAliases } from '../shop/aliases.ts'
import { allowedInReadOnly } from '../shop/session.ts'
import { WORKFLOWS } from '../workflows/index.ts'
import { buildPlan, PLAN, selectionOf, selectPlan, SUITE } from '../plan/plan.ts'
import { plannedProbes } from '../plan/requests.ts'
import { CHECKS } from '../checks/index.ts'

/** What the stateful checks whose calls are not their endpoint's alone send, in words. */
function deepCalls(readOnly: boolean): Readonly<Record<string, string>> {
  return {
    tokens: readOnly
      ? 'an unknown user name at both token endpoints (read-only: no customer of its own, so no wrong password and no revoke) — at '
      : 'an unknown user name at both token endpoints, a wrong password for a customer registered for it; for another customer of its own GET /V1/customers/me, the revoke, GET /V1/customers/me, a new token and GET /V1/customers/me (again 2 s after the revoke if that token is refused) — at ',
  }
}

/**
 * Every request `run` would send with these settings, without sending any: the preflight, each probe of the
 * route/store-code/access checks (once, with the checks that share it), and for the stateful checks and
 * workflows what they call — their ids depend on the target's answers, so those are described, not spelled out.
 */
export function dryRunPlan(config: RunConfig): string {
  const base = config.baseUrl ?? 'http://127.0.0.1:<port of the bundled reference target>'
  const url = (store: string, path: string) => `${base}/rest/${store}${applyAliases(path, config.pathAliases)}`
  const selected = (name: string) => config.checks.length === 0 || config.checks.includes(name)
  // The bundled run brings its own limited admin (run.ts).
  const limited = config.limitedAdmin !== undefined || config.baseUrl === undefined
  const selection = selectionOf(config.modules, config.checks)
  const planned = selectPlan(PLAN, selection).checks
  // What these settings can judge: a kind that lacks a setting sends nothing.
  const plan = selectPlan(buildPlan(SUITE, { limitedAdmin: limited }), selection)
  const suite = PLAN.checks.length
  const scope =
    config.shard !== undefined
      ? `partial: shard ${config.shard.index}/${config.shard.count} runs its share (by module) of the ${planned.length} checks selected, of ${suite} in the suite`
      : planned.length === suite
        ? `the whole suite: ${suite} checks`
        : `partial: ${planned.length} of ${suite} checks selected`
  const out: string[] = [
    `# shop-conformance run --dry-run: nothing is sent${config.readOnly ? ' (read-only: token calls and GET only)' : ''}`,
    `# ${scope}`,
    '',
    '# preflight',
  ]
  out.push(`POST ${url(config.storeCode, '/V1/integration/admin/token')}  {username, password}`)
  if (config.customer === undefined && !config.readOnly) out.push(`POST ${url(config.storeCode, '/V1/customers')}  {customer: {email (example.com), firstname, lastname}, password}  (main customer)`)
  if (config.customer !== undefined || !config.readOnly) out.push(`POST ${url(config.storeCode, '/V1/integration/customer/token')}  {username, password}`)
  if (!config.readOnly) out.push(`POST ${url(config.storeCode, '/V1/customers')} and .../integration/customer/token  (a second customer, whose tokens the revoke endpoint may kill)`)
  if (limited) out.push(`POST ${url(config.storeCode, '/V1/integration/admin/token')}  {username, password}  (the limited admin, for the acl check)`)
  out.push('GET  up to 3 admin and 3 self endpoints without parameters, to prove the tokens are accepted')
  out.push(`${config.readOnly ? 'GET' : 'GET, POST, PUT, DELETE'} ${url(config.storeCode, '/V1/shop-conformance-no-such-route-<nonce>')} (and under /V1/directory/), and two GETs under an unknown store code: calibration`)

  const probes = plannedProbes(plan).filter((p) => !config.readOnly || allowedInReadOnly(p.row.method, p.row.path))
  out.push('', `# probes (${probes.length} requests)`)
  for (const { row, request, call, kinds } of probes) {
    const who = call.disposable ? 'customer (a customer of its own)' : request.caller
    const store = request.store === 'first' ? config.storeCode : config.secondStoreCode
    out.push(`${row.method} ${url(store, call.path)}  [${who}]${call.body !== undefined ? '  {}' : ''}   # ${kinds.join(', ')}`)
  }

  const deep = CHECKS.filter((c) => c.requests === undefined)
    .map((c) => [c.name, plan.checks.filter((p) => p.kind === c.name)] as const)
    .filter(([, applicable]) => applicable.length > 0)
  if (deep.length > 0) out.push('', '# stateful checks: set-up through the interface, then calls with the ids the target answers')
  const described = deepCalls(config.readOnly)
  for (const [name, applicable] of deep) out.push(`# ${name}: ${described[name] ?? ''}${applicable.map((p) => p.endpoint).join(', ')}`)
  const aclGets = plan.checks.filter((p) => p.kind === 'acl' && p.endpoint?.startsWith('GET '))
  if (aclGets.length > 0) out.push(`# acl, as the admin and the limited admin, with the data the shape check reads them with: ${aclGets.map((p) => p.endpoint).join(', ')}`)
  const lacking = new Map(plan.unplanned.filter((u) => u.why === 'not-configured').map((u) => [u.kind, u.reason]))
  for (const [kind, reason] of lacking) out.push(`# ${kind}: nothing is sent for it — ${reason}`)
  if (selected('workflow')) {
    const flows = WORKFLOWS.filter((w) => config.modules.length === 0 || config.modules.includes(w.module))
    if (flows.length > 0) out.push('', '# workflows (each step calls the endpoint it names, with ids from the steps before)')
    for (const w of flows) out.push(`# ${w.name}: ${w.steps.map((s) => s.endpoint ?? s.title).join(' → ')}`)
  }
  if (!config.readOnly) {
    out.push('', '# cleanup: DELETE of every removable entity the run created, newest first (listed in ledger.jsonl), then GET searches')
    out.push('#   (products by sku, customers by e-mail, attribute sets by name) for what still carries the run id, and DELETE of that')
  }
  return `${out.join('\n')}\n`
}

