/**
 * The body-keys check judged again from a run's recorded calls (`judge --har`, recorded-judges.ts): the valid call
 * (`_probe: "valid call"`), the calls without or with a renamed required key, the empty body and the path conflict
 * (`body-keys: <what>`), with what the run read back beside them (`_observed`, `_conflict`), through the same pure
 * judgements as the live check (body-keys.ts, body-keys-judgements.ts). A call the run could not make (its data
 * could not be set up) is not in the recording: the check is then not judged again. Pure.
 */
import type { Exchange } from '../results/exchange.ts'
import type { Verdict } from '../results/verdict.ts'
import { scenarioOf } from '../setup/families/index.ts'
import { recordedProbe } from '../shop/recorded.ts'
import type { EndpointRow } from '../spec/types.ts'
import { BODY_KEYS_PROBE, EMPTY_BODY, judgeMissingKey, PATH_WINS, variantsOf } from './body-keys.ts'
import {
  bodyKeysRules,
  combine,
  judgeDocumentedAnswer,
  judgeDocumentedRefusal,
  judgePathWins,
  requiredParams,
  type Part,
} from './body-keys-judgements.ts'
import type { RecordedEntry, RecordedRunFacts } from './recorded-entry.ts'
import { VALID_CALL } from './scenario-call.ts'

export function recordedBodyKeys(
  row: EndpointRow,
  entries: readonly RecordedEntry[],
  facts: RecordedRunFacts,
): Verdict | undefined {
  const scenario = scenarioOf(row)
  const valid = entries.find((e) => e.probe === VALID_CALL && e.exchange.request.method === row.method)
  if (scenario === undefined || valid === undefined) return undefined
  const called = new Map(
    entries.flatMap((e) =>
      e.probe?.startsWith(BODY_KEYS_PROBE) === true ? [[e.probe.slice(BODY_KEYS_PROBE.length), e] as const] : [],
    ),
  )
  const outcomeOf = (e: RecordedEntry) => recordedProbe(e.exchange, facts.reading, e.caller).probe
  const exchanges: Exchange[] = [valid.exchange]
  const warnings: string[] = []

  // The documented call, and where the target may refuse for reasons of its own, the empty body's.
  const body = valid.exchange.request.body
  const keys = Object.keys(typeof body === 'object' && body !== null ? body : {}).join(', ')
  let documented = judgeDocumentedAnswer(row, keys, outcomeOf(valid))
  if (documented === 'refused') {
    const bare = called.get(EMPTY_BODY)
    if (scenario.mayRefuseForBusinessReasons === true && bare === undefined) return undefined
    if (bare !== undefined) exchanges.push(bare.exchange)
    documented = judgeDocumentedRefusal(keys, outcomeOf(valid), bare !== undefined ? outcomeOf(bare) : undefined)
  }
  const parts: Part[] = [documented]

  for (const key of requiredParams(row).map((p) => p.name)) {
    const why = scenario.tokenSupplied?.[key]
    if (why !== undefined) {
      parts.push({ status: 'skipped', text: `missing "${key}" not judged: ${why}`, applies: false })
      continue
    }
    for (const variant of variantsOf(key)) {
      const sent = called.get(variant)
      if (sent === undefined) return undefined
      exchanges.push(sent.exchange)
      parts.push(judgeMissingKey(key, variant, outcomeOf(sent), sent.observed, warnings))
    }
  }

  if (scenario.pathConflict !== undefined && parts[0]?.status !== 'skipped') {
    const conflict = called.get(PATH_WINS)
    if (conflict?.conflict === undefined)
      parts.push({
        status: 'skipped',
        text: 'path parameter against a contradicting body not shown: not in the recording',
        applies: false,
      })
    else {
      exchanges.push(conflict.exchange)
      const judged = judgePathWins(conflict.conflict, outcomeOf(conflict), conflict.conflict.honoured)
      if (judged.warning !== undefined) warnings.push(judged.warning)
      parts.push(judged.part)
    }
  }
  return { ...combine(parts, exchanges, warnings), rules: bodyKeysRules(row) }
}
