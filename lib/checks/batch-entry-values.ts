/**
 * The values of a batch call's result entry and of its items, and whether an entry has one of an item's: the
 * matching rules of lib/checks/batch-attribution.ts (its head says them and why), apart from the attribution that
 * weighs them. Pure.
 */

/** A plain decimal number: sign, digits, optional fraction; no exponent (`1e3` stays text). */
const PLAIN_NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/

/** One value of an entry or an item, as matching compares it. */
export interface Value {
  text: string
  /** Set when the value reads as a plain number. */
  num?: number
}

/** A primitive as a value; an empty one is none. */
export function toValue(raw: string | number | boolean): Value | undefined {
  const text = String(raw).trim()
  if (text === '') return undefined
  if (typeof raw === 'number') return Number.isFinite(raw) ? { text, num: raw } : { text }
  return PLAIN_NUMBER.test(text) ? { text, num: Number(text) } : { text }
}

/** Equal numerically when both read as plain numbers, else as text, case-insensitively. */
export function sameValue(a: Value, b: Value): boolean {
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

/** An entry as matching reads it: its values, its message and the message's whole numbers. */
export function viewOf(entry: unknown): EntryView {
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

/** Whether the entry carries the value: among its values, or delimited in its message. */
export function entryHas(view: EntryView, v: Value): boolean {
  if (view.params.some((p) => sameValue(p, v))) return true
  if (v.num !== undefined) return view.numbers.some((n) => n === v.num)
  return containsDelimited(view.messageLower, v.text.toLowerCase())
}
