import type { ProbeSettings } from '../checks/probe.ts'
import type { Check, ProbeCheck } from '../checks/types.ts'
import { callKey, type PlannedCall, type SequencePlan } from '../shop/probe.ts'
import { endpointText } from '../spec/endpoint-id.ts'
import type { EndpointRow } from '../spec/types.ts'
import { rowOfPlanned, type Plan, type PlanParts } from './plan.ts'

/** One call of the plan's probes, with every planned kind that reads it (a call is sent once and shared). */
interface PlannedProbe {
  row: EndpointRow
  planned: PlannedCall
  kinds: string[]
}

/** A row's valid request, sent as its callers in order, with every planned kind that reads it. */
interface PlannedSequence {
  row: EndpointRow
  sequence: SequencePlan
  kinds: string[]
}

interface PlannedRequests {
  calls: PlannedProbe[]
  sequences: PlannedSequence[]
}

function isProbeCheck(kind: Check): kind is ProbeCheck {
  return 'probes' in kind && typeof (kind as Partial<ProbeCheck>).probes === 'function'
}

/**
 * Every request the plan's probe checks send, once each, in plan order: each kind's own plan (`probes`), the very
 * data the sender sends, so `--dry-run` lists what a run sends without a copy of the checks' logic. A sequence no
 * valid request can be made for is its fallback's calls. The stateful kinds (set-up, ids from the target's
 * answers) plan nothing here: `--dry-run` describes them.
 */
export function plannedRequests(plan: Plan, parts: Pick<PlanParts, 'kinds'>, settings: ProbeSettings): PlannedRequests {
  const byName = new Map(parts.kinds.map((k) => [k.name, k]))
  const calls = new Map<string, PlannedProbe>()
  const sequences = new Map<string, PlannedSequence>()
  const add = (row: EndpointRow, planned: PlannedCall, kind: string) => {
    const seen = calls.get(callKey(planned)) ?? { row, planned, kinds: [] }
    if (!seen.kinds.includes(kind)) seen.kinds.push(kind)
    calls.set(callKey(planned), seen)
  }
  for (const p of plan.checks) {
    const kind = byName.get(p.kind)
    const row = rowOfPlanned(p)
    if (kind === undefined || row === undefined || !isProbeCheck(kind)) continue
    const probes = kind.probes(row, settings)
    const sequence = probes.sequence
    if (sequence?.unbuildable !== undefined) for (const c of sequence.fallback) add(row, c, kind.name)
    else if (sequence !== undefined) {
      const key = endpointText({ method: sequence.method, path: sequence.template })
      const seen = sequences.get(key) ?? { row, sequence, kinds: [] }
      if (!seen.kinds.includes(kind.name)) seen.kinds.push(kind.name)
      sequences.set(key, seen)
    }
    for (const c of [...probes.calls, ...(probes.after ?? [])]) add(row, c, kind.name)
  }
  return { calls: [...calls.values()], sequences: [...sequences.values()] }
}
