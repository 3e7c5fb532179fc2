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

// --- values --------------------------------------------------------------------------------------------

/** A plain decimal number: sign, digits, optional fraction; no exponent (`1e3` stays text). */
const PLAIN_NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/

interface Value {
  text: string
  /** Set when the value reads as a plain number. */
  num?: number
}

function toValue(raw: string | number | boolean): Value | undefined {
  const text = String(raw).trim()
  if (text === '') return undefined
  if (typeof raw === 'number') return Number.isFinite(raw) ? { text, num: raw } : { text }
  return PLAIN_NUMBER.test(text) ? { text, num: Number(text) } : { text }
}

function sameValue(a: Value, b: Value): boolean {
  if (a.num !== undefined && b.num !== undefined) return a.num === b.num
  if (a.num !== undefined || b.num !== undefined) return false
  return a.text.toLowerCase() === b.text.toLowerCase()
}

/** Primitive values of `parameters` (list or object), nested ones flattened. */
function parameterValues(parameters: unknown, out: Value[] = []): Value[] {
  if (parameters === null || parameters === undefined) return out
  if (typeof parameters === 'string' || typeof parameters === 'number' || typeof parameters === 'boolean') {
    const v = toValue(parameters)
    if (v) out.push(v)
    return out
  }
  if (typeof parameters === 'object') for (const p of Object.values(parameters)) parameterValues(p, out)
  return out
}

const WORD = /[A-Za-z0-9_]/
const DIGIT = /[0-9]/

/**
 * Whether the character at `at` (next to a token whose edge character is `edge`) continues that token,
 * `beyond` being the character after it, away from the token. A word character always does; `-` and `.`
 * do between word characters (`probe-simple-2`, `7.13`); `:` does between digits (`00:00:00`).
 */
function joined(text: string, at: number, beyond: number, edge: string): boolean {
  const c = text[at]
  if (c === undefined) return false
  if (WORD.test(c)) return true
  const d = text[beyond]
  if (d === undefined) return false
  if (c === '-' || c === '.') return WORD.test(d) && WORD.test(edge)
  if (c === ':') return DIGIT.test(d) && DIGIT.test(edge)
  return false
}

/** Whether `needle` occurs in `haystack` (both lower-cased by the caller) as a whole token. */
function containsDelimited(haystack: string, needle: string): boolean {
  if (needle === '') return false
  for (let i = haystack.indexOf(needle); i !== -1; i = haystack.indexOf(needle, i + 1)) {
    const end = i + needle.length
    if (
      !joined(haystack, i - 1, i - 2, needle.charAt(0)) &&
      !joined(haystack, end, end + 1, needle.charAt(needle.length - 1))
    )
      return true
  }
  return false
}

/**
 * The numbers of a message, whole: `-7.13` (with its sign), `9917`; not the parts of `99170`,
 * `probe-simple-2`, `2027-01-01` or `00:00:00`.
 */
function messageNumbers(message: string): number[] {
  const out: number[] = []
  const re = /-?\d+(?:\.\d+)?/g
  for (let m = re.exec(message); m !== null; m = re.exec(message)) {
    const token = m[0]
    const start = m.index
    const end = start + token.length
    // `-2` in `sku-2`: the '-' follows a word character, so the token is joined and skipped.
    if (
      joined(message, start - 1, start - 2, token.charAt(0)) ||
      joined(message, end, end + 1, token.charAt(token.length - 1))
    )
      continue
    out.push(Number(token))
  }
  return out
}

interface EntryView {
  params: Value[]
  message: string
  messageLower: string
  numbers: number[]
}

function viewOf(entry: unknown): EntryView {
  const e =
    entry !== null && typeof entry === 'object' && !Array.isArray(entry) ? (entry as Record<string, unknown>) : {}
  const message = typeof e.message === 'string' ? e.message : ''
  // Fields beside the platform's two (the spec does not show PriceUpdateResultInterface's) are values too.
  const { message: _m, parameters, ...others } = e
  return {
    params: parameterValues(others, parameterValues(parameters)),
    message,
    messageLower: message.toLowerCase(),
    numbers: messageNumbers(message),
  }
}

function entryHas(view: EntryView, v: Value): boolean {
  if (view.params.some((p) => sameValue(p, v))) return true
  if (v.num !== undefined) return view.numbers.some((n) => n === v.num)
  return containsDelimited(view.messageLower, v.text.toLowerCase())
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

export function judgeBatchResult(items: BatchItem[], answerBody: unknown): BatchJudgement {
  const problems: string[] = []
  const warnings: string[] = []
  const invalid = items.filter((it) => !it.valid)

  if (!Array.isArray(answerBody)) {
    const what = answerBody === undefined ? 'no body' : `${jsonKind(answerBody)}: ${quote(answerBody)}`
    problems.push(
      `the answer is not a JSON array of PriceUpdateResultInterface entries but ${what}` +
        (invalid.length > 0
          ? ` — per the spec, invalid items are excluded and reported per item, they do not fail the whole call (invalid: ${invalid.map((it) => `item ${it.index}`).join(', ')})`
          : ''),
    )
    return {
      status: 'failed',
      problems,
      warnings,
      attribution: { byItem: new Map(items.map((it) => [it.index, []])), unattributed: [], ambiguous: [] },
    }
  }

  const entries: unknown[] = answerBody
  entries.forEach((entry, e) => {
    const why = notAnEntry(entry)
    if (why) problems.push(`entry ${e} is not a result entry (${why}): ${quote(entry)}`)
    const unlike = unlikeThePlatform(entry)
    if (unlike) warnings.push(`entry ${e} is not in the platform's form (${unlike}): ${quote(entry)}`)
  })

  const attribution = attributeEntries(items, entries)

  if (invalid.length === 0) {
    if (entries.length > 0)
      problems.push(
        `all items are valid, so the answer must be [] but it has ${entries.length} entr${entries.length === 1 ? 'y' : 'ies'}: ${quote(entries)}`,
      )
    return { status: problems.length > 0 ? 'failed' : 'passed', problems, warnings, attribution }
  }

  const byIndex = new Map(items.map((it) => [it.index, it]))
  const ambiguousOf = new Map(attribution.ambiguous.map((a) => [a.entry, a.items]))
  const plainUnattributed = attribution.unattributed.filter((e) => !ambiguousOf.has(e))

  // No entry may be attributed to a valid item.
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
  // Every invalid item needs at least one entry.
  const uncovered = invalid.filter((item) => (attribution.byItem.get(item.index) ?? []).length === 0)
  for (const item of uncovered) {
    const couldBe = attribution.ambiguous
      .filter((a) => a.items.includes(item.index))
      .map((a) => `entry ${a.entry} ${quote(entries[a.entry])} (ties items ${a.items.join(', ')})`)
    const loose = plainUnattributed.map((e) => `entry ${e} ${quote(entries[e])}`)
    const hints = [
      couldBe.length > 0 ? `ambiguous: ${couldBe.join('; ')}` : '',
      loose.length > 0 ? `matching no item: ${loose.join('; ')}` : '',
    ].filter(Boolean)
    problems.push(
      `invalid ${itemLabel(item)} has no entry attributed to it${hints.length > 0 ? ` (${hints.join('; ')})` : ''}`,
    )
  }
  // Entries left over that hurt nothing: noted, not failed.
  if (uncovered.length === 0) {
    for (const e of plainUnattributed) warnings.push(`entry ${e} ${quote(entries[e])} matches no item of the call`)
  }
  for (const { entry, items: candidates } of attribution.ambiguous) {
    const harmless = candidates.every((i) => !byIndex.get(i)?.valid && !uncovered.some((u) => u.index === i))
    if (harmless)
      warnings.push(`entry ${entry} ${quote(entries[entry])} matches invalid items ${candidates.join(', ')} equally`)
  }
  return { status: problems.length > 0 ? 'failed' : 'passed', problems, warnings, attribution }
}
