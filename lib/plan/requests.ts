import { CHECKS } from '../checks/index.ts'
import { probeCall, type ProbeCall, type ProbeRequest } from '../checks/probe.ts'
import type { Check } from '../checks/types.ts'
import { endpointText } from '../spec/endpoint-id.ts'
import type { EndpointRow } from '../spec/types.ts'
import { rowOfPlanned, type Plan } from './plan.ts'

/** One placeholder probe of the plan, with every planned kind that asks for it (a probe is sent once and shared). */
export interface PlannedProbe {
  row: EndpointRow
  request: ProbeRequest
  call: ProbeCall
  kinds: string[]
}

/**
 * Every placeholder probe the plan's checks send, once each, in plan order: each kind's own `requests`, the
 * list `probe.ts` sends from, so `--dry-run` lists what a run sends without a copy of the checks' logic.
 * Kinds without `requests` (set-up, ids from the target's answers) are not here: `--dry-run` describes them.
 */
export function plannedProbes(plan: Plan, kinds: readonly Check[] = CHECKS): PlannedProbe[] {
  const byName = new Map(kinds.map((k) => [k.name, k]))
  const probes = new Map<string, PlannedProbe>()
  for (const planned of plan.checks) {
    const kind = byName.get(planned.kind)
    const row = rowOfPlanned(planned)
    if (kind?.requests === undefined || row === undefined) continue
    for (const request of kind.requests(row)) {
      // The key probe.ts memoises a probe by: one request per row, caller and store.
      const key = `${endpointText(row)} ${request.caller} ${request.store}`
      const seen = probes.get(key) ?? { row, request, call: probeCall(row, request.caller), kinds: [] }
      if (!seen.kinds.includes(kind.name)) seen.kinds.push(kind.name)
      probes.set(key, seen)
    }
  }
  return [...probes.values()]
}
