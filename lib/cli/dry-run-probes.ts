/**
 * `--dry-run`'s lines for the probe checks' requests: the plans the kinds make (lib/plan/requests.ts), printed as the
 * sender would send them — each call once, with the kinds that read it, and each row's valid request as its callers
 * in order. The same data the run sends from, so the listing cannot drift from the run.
 */
import type { RunConfig } from '../settings/config.ts'
import type { ProbeSettings } from '../checks/probe.ts'
import { plannedRequests } from '../plan/requests.ts'
import type { Plan, PlanParts } from '../plan/plan.ts'
import type { PlannedCall, SequenceCaller } from '../shop/probe.ts'
import { allowedInReadOnly } from '../shop/session.ts'

/** What a dry run's settings say the run's plans are made with. */
function dryRunSettings(config: RunConfig): ProbeSettings {
  // The bundled run brings its own limited admin (run.ts); only whether there is one changes what is sent.
  const limited = config.limitedAdmin !== undefined || config.baseUrl === undefined
  return {
    readOnly: config.readOnly,
    ...(limited
      ? { limitedAdmin: { username: 'the limited admin', resources: config.limitedAdmin?.resources ?? [] } }
      : {}),
    // A customer token: one configured, or (in full mode) one the run registers; a write goes as a customer of the
    // run's own.
    customer: { reads: config.customer !== undefined || !config.readOnly, writes: !config.readOnly },
  }
}

export type UrlOf = (store: string, path: string) => string

/** The probe checks' calls, then their valid requests, as lines. */
export function probeLines(plan: Plan, parts: Pick<PlanParts, 'kinds'>, config: RunConfig, url: UrlOf): string[] {
  const requests = plannedRequests(plan, parts, dryRunSettings(config))
  const calls = requests.calls.filter(
    (c) => !config.readOnly || allowedInReadOnly(c.planned.call.method, c.planned.call.path),
  )
  const out = ['', `# probes (${calls.length} requests)`]
  for (const { planned, kinds } of calls) out.push(`${callLine(planned, config, url)}   # ${kinds.join(', ')}`)
  if (requests.sequences.length > 0) {
    out.push(
      '',
      `# valid requests (${requests.sequences.length}): a request made of the run's own data (set-up first), sent to each group of callers in turn,`,
      '# the caller the class admits last; "afresh" where a success uses the request up, so the next group gets a new one;',
      '# where none can be made, each caller gets the placeholder call instead (as listed for the anonymous endpoints above)',
    )
  }
  for (const { sequence: s, kinds } of requests.sequences) {
    const groups = s.groups.map((g) => `[${g.map((c) => who(c, s.optional)).join(', ')}]`).join(' → ')
    out.push(
      `${s.method} ${url(config.storeCode, s.template)}  ${groups}${s.again === 'fresh' ? ' afresh' : ''}   # ${kinds.join(', ')}`,
    )
  }
  return out
}

/** One call as the run sends it: method, URL, caller, its body (`{}` for a placeholder call's). */
export function callLine(planned: PlannedCall, config: RunConfig, url: UrlOf): string {
  const { request, call } = planned
  const caller = call.disposable === true ? 'customer (a customer of its own)' : request.caller
  const store = request.store === 'first' ? config.storeCode : config.secondStoreCode
  return `${call.method} ${url(store, call.path)}  [${caller}]${call.body !== undefined ? `  ${JSON.stringify(call.body)}` : ''}`
}

function who(caller: SequenceCaller, optional: readonly SequenceCaller[]): string {
  return optional.includes(caller) && caller === 'other customer' ? 'another customer of its own' : caller
}
