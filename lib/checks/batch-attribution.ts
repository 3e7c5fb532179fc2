/**
 * Judges the answer of a batch price operation (base price, cost, special price, tier price update, delete,
 * replace). Pure: no network.
 *
 * The spec (§ Errors 1, § Catalog: prices and costs): invalid items are excluded and reported in an array of
 * PriceUpdateResultInterface entries; valid items never appear; a fully valid call returns `[]`. Real entries
 * are not uniform (conventions § Batch prices): `%placeholders` may stay unfilled, positional parameters need
 * not line up with them, an invalid price may be reported as `["Price", "-7.13"]` without the sku. So an
 * entry is attributed to an item by the DISTINCTIVE values it shares with it; every item of a test call must
 * carry its own sku or its own odd value.
 *
 * Matching rules (decisions a reviewer should know):
 * - An entry's values are its `parameters` (a list, or an object of named values; nested values flattened),
 *   the values of any other field, and the text of its `message`. The spec names only "a problem
 *   description": an entry that is an object but not the platform's `{message, parameters}` is a warning.
 * - A parameter matches an item value when equal: numerically when both read as plain numbers
 *   (`-7.13` = `"-7.13"`, and `8` = `"8.0"` = `"8.000000"`: prices are decimals and a target may echo them
 *   padded; hence also an all-digit sku `"0012"` equals the number 12), else as text, case-insensitively,
 *   after trimming. Empty values are ignored.
 * - In the message, a value must appear delimited: not inside a longer number or word. `9917` does not match
 *   `99170`, `0` does not match `10` or `00:00:00`, `7` does not match `-7.13`, `2` does not match
 *   `probe-simple-2`. Numeric values are compared with the message's numbers numerically (`8` matches
 *   `8.00`); other values are found as text, case-insensitively.
 * - Weight of a value: how many items of the call carry it (in any field). A value of exactly one item is
 *   decisive; a value shared by some items counts 1/k; a value all items share counts nothing (with a
 *   single item, its values are decisive). Items are ranked by (decisive values matched, sum of the shared
 *   weights); the single best item takes the entry; a tie for the best → ambiguous; nothing matched →
 *   unattributed.
 */
import { clipJson } from '../base/text.ts'
import { defined } from '../base/defined.ts'
import { entryHas, sameValue, toValue, viewOf, type Value } from './batch-entry-values.ts'

export interface BatchItem {
  index: number
  valid: boolean
  /** The item exactly as sent, e.g. `{sku, price, store_id}`. */
  fields: Record<string, string | number>
}

export interface Attribution {
  /** item index → indexes of entries attributed to it (every item has a key). */
  byItem: Map<number, number[]>
  /** Entries that match no item, or tie between items (those are also in `ambiguous`). */
  unattributed: number[]
  ambiguous: { entry: number; items: number[] }[]
}

export interface BatchJudgement {
  status: 'passed' | 'failed'
  problems: string[]
  /** Not failures: entries that could not be attributed but leave no invalid item uncovered. */
  warnings: string[]
  attribution: Attribution
}

// --- attribution ---------------------------------------------------------------------------------------

interface ItemValues {
  index: number
  values: Value[]
}

function distinctValues(item: BatchItem): Value[] {
  const out: Value[] = []
  for (const raw of Object.values(item.fields)) {
    const v = toValue(raw)
    if (v && !out.some((o) => sameValue(o, v))) out.push(v)
  }
  return out
}

export function attributeEntries(items: BatchItem[], entries: unknown[]): Attribution {
  const seen = new Set<number>()
  for (const it of items) {
    if (seen.has(it.index)) throw new Error(`attributeEntries: two items with index ${it.index}`)
    seen.add(it.index)
  }
  const itemValues: ItemValues[] = items.map((it) => ({ index: it.index, values: distinctValues(it) }))
  const holders = (v: Value): number => itemValues.filter((iv) => iv.values.some((o) => sameValue(o, v))).length
  const n = items.length

  const byItem = new Map<number, number[]>(items.map((it) => [it.index, []]))
  const unattributed: number[] = []
  const ambiguous: Attribution['ambiguous'] = []

  entries.forEach((entry, e) => {
    const view = viewOf(entry)
    const scored = itemValues.map((iv) => {
      let decisive = 0
      let shared = 0
      for (const v of iv.values) {
        if (!entryHas(view, v)) continue
        const k = holders(v)
        if (k === 1) decisive++
        else if (k < n) shared += 1 / k
      }
      return { index: iv.index, decisive, shared }
    })
    const better = (a: (typeof scored)[number], b: (typeof scored)[number]): number =>
      a.decisive - b.decisive || (Math.abs(a.shared - b.shared) < 1e-9 ? 0 : a.shared - b.shared)
    const matched = scored.filter((s) => s.decisive > 0 || s.shared > 0)
    matched.sort((a, b) => better(b, a))
    const best = matched[0]
    if (best === undefined) {
      unattributed.push(e)
      return
    }
    const top = matched.filter((s) => better(s, best) === 0)
    if (top.length > 1) {
      unattributed.push(e)
      ambiguous.push({ entry: e, items: top.map((s) => s.index) })
      return
    }
    defined(byItem.get(best.index), `the entries of item ${best.index} (a list is made for every item)`).push(e)
  })
  return { byItem, unattributed, ambiguous }
}

// --- the judgement ---------------------------------------------------------------------------------------

const QUOTE = 200

function quote(value: unknown): string {
  return clipJson(value, QUOTE)
}

function itemLabel(item: BatchItem): string {
  return `item ${item.index} ${quote(item.fields)}`
}

/** Why an entry is no PriceUpdateResultInterface at all (an interface's value is an object), or undefined. */
function notAnEntry(entry: unknown): string | undefined {
  return entry === null || typeof entry !== 'object' || Array.isArray(entry) ? 'not an object' : undefined
}

/**
 * How an entry differs from the platform's `{message, parameters}`, or undefined. The spec names only "a
 * problem description", not the fields: a warning.
 */
function unlikeThePlatform(entry: unknown): string | undefined {
  if (notAnEntry(entry) !== undefined) return undefined
  const e = entry as Record<string, unknown>
  if (typeof e.message !== 'string') return e.message === undefined ? 'no "message"' : '"message" is not a string'
  // `parameters` may be left out when empty (the platform omits unset fields); otherwise a list or an object.
  if (e.parameters !== undefined && e.parameters !== null && typeof e.parameters !== 'object')
    return '"parameters" is neither a list nor an object'
  return undefined
}

/** What a JSON answer that is not a list is: `null`, `an object`, `a string`… */
function jsonKind(value: unknown): string {
  if (value === null) return 'null'
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`
}

/**
 * The rule on a batch call's answer: a list of result entries, none naming a valid item (nor tying one with others),
 * every invalid item named by one at least; a fully valid call answers `[]`. Entries in another form than the
 * platform's, and entries that match no item or tie invalid ones while every invalid item is named, are warnings.
 */
export function judgeBatchResult(items: BatchItem[], answerBody: unknown): BatchJudgement {
  const invalid = items.filter((it) => !it.valid)
  if (!Array.isArray(answerBody)) return notAList(items, invalid, answerBody)
  const entries: unknown[] = answerBody
  const { problems, warnings } = entryForms(entries)
  const attribution = attributeEntries(items, entries)
  if (invalid.length === 0) {
    problems.push(...allValidAnswered(entries))
    return { status: problems.length > 0 ? 'failed' : 'passed', problems, warnings, attribution }
  }
  const reading = readingOf(items, entries, attribution)
  problems.push(...validItemsNamed(reading))
  // Every invalid item needs at least one entry.
  const uncovered = invalid.filter((item) => (attribution.byItem.get(item.index) ?? []).length === 0)
  problems.push(...uncovered.map((item) => uncoveredProblem(reading, item)))
  warnings.push(...harmlessEntries(reading, uncovered))
  return { status: problems.length > 0 ? 'failed' : 'passed', problems, warnings, attribution }
}

/** An answer that is not a list fails the call; with invalid items, it is the whole call failed instead of them. */
function notAList(items: BatchItem[], invalid: BatchItem[], answerBody: unknown): BatchJudgement {
  const what = answerBody === undefined ? 'no body' : `${jsonKind(answerBody)}: ${quote(answerBody)}`
  const problems = [
    `the answer is not a JSON array of PriceUpdateResultInterface entries but ${what}` +
      (invalid.length > 0
        ? ` — per the spec, invalid items are excluded and reported per item, they do not fail the whole call (invalid: ${invalid.map((it) => `item ${it.index}`).join(', ')})`
        : ''),
  ]
  return {
    status: 'failed',
    problems,
    warnings: [],
    attribution: { byItem: new Map(items.map((it) => [it.index, []])), unattributed: [], ambiguous: [] },
  }
}

/** Each entry's form: not an object fails it; an object unlike the platform's `{message, parameters}` is a warning. */
function entryForms(entries: unknown[]): { problems: string[]; warnings: string[] } {
  const problems: string[] = []
  const warnings: string[] = []
  entries.forEach((entry, e) => {
    const why = notAnEntry(entry)
    if (why) problems.push(`entry ${e} is not a result entry (${why}): ${quote(entry)}`)
    const unlike = unlikeThePlatform(entry)
    if (unlike) warnings.push(`entry ${e} is not in the platform's form (${unlike}): ${quote(entry)}`)
  })
  return { problems, warnings }
}

/** A call of valid items only must answer `[]`. */
function allValidAnswered(entries: unknown[]): string[] {
  if (entries.length === 0) return []
  return [
    `all items are valid, so the answer must be [] but it has ${entries.length} entr${entries.length === 1 ? 'y' : 'ies'}: ${quote(entries)}`,
  ]
}

/** A list answer as the judgement reads it: the call's items, its entries and which item each entry went to. */
interface AnswerReading {
  entries: unknown[]
  attribution: Attribution
  items: BatchItem[]
  byIndex: Map<number, BatchItem>
  /** The entries that match no item (not those that tie items). */
  plainUnattributed: number[]
}

/** The reading's parts each step uses, made once. */
function readingOf(items: BatchItem[], entries: unknown[], attribution: Attribution): AnswerReading {
  const ambiguousOf = new Map(attribution.ambiguous.map((a) => [a.entry, a.items]))
  return {
    entries,
    attribution,
    items,
    byIndex: new Map(items.map((it) => [it.index, it])),
    plainUnattributed: attribution.unattributed.filter((e) => !ambiguousOf.has(e)),
  }
}

/** Valid items must not be reported: an entry attributed to one, or tying items of which one is valid, fails. */
function validItemsNamed({ entries, attribution, items, byIndex }: AnswerReading): string[] {
  const problems: string[] = []
  for (const item of items) {
    if (!item.valid) continue
    for (const e of attribution.byItem.get(item.index) ?? []) {
      problems.push(`entry ${e} ${quote(entries[e])} names valid ${itemLabel(item)}: valid items must not be reported`)
    }
  }
  // An ambiguous entry that could belong to a valid item.
  for (const { entry, items: candidates } of attribution.ambiguous) {
    const valid = candidates.flatMap((i) => {
      const item = byIndex.get(i)
      return item?.valid ? [item] : []
    })
    if (valid.length > 0) {
      problems.push(
        `entry ${entry} ${quote(entries[entry])} matches items ${candidates.join(', ')} equally and could belong to valid ${valid.map(itemLabel).join(', ')}`,
      )
    }
  }
  return problems
}

/** An invalid item no entry was attributed to, with the entries that tie it or match nothing as hints. */
function uncoveredProblem({ entries, attribution, plainUnattributed }: AnswerReading, item: BatchItem): string {
  const couldBe = attribution.ambiguous
    .filter((a) => a.items.includes(item.index))
    .map((a) => `entry ${a.entry} ${quote(entries[a.entry])} (ties items ${a.items.join(', ')})`)
  const loose = plainUnattributed.map((e) => `entry ${e} ${quote(entries[e])}`)
  const hints = [
    couldBe.length > 0 ? `ambiguous: ${couldBe.join('; ')}` : '',
    loose.length > 0 ? `matching no item: ${loose.join('; ')}` : '',
  ].filter(Boolean)
  return `invalid ${itemLabel(item)} has no entry attributed to it${hints.length > 0 ? ` (${hints.join('; ')})` : ''}`
}

/** Entries left over that hurt nothing: noted, not failed. */
function harmlessEntries(
  { entries, attribution, byIndex, plainUnattributed }: AnswerReading,
  uncovered: BatchItem[],
): string[] {
  const warnings: string[] = []
  if (uncovered.length === 0) {
    for (const e of plainUnattributed) warnings.push(`entry ${e} ${quote(entries[e])} matches no item of the call`)
  }
  for (const { entry, items: candidates } of attribution.ambiguous) {
    const harmless = candidates.every((i) => !byIndex.get(i)?.valid && !uncovered.some((u) => u.index === i))
    if (harmless)
      warnings.push(`entry ${entry} ${quote(entries[entry])} matches invalid items ${candidates.join(', ')} equally`)
  }
  return warnings
}
