/**
 * What batch-partial decides, without the network (so each is proven on a real instance's recorded answers):
 * one answer — to a mixed (or all-valid) batch call, to an information call or a cost-delete naming known or
 * unknown skus — and the read-back after a mixed call, what it must have stored, deleted or left alone.
 */
import { isObject } from '../../base/is-object.ts'
import type { Answer } from '../../shop/request.ts'
import { LISTED, serverErrorOf } from '../../shop/server-error.ts'
import { judgeBatchResult } from '../batch-attribution.ts'
import type { PlannedItem, PriceFamily } from './operations.ts'
import { itemName, json, quoteReply } from './quote.ts'
import { fingerprint, normalisePlanned, of, sameSku, sameValues, storedOf } from './stored.ts'

interface MixedJudgement {
  problems: string[]
  warnings: string[]
  /** Set when the call was answered per item (a JSON array). */
  attributed?: Record<number, number[]>
}

/**
 * A server error to a batch call whose success a rule needs (the mixed call, the all-valid one, a call naming only
 * known skus): the spec tables no batch body — the platform's conventions give it —, so the call may be the suite's
 * own reading, and a 5xx is no rule of the spec: not judged (`server-error`), never failed, and the run lists it.
 * Undefined when the answer is no server error.
 */
export function batchServerError(
  what: string,
  answer: Pick<Answer, 'status' | 'body' | 'text'>,
): { reason: 'server-error'; text: string } | undefined {
  const error = serverErrorOf(answer)
  return error === undefined ? undefined : { reason: 'server-error', text: `${what} answered ${error.text}; ${LISTED}` }
}

/**
 * The answer to a batch call with valid and invalid items: a 2xx success whose result entries cover every
 * invalid item and name no valid one (spec § Errors 1). A call refused as a whole fails, quoting the answer.
 */
export function judgeMixedAnswer(items: PlannedItem[], answer: { status: number; body: unknown }): MixedJudgement {
  const invalid = items.filter((it) => !it.valid)
  const valid = items.filter((it) => it.valid)
  if (!(answer.status >= 200 && answer.status < 300)) {
    const problem =
      invalid.length > 0
        ? `the call failed as a whole instead of reporting its invalid items: answered ${quoteReply(answer)} — per the spec (Errors 1) the ${invalid.length} invalid item${invalid.length === 1 ? '' : 's'} (${invalid.map((it) => `item ${it.index}${it.kind !== undefined ? ` ${it.kind}` : ''}`).join(', ')}) ${invalid.length === 1 ? 'is' : 'are'} excluded and reported as result entries, and the ${valid.length} valid one${valid.length === 1 ? '' : 's'} applied`
        : `the call failed as a whole: answered ${quoteReply(answer)} — per the spec (Errors 1) a call whose items are all valid applies them and answers []`
    return {
      problems: [problem],
      warnings: [],
    }
  }
  const j = judgeBatchResult(items, answer.body)
  const kinds = new Map(items.map((it) => [it.index, it.kind]))
  // Name each item's kind in the judgement's words: "invalid item 3 {…}" → "invalid item 3 (invalid price) {…}".
  const named = (text: string): string =>
    text.replace(/\bitem (\d+) (?=[{\[])/g, (m, i: string) =>
      kinds.get(Number(i)) !== undefined ? `item ${i} (${kinds.get(Number(i))}) ` : m,
    )
  return {
    problems: j.problems.map(named),
    warnings: j.warnings.map(named),
    ...(Array.isArray(answer.body) ? { attributed: Object.fromEntries(j.attribution.byItem) } : {}),
  }
}

/**
 * The answer to an information call or a cost-delete that names only known skus: a 2xx success; an
 * information call's list has entries for every sku asked for. Undefined when it is right — or when there is
 * no list to look in: what these calls return is not shown by the spec, so the caller reports that answer not
 * judged, and a cost-delete's read-back, not its answer, tells whether the costs went.
 */
export function judgeKnownSkusAnswer(
  kind: 'information' | 'cost-delete',
  skus: string[],
  answer: { status: number; body: unknown },
): string | undefined {
  if (!(answer.status >= 200 && answer.status < 300))
    return `a call naming only known skus (${skus.join(', ')}) answered ${quoteReply(answer)}, not a success`
  if (kind === 'cost-delete' || !Array.isArray(answer.body)) return undefined
  const body = answer.body as unknown[]
  const missing = skus.filter((s) => !body.some((e) => isObject(e) && typeof e.sku === 'string' && sameSku(e.sku, s)))
  if (missing.length > 0)
    return `asked for the prices of ${skus.join(', ')} (all stored), the answer has no entry for ${missing.join(', ')}: ${json(body)}`
  return undefined
}

/**
 * The answer to an information call or a cost-delete naming at least one unknown sku: an error (spec
 * § Errors 2: "raise an exception"; the status is not shown, so any 4xx/5xx). Undefined when it is right.
 */
export function judgeUnknownSkuAnswer(
  kind: 'information' | 'cost-delete',
  skus: string[],
  unknown: string[],
  answer: { status: number; body: unknown },
): string | undefined {
  if (answer.status >= 400) return undefined
  const named = `naming the unknown sku${unknown.length === 1 ? '' : 's'} ${unknown.join(', ')}${skus.length > unknown.length ? ` beside the known ${skus.filter((s) => !unknown.some((u) => sameSku(u, s))).join(', ')}` : ''}`
  const rule = 'per the spec (Errors 2) a call naming an unknown sku raises an exception'
  if (answer.status < 200 || answer.status >= 300)
    return `a ${kind === 'cost-delete' ? 'cost-delete' : 'call'} ${named} answered ${quoteReply(answer)}, not an error: ${rule}`
  if (kind === 'cost-delete') {
    return `the target dropped the unknown sku instead of raising: a cost-delete ${named} answered ${quoteReply(answer)}; ${rule}`
  }
  const body = Array.isArray(answer.body) ? (answer.body as unknown[]) : undefined
  const echoed =
    body !== undefined &&
    unknown.some((u) => body.some((e) => isObject(e) && typeof e.sku === 'string' && sameSku(e.sku, u)))
  if (body !== undefined && !echoed) {
    return `the target dropped the unknown sku instead of raising: a call ${named} answered ${quoteReply(answer)}, silently leaving ${unknown.length === 1 ? 'it' : 'them'} out; ${rule}`
  }
  return `a call ${named} answered ${quoteReply(answer)} instead of raising an exception; ${rule}`
}

/**
 * What the read-back (information call of the known skus) must show after a mixed call: valid items applied
 * (deleted; for a replace, the skus' other tiers gone), invalid items' skus as they were before. `before`
 * and `after` are the information answers' entries. Pure.
 */
export function judgeReadBack(
  op: 'update' | 'delete' | 'replace',
  family: PriceFamily,
  items: PlannedItem[],
  beforeEntries: unknown[],
  afterEntries: unknown[],
): string[] {
  const before = storedOf(family, beforeEntries)
  const after = storedOf(family, afterEntries)
  const problems: string[] = []
  const verb = op === 'delete' ? 'deleted' : 'stored'
  for (const it of items.filter((i) => i.valid)) {
    const want = normalisePlanned(family, it.fields)
    const got = of(after, want.sku).find((s) => s.key === want.key)
    if (op === 'delete') {
      if (got !== undefined) problems.push(`valid ${itemName(it)} was not deleted: read back ${json(got.raw)}`)
    } else if (got === undefined) {
      problems.push(
        `valid ${itemName(it)} was not ${verb}: read back ${of(after, want.sku).length === 0 ? `nothing for sku ${want.sku}` : `for sku ${want.sku} only ${json(of(after, want.sku).map((s) => s.raw))}`}`,
      )
    } else if (!sameValues(got.values, want.values)) {
      problems.push(`valid ${itemName(it)} was not ${verb}: read back ${json(got.raw)}`)
    }
  }
  if (op === 'replace') {
    // Tier prices of the replaced skus that are not in the call must be gone.
    const validOf = (sku: string) =>
      items.filter((i) => i.valid && sameSku(String(i.fields.sku), sku)).map((i) => normalisePlanned(family, i.fields))
    for (const sku of new Set(items.filter((i) => i.valid).map((i) => String(i.fields.sku)))) {
      const keep = validOf(sku)
      const stale = of(after, sku).filter((s) => !keep.some((k) => k.key === s.key))
      if (stale.length > 0)
        problems.push(
          `the replace left tier prices of sku ${sku} that are not in the call: ${json(stale.map((s) => s.raw))} (the spec: replace "removes existing tier prices and sets the new ones")`,
        )
    }
  }
  const validSkus = items.filter((i) => i.valid).map((i) => String(i.fields.sku))
  for (const it of items.filter((i) => !i.valid)) {
    const sku = String(it.fields.sku)
    // (An unknown sku is not read back: its before and after are both empty.)
    if (validSkus.some((s) => sameSku(s, sku))) continue
    const was = of(before, sku)
    const now = of(after, sku)
    if (fingerprint(was) !== fingerprint(now)) {
      problems.push(
        `invalid ${itemName(it)} was applied: sku ${sku} read back ${json(now.map((s) => s.raw))} where it had ${json(was.map((s) => s.raw))}`,
      )
    }
  }
  return problems
}
