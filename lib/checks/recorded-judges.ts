/**
 * A planned check judged again from the exchanges a run recorded for it (its evidence.har's entries tagged with
 * its result id), by the same pure judge the live check runs: what `shop-conformance judge --har` does with each
 * planned check (lib/run/rejudge.ts). Pure: recorded entries in, a verdict out; nothing is sent.
 *
 * The probe kinds (route, store-code, access, acl, the extension kinds) plan their calls as data: the recorded
 * entries are read back as their answers (lib/shop/recorded.ts). The shape check judges the valid call, which the
 * run tags (`_probe: "valid call"`) with what its answer must carry (`_carries`); the tokens and body-keys checks'
 * calls are tagged by what each is (tokens-recorded.ts, body-keys-recorded.ts, batch-partial-recorded.ts). What the
 * recording cannot give a judge — the workflows, and a check whose answer is not among its entries — is not
 * judged, reason `not-recorded`: never a verdict copied.
 */
import type { Verdict } from '../results/verdict.ts'
import { answersFromRecorded, recordedProbe } from '../shop/recorded.ts'
import { allowedInReadOnly } from '../shop/session.ts'
import { endpointText } from '../spec/endpoint-id.ts'
import type { EndpointRow } from '../spec/types.ts'
import type { RecordedEntry, RecordedRunFacts } from './recorded-entry.ts'
import { carriesOf, VALID_CALL } from './scenario-call.ts'
import { judgeShapeAnswer } from './shape.ts'
import { recordedTokens } from './tokens-recorded.ts'
import { recordedBodyKeys } from './body-keys-recorded.ts'
import { recordedBatchPartial } from './batch-partial-recorded.ts'
import type { Check, ProbeCheck } from './types.ts'

/** The check kinds `judge --har` judges again from a recording: the probe kinds and these. */
const RECORDED_JUDGES: Readonly<
  Record<string, (row: EndpointRow, entries: readonly RecordedEntry[], facts: RecordedRunFacts) => Verdict | undefined>
> = {
  shape: recordedShape,
  tokens: recordedTokens,
  'body-keys': recordedBodyKeys,
  'batch-partial': recordedBatchPartial,
}

/**
 * The check `kind` at `row` judged from the entries recorded for it; undefined when the recording cannot tell (the
 * kind's answers are not recorded so that a judge can read them, or the call it judges is not among them).
 */
export function judgeRecorded(
  row: EndpointRow,
  kind: Check,
  entries: readonly RecordedEntry[],
  facts: RecordedRunFacts,
): Verdict | undefined {
  if (isProbeCheck(kind)) {
    const answers = answersFromRecorded(
      kind.probes(row, facts.settings),
      entries.map((e) => recordedProbe(e.exchange, facts.reading, e.caller)),
      facts.stores,
      undefined,
      facts.settings,
    )
    return kind.judge(row, answers, facts.settings)
  }
  return (
    RECORDED_JUDGES[kind.name]?.(row, entries, facts) ??
    (WRITING_KINDS.has(kind.name) ? neverSent(row, entries, facts) : undefined)
  )
}

/** The kinds whose first call is a write of the row's own (or its set-up): in read-only mode they send nothing. */
const WRITING_KINDS = new Set(['shape', 'body-keys', 'batch-partial'])

/**
 * A check of a kind that writes, of which a read-only run recorded no call: not judged, as the live check was not,
 * for the write read-only mode does not send (the session refuses it: lib/shop/session.ts).
 */
function neverSent(row: EndpointRow, entries: readonly RecordedEntry[], facts: RecordedRunFacts): Verdict | undefined {
  if (!facts.settings.readOnly || entries.length > 0) return undefined
  const what = allowedInReadOnly(row.method, row.path) ? 'its set-up writes' : `it sends ${endpointText(row)}`
  return {
    status: 'skipped',
    message: `not judged: read-only mode: ${what}, and the recording holds none of its calls`,
    exchanges: [],
    reason: 'read-only',
  }
}

/** Whether `judge --har` can judge the kind again at all (else each of its checks is `not-recorded`). */
export function judgedFromRecording(kind: Check): boolean {
  return isProbeCheck(kind) || Object.hasOwn(RECORDED_JUDGES, kind.name)
}

function isProbeCheck(kind: Check): kind is ProbeCheck {
  return (
    typeof (kind as Partial<ProbeCheck>).probes === 'function' &&
    typeof (kind as Partial<ProbeCheck>).judge === 'function'
  )
}

/** The shape check: the valid call's recorded answer, judged as the live check judges it (shape.ts). */
function recordedShape(
  row: EndpointRow,
  entries: readonly RecordedEntry[],
  facts: RecordedRunFacts,
): Verdict | undefined {
  const valid = entries.find((e) => e.probe === VALID_CALL && e.exchange.request.method === row.method)
  if (valid === undefined) return undefined
  const { probe } = recordedProbe(valid.exchange, facts.reading, valid.caller)
  return {
    ...judgeShapeAnswer(row, probe, carriesOf(valid.carries), probe.noRoute === true),
    exchanges: [valid.exchange],
  }
}
