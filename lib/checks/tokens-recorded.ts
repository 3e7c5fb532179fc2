/**
 * The tokens check judged again from a run's recorded calls (`judge --har`, recorded-judges.ts): each call the live
 * check sent is tagged `tokens: <what it is>` in the run's evidence, and its recorded answer goes through the same
 * pure judgements (token-judgements.ts) and the same verdict as the live check's (tokens.ts, revocation.ts). Pure.
 */
import type { Exchange } from '../results/exchange.ts'
import type { Verdict } from '../results/verdict.ts'
import { recordedProbe } from '../shop/recorded.ts'
import type { Probe } from '../shop/probe.ts'
import { rowId } from '../spec/catalog/index.ts'
import { TOKEN_RULES } from '../spec/rules.ts'
import type { EndpointRow } from '../spec/types.ts'
import type { RecordedEntry, RecordedRunFacts } from './recorded-entry.ts'
import {
  detailOf,
  issuedBy,
  RENEWALS,
  renewalCall,
  renewalUse,
  REVOCATION_CALLS,
  REVOCATION_READ_ONLY,
  REVOKE,
} from './revocation.ts'
import {
  judgeRevocation,
  judgeWrongCredentials,
  TOKENS_PROBE,
  type Renewal,
  type RevocationCalls,
} from './token-judgements.ts'
import {
  CUSTOMER_TOKEN,
  issuingVerdict,
  READ_ONLY_NO_WRONG_PASSWORD,
  UNKNOWN_USER,
  wrongPasswordNotTried,
  type Reading,
} from './tokens.ts'

export function recordedTokens(
  row: EndpointRow,
  entries: readonly RecordedEntry[],
  facts: RecordedRunFacts,
): Verdict | undefined {
  const calls = new Map(
    entries.flatMap((e) =>
      e.probe?.startsWith(TOKENS_PROBE) === true ? [[e.probe.slice(TOKENS_PROBE.length), e] as const] : [],
    ),
  )
  return rowId(row) === REVOKE
    ? recordedRevocation(calls, facts)
    : recordedIssuing(rowId(row) === CUSTOMER_TOKEN, calls, facts)
}

/** The sign-ins with wrong credentials: the unknown user's, and at the customer token endpoint a wrong password's. */
function recordedIssuing(
  customer: boolean,
  calls: ReadonlyMap<string, RecordedEntry>,
  facts: RecordedRunFacts,
): Verdict | undefined {
  const reading = (what: string, e: RecordedEntry): Reading => {
    const { token: _issued, ...judged } = judgeWrongCredentials(
      what,
      recordedProbe(e.exchange, facts.reading, e.caller).probe,
    )
    return { ...judged, exchanges: [e.exchange] }
  }
  const unknown = calls.get(UNKNOWN_USER)
  if (unknown === undefined) return undefined
  const readings = [reading(UNKNOWN_USER, unknown)]
  if (customer) {
    const wrong = [...calls].find(([what]) => what !== UNKNOWN_USER)
    if (wrong !== undefined) readings.push(reading(...wrong))
    else if (facts.settings.readOnly) readings.push(wrongPasswordNotTried(READ_ONLY_NO_WRONG_PASSWORD, 'read-only', []))
    else return undefined
  }
  return issuingVerdict(readings)
}

/** The revocation's calls as far as the run made them, judged as the live check judged them after its last call. */
function recordedRevocation(calls: ReadonlyMap<string, RecordedEntry>, facts: RecordedRunFacts): Verdict | undefined {
  const rules = [TOKEN_RULES.revocation]
  if (facts.settings.readOnly)
    return {
      status: 'skipped',
      message: `not judged: ${REVOCATION_READ_ONLY}`,
      exchanges: [],
      details: {},
      rules,
      reason: 'read-only',
    }
  const exchanges: Exchange[] = []
  const details: Record<string, string> = {}
  const call = (name: string, asks = false): { probe: Probe; issued: boolean } | undefined => {
    const e = calls.get(name)
    if (e === undefined) return undefined
    const { probe } = recordedProbe(e.exchange, facts.reading, 'customer')
    const issued = asks && issuedBy(probe) !== undefined
    details[name] = detailOf(probe, issued)
    exchanges.push(e.exchange)
    return { probe, issued }
  }
  const before = call(REVOCATION_CALLS.before)
  if (before === undefined) return undefined
  const made: RevocationCalls = { before: before.probe }
  const revoke = call(REVOCATION_CALLS.revoke)
  if (revoke !== undefined) made.revoke = revoke.probe
  const after = call(REVOCATION_CALLS.after)
  if (after !== undefined) made.after = after.probe
  const renewals: Renewal[] = []
  for (const when of RENEWALS) {
    const fresh = call(renewalCall(when), true)
    if (fresh === undefined) break
    const use = fresh.issued ? call(renewalUse(when)) : undefined
    renewals.push({ when, fresh: fresh.probe, issued: fresh.issued, ...(use !== undefined ? { use: use.probe } : {}) })
  }
  if (renewals.length > 0) made.renewals = renewals
  const judged = judgeRevocation(made)
  return judged === undefined ? undefined : { ...judged, exchanges, details, rules }
}
