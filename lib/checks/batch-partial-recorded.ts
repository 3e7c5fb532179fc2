/**
 * The batch-partial check judged again from a run's recorded calls (`judge --har`, recorded-judges.ts): each tagged by
 * what it is (`_probe: "batch-partial: <role>"`: the mixed call, its read-back, the all-valid call; an information
 * call's or cost-delete's call naming known skus and the one naming an unknown sku, and their read-backs), with what
 * the request does not say beside it — which items the check planned valid and why the others are not (`_items`), the
 * prices read or stored before (`_observed.before`) —, through the same pure judgements as the live check
 * (batch-partial/items.ts, information.ts). A call the recording lacks: not judged again. Pure.
 */
import type { Verdict } from '../results/verdict.ts'
import { recordedProbe } from '../shop/recorded.ts'
import type { EndpointRow } from '../spec/types.ts'
import { batchVerdict, operationOf } from './batch-partial.ts'
import {
  judgeCostDeleteCalls,
  judgeInformationCalls,
  knownDeleteToReadBack,
  skusOf,
} from './batch-partial/information.ts'
import { endedAtMixedCall, judgeItemsCalls } from './batch-partial/items.ts'
import type { PlannedItem, Price, PriceFamily } from './batch-partial/operations.ts'
import { BATCH_PROBE, type BatchRole, type Judged, type JudgedCall } from './batch-partial/target.ts'
import type { RecordedEntry, RecordedRunFacts } from './recorded-entry.ts'
import { defined } from '../base/defined.ts'
import { isObject } from '../base/is-object.ts'

export function recordedBatchPartial(
  row: EndpointRow,
  entries: readonly RecordedEntry[],
  facts: RecordedRunFacts,
): Verdict | undefined {
  const op = operationOf(row)
  if (op === undefined) return undefined
  const tagged = (role: BatchRole) => entries.find((e) => e.probe === `${BATCH_PROBE}${role}`)
  const call = (e: RecordedEntry): JudgedCall => ({
    ...recordedProbe(e.exchange, facts.reading, e.caller).probe,
    exchange: e.exchange,
  })
  let judged: Judged | undefined
  if (op.kind === 'items') judged = recordedItems(op.op, op.family, tagged, call)
  else {
    const known = tagged('known skus')
    const unknown = tagged('unknown sku')
    const unknownSku =
      unknown !== undefined ? skusOf(unknown).find((_sku, i) => unknown.items?.[i]?.valid === false) : undefined
    if (known === undefined || unknown === undefined || unknownSku === undefined) return undefined
    if (op.kind === 'information') {
      const stored = known.observed?.before
      judged = judgeInformationCalls(op.family, {
        known: call(known),
        mixed: call(unknown),
        unknownSku,
        ...(isReply(stored) ? { stored } : {}),
      })
    } else {
      const [first, second] = [call(known), call(unknown)]
      const firstRead = tagged('known skus read back')
      const secondRead = tagged('unknown sku read back')
      // The live check reads back what each answer calls for: a recording without such a read-back is not judged.
      if (knownDeleteToReadBack(first) && firstRead === undefined) return undefined
      if (second.answer !== undefined && secondRead?.observed?.before === undefined) return undefined
      // The cost the run stored, recorded with the read-back (there wherever the second call was answered).
      const kept = secondRead?.observed?.before
      judged = judgeCostDeleteCalls({
        first,
        second,
        unknownSku,
        ...(firstRead !== undefined ? { firstRead: call(firstRead) } : {}),
        ...(secondRead !== undefined ? { secondRead: call(secondRead) } : {}),
        ...(kept !== undefined ? { kept: kept as Price } : {}),
      })
    }
  }
  return judged !== undefined ? batchVerdict(judged) : undefined
}

/**
 * update / delete / replace: the mixed call with its planned items; where it does not end the row, its read-back and
 * the all-valid call.
 */
function recordedItems(
  op: 'update' | 'delete' | 'replace',
  family: PriceFamily,
  tagged: (role: BatchRole) => RecordedEntry | undefined,
  call: (e: RecordedEntry) => JudgedCall,
): Judged | undefined {
  const mixed = tagged('mixed call')
  const prices = mixed !== undefined ? pricesOf(mixed) : []
  if (mixed?.items === undefined || prices.length !== mixed.items.length) return undefined
  const planned = mixed.items
  const items: PlannedItem[] = prices.map((fields, index) => {
    const { valid, kind } = defined(planned[index], `the planned item ${index} (as many as the prices, checked above)`)
    return { index, valid, ...(kind !== undefined ? { kind } : {}), fields }
  })
  const mixedCall = call(mixed)
  const ended = endedAtMixedCall(items, mixedCall)
  if (ended !== undefined) return ended
  const readBack = tagged('read-back')
  const clean = tagged('all-valid call')
  const before = readBack?.observed?.before
  if (readBack === undefined || clean === undefined || !Array.isArray(before)) return undefined
  return judgeItemsCalls(op, family, {
    items,
    before,
    mixed: mixedCall,
    readBack: call(readBack),
    clean: call(clean),
    allValid: pricesOf(clean),
  })
}

/** The items a batch call sent (its `{prices}` body). */
function pricesOf(e: RecordedEntry): Price[] {
  const body = e.exchange.request.body as { prices?: unknown } | undefined
  return Array.isArray(body?.prices) ? body.prices.filter((p): p is Price => isObject(p)) : []
}

function isReply(value: unknown): value is { status: number; body: unknown } {
  return isObject(value) && typeof value.status === 'number'
}
