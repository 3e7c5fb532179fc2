/**
 * Judges one response body against what the spec says of its shape. Pure: no network, no state beyond the
 * compiled schemas.
 *
 * What a verdict rests on (spec § Resources and their fields, the detail table; conventions § Values as the
 * platform sends them):
 * - A present, non-null value of the wrong type fails; the failure names the JSON pointer, the expected type
 *   and the (clipped) value seen: `/items/0/qty: expected number, got string "2"`.
 * - A listed field that is absent or null does not fail (the platform omits unset fields, sends some as null).
 * - A field the spec does not list is a warning, one per object path, never a failure.
 * - The spec's `number` does not separate integer from decimal.
 * - `int`: a JSON integer passes; an unsigned digit string (`"12"`) passes with a warning, because the
 *   platform itself sends ids that way; a signed string (`"-3"`) is NOT tolerated (the platform's ids are
 *   positive, and the tolerance is for that encoding only), nor `""`, decimals, objects, arrays, null,
 *   booleans or no body. A JSON integer written `12.0` parses to 12 and cannot be told apart: it passes.
 * - `not-shown` is `skipped` with its reason, never `passed`; a missing body fails every other expectation.
 * - An object of a tabled type that carries none of its tabled fields (`{}`, or only nulls and
 *   `extension_attributes`) fails: absent fields pass one by one, but an answer with none of them is no such
 *   resource. For a type the spec names without fields ("field lists not shown": CategoryInterface,
 *   GroupInterface, TaxRateInterface, …) no field can be asked for by name, so the only claim is that an object
 *   without any value is no resource: `{}` fails, any object with a value passes.
 */
import { Ajv, type ErrorObject, type SchemaObject, type ValidateFunction } from 'ajv'
import { clip, clipJson } from '../base/text.ts'
import { TABLED_SHAPES, type ShapeName } from '../spec/shapes.ts'
import { TABLED_TYPES } from '../spec/tabled.ts'
import type { EndpointRow } from '../spec/types.ts'
import { isObject } from '../base/is-object.ts'
import { endpointText } from '../spec/endpoint-id.ts'

export type Expectation =
  | { kind: 'tabled'; shape: keyof typeof TABLED_SHAPES }
  | { kind: 'int' }
  | { kind: 'bool' }
  | { kind: 'string' }
  | { kind: 'array'; items?: Expectation }
  | { kind: 'object'; typeName?: string }
  | { kind: 'not-shown'; reason: string }

export interface ShapeJudgement {
  status: 'passed' | 'failed' | 'skipped'
  failures: string[]
  warnings: string[]
  /** Why the body was not judged; set exactly when `status` is `skipped`. */
  reason?: string
}

// --- compiled schemas: one Ajv, built once, on first use -----------------------------------------------

let validators: ReadonlyMap<ShapeName, ValidateFunction> | undefined
let compilations = 0

function validatorFor(name: ShapeName): ValidateFunction {
  if (!validators) {
    const ajv = new Ajv({ allErrors: true, strict: true })
    const built = new Map<ShapeName, ValidateFunction>()
    for (const [n, schema] of Object.entries(TABLED_SHAPES) as [ShapeName, SchemaObject][])
      built.set(n, ajv.compile(schema))
    compilations++
    validators = built
  }
  const v = validators.get(name)
  if (!v) throw new Error(`judgeShape: no schema named ${String(name)}`)
  return v
}

/** How many times the schemas were compiled in this process (diagnostic; stays 1 after first use). */
export function schemaCompilations(): number {
  return compilations
}

// --- messages ------------------------------------------------------------------------------------------

/** How many of a judgement's failures a message names: a wrong type on every field would fill a console page. */
const FAILURES_NAMED = 5

/** `a; b; c; d; e (and 47 more)`: the first failures of a judgement, in a message; the rest are counted. */
export function failuresText(failures: readonly string[]): string {
  const more = failures.length - FAILURES_NAMED
  return `${failures.slice(0, FAILURES_NAMED).join('; ')}${more > 0 ? ` (and ${more} more)` : ''}`
}

const CLIP = 60

function jsonType(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  return typeof value
}

/** `string "2"`, `number 12.5`, `null`, `object {"a":1}`, `nothing` — clipped. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing'
  if (value === null) return 'null'
  return `${jsonType(value)} ${clipJson(value, CLIP)}`
}

/** A JSON pointer as shown in messages; the whole body is `(root)`. */
function where(pointer: string): string {
  return pointer === '' ? '(root)' : pointer
}

function escapeToken(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1')
}

function resolvePointer(root: unknown, pointer: string): unknown {
  if (pointer === '') return root
  let node: unknown = root
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~')
    if (node === null || typeof node !== 'object') return undefined
    node = (node as Record<string, unknown>)[key]
  }
  return node
}

function labelOf(expectation: Expectation): string {
  switch (expectation.kind) {
    case 'tabled':
      return String(TABLED_SHAPES[expectation.shape].title)
    case 'int':
      return 'int'
    case 'bool':
      return 'bool'
    case 'string':
      return 'string'
    case 'array':
      return expectation.items ? `array of ${labelOf(expectation.items)}` : 'array'
    case 'object':
      return expectation.typeName ? `object (${expectation.typeName})` : 'object'
    case 'not-shown':
      return 'not shown'
  }
}

/** An Ajv error as a failure; `value` is the judged value, found at `pointer` in the body. */
function schemaFailure(error: ErrorObject, value: unknown, pointer: string): string {
  const at = where(pointer + error.instancePath)
  const seen = describeValue(resolvePointer(value, error.instancePath))
  if (error.keyword === 'type') {
    const raw = (error.params as { type?: unknown }).type
    const types = (Array.isArray(raw) ? raw.map(String) : String(raw).split(',')).filter((t) => t !== 'null')
    return `${at}: expected ${types.join(' or ')}, got ${seen}`
  }
  return `${at}: ${error.message ?? error.keyword}, got ${seen}`
}

/** One warning per object whose fields the spec does not list (walks listed nested objects and arrays). */
function unlistedFields(schema: SchemaObject, value: unknown, pointer: string, out: string[]): void {
  const props = schema.properties as Record<string, SchemaObject> | undefined
  if (props && isObject(value)) {
    const extra = Object.keys(value).filter((k) => !Object.hasOwn(props, k))
    if (extra.length > 0) out.push(`fields the spec does not list: ${where(pointer)}: ${extra.join(', ')}`)
    for (const [k, sub] of Object.entries(props)) {
      if (Object.hasOwn(value, k)) unlistedFields(sub, value[k], `${pointer}/${escapeToken(k)}`, out)
    }
    return
  }
  const items = schema.items as SchemaObject | undefined
  if (items && typeof items === 'object' && !Array.isArray(items) && Array.isArray(value)) {
    value.forEach((el, i) => unlistedFields(items, el, `${pointer}/${i}`, out))
  }
}

// --- the judgement -------------------------------------------------------------------------------------

/**
 * Whether the object has a non-null value under one of `names` (any name when not given); `extension_attributes` is
 * no data of the type.
 */
function carriesAny(value: Record<string, unknown>, names?: readonly string[]): boolean {
  return Object.entries(value).some(
    ([k, v]) =>
      v !== null && v !== undefined && k !== 'extension_attributes' && (names === undefined || names.includes(k)),
  )
}

/**
 * One failure per object of a tabled shape (the answer, a credit memo item, …) that carries none of its tabled
 * fields.
 */
function emptyResources(schema: SchemaObject, value: unknown, pointer: string, out: string[]): void {
  const props = schema.properties as Record<string, SchemaObject> | undefined
  if (props && isObject(value)) {
    if (!carriesAny(value, Object.keys(props))) {
      out.push(
        `${where(pointer)}: ${describeValue(value)} carries none of the fields the spec tables for ${String(schema.title ?? 'this object')}: not such a resource`,
      )
      return
    }
    for (const [k, sub] of Object.entries(props))
      if (Object.hasOwn(value, k)) emptyResources(sub, value[k], `${pointer}/${escapeToken(k)}`, out)
    return
  }
  const items = schema.items as SchemaObject | undefined
  if (items && typeof items === 'object' && !Array.isArray(items) && Array.isArray(value))
    value.forEach((el, i) => emptyResources(items, el, `${pointer}/${i}`, out))
}

const DIGITS = /^[0-9]+$/

/**
 * The value at `pointer` judged against its expectation, each failure and warning pushed in the order found; an
 * array's items are judged in turn.
 */
function judgeAt(
  value: unknown,
  expectation: Expectation,
  pointer: string,
  failures: string[],
  warnings: string[],
): void {
  const at = where(pointer)
  switch (expectation.kind) {
    case 'not-shown':
      return
    case 'tabled':
      judgeTabled(value, expectation.shape, pointer, failures, warnings)
      return
    case 'int':
      judgeInt(value, at, failures, warnings)
      return
    case 'bool':
      if (typeof value === 'boolean') return
      failures.push(
        `${at}: expected boolean (JSON true or false), got ${describeValue(value)}${typeof value === 'number' || typeof value === 'string' ? ' (not a JSON boolean)' : ''}`,
      )
      return
    case 'string':
      if (typeof value === 'string') return
      failures.push(`${at}: expected string, got ${describeValue(value)}`)
      return
    case 'array':
      judgeArray(value, expectation.items, pointer, failures, warnings)
      return
    case 'object':
      judgeObject(value, expectation.typeName, at, failures)
      return
  }
}

/**
 * A tabled shape: the schema's failures, or — valid — an object of it carrying none of its fields; a field the spec
 * does not list is a warning either way.
 */
function judgeTabled(value: unknown, shape: ShapeName, pointer: string, failures: string[], warnings: string[]): void {
  const validate = validatorFor(shape)
  if (!validate(value)) for (const e of validate.errors ?? []) failures.push(schemaFailure(e, value, pointer))
  else emptyResources(TABLED_SHAPES[shape], value, pointer, failures)
  unlistedFields(TABLED_SHAPES[shape], value, pointer, warnings)
}

/** An int: a JSON integer; an unsigned digit string passes with a warning (the platform's ids), a signed one not. */
function judgeInt(value: unknown, at: string, failures: string[], warnings: string[]): void {
  if (typeof value === 'number' && Number.isInteger(value)) return
  if (typeof value === 'string' && DIGITS.test(value)) {
    warnings.push(
      `${at}: int sent as the digit string ${JSON.stringify(clip(value, CLIP))} (the platform sends some ids this way; accepted)`,
    )
    return
  }
  if (typeof value === 'string' && /^-[0-9]+$/.test(value)) {
    failures.push(
      `${at}: expected int, got ${describeValue(value)} (only an unsigned digit string is tolerated in place of an int)`,
    )
    return
  }
  failures.push(`${at}: expected int, got ${describeValue(value)}`)
}

/** An array (an object with numeric keys is none), each item judged against the items' expectation when given. */
function judgeArray(
  value: unknown,
  items: Expectation | undefined,
  pointer: string,
  failures: string[],
  warnings: string[],
): void {
  if (!Array.isArray(value)) {
    const numericKeys =
      isObject(value) && Object.keys(value).length > 0 && Object.keys(value).every((k) => DIGITS.test(k))
    failures.push(
      `${where(pointer)}: expected array, got ${describeValue(value)}${numericKeys ? ' (an object with numeric keys is not an array)' : ''}`,
    )
    return
  }
  if (items) value.forEach((el, i) => judgeAt(el, items, `${pointer}/${i}`, failures, warnings))
}

/** An object; of a type named without fields, one that carries some value (an empty one is no such resource). */
function judgeObject(value: unknown, typeName: string | undefined, at: string, failures: string[]): void {
  if (!isObject(value)) {
    failures.push(`${at}: expected object${typeName ? ` (${typeName})` : ''}, got ${describeValue(value)}`)
  } else if (typeName !== undefined && !carriesAny(value)) {
    failures.push(`${at}: ${describeValue(value)} carries no value at all: an empty object is no ${typeName}`)
  }
}

export function judgeShape(value: unknown, expectation: Expectation): ShapeJudgement {
  if (expectation.kind === 'not-shown')
    return { status: 'skipped', failures: [], warnings: [], reason: expectation.reason }
  if (value === undefined)
    return { status: 'failed', failures: [`no body (expected ${labelOf(expectation)})`], warnings: [] }
  const failures: string[] = []
  const warnings: string[] = []
  judgeAt(value, expectation, '', failures, warnings)
  return { status: failures.length > 0 ? 'failed' : 'passed', failures, warnings }
}

// --- from a catalog row to an expectation ----------------------------------------------------------------

export const NOT_SHOWN_REASON = "the spec does not show this endpoint's response"

/** § Resources and their fields › Other contract types named only: "field lists not shown". */
const NAMED_ONLY: ReadonlySet<string> = new Set([
  'ProductTierPriceInterface',
  'CategoryInterface',
  'GroupInterface',
  'TaxRateInterface',
  'ShippingMethodInterface',
  'LatLngInterface',
  'SearchResultInterface',
  'SearchCriteriaInterface',
  'PaymentInterface',
  'AddressInterface',
  'PriceUpdateResultInterface',
  'CostInterface',
  'SourceItemConfigurationInterface',
])

function baseExpectation(base: string): Expectation | undefined {
  if (base === 'int') return { kind: 'int' }
  if (base === 'bool' || base === 'boolean') return { kind: 'bool' }
  if (base === 'string') return { kind: 'string' }
  const tabled = TABLED_TYPES[base]
  if (tabled) return { kind: 'tabled', shape: tabled }
  if (NAMED_ONLY.has(base)) return { kind: 'object', typeName: base }
  return undefined
}

/**
 * The expectation for a catalog row, from `row.returns` as the catalog stores it: a base type, optionally
 * `[]`, optionally followed by a parenthesised note (`int (address ID)`, `AttributeSetInterface (saved set)`).
 * Rows without `returns` are `not-shown`, except reads whose row names the tabled shape they load (`answer`:
 * "loads a credit memo", "billing address of a quote"). An unknown return text throws, so that a new catalog
 * row cannot go unchecked silently.
 */
export function expectationFor(row: Pick<EndpointRow, 'method' | 'path' | 'returns' | 'answer'>): Expectation {
  if (row.returns === undefined) {
    return row.answer !== undefined
      ? { kind: 'tabled', shape: row.answer }
      : { kind: 'not-shown', reason: NOT_SHOWN_REASON }
  }
  const m = /^([A-Za-z][A-Za-z0-9_]*)(\[\])?(?: \([^()]+\))?$/.exec(row.returns.trim())
  const base = m?.[1] !== undefined ? baseExpectation(m[1]) : undefined
  if (!m || !base)
    throw new Error(`expectationFor: unknown return type ${JSON.stringify(row.returns)} of ${endpointText(row)}`)
  return m[2] ? { kind: 'array', items: base } : base
}
