/**
 * The shop's published schema compared with the spec: spec endpoints it does not declare, declared access classes
 * that differ from the spec's, declared field types of the tabled shapes that contradict the spec's, and declared
 * body keys that differ from the detail table's. Each finding names the spec endpoint, what the schema declares,
 * what the spec says and the spec's words. The spec does not mention a published schema: a finding here is
 * information about the shop, never part of the spec's certification.
 */
import type { SchemaFindingRecord } from '../results/schema-block.ts'
import { CATALOG, rowId } from '../spec/catalog/index.ts'
import {
  ACCESS_RULES,
  BODY_KEYS_RULES,
  ROUTE_RULES,
  SHAPE_RULES,
  TABLED_TYPE_WORDS,
  requiredWords,
} from '../spec/rules.ts'
import { TABLED_SHAPES, type ShapeName } from '../spec/shapes.ts'
import { TABLED_BODY_KEYS, TABLED_TYPES } from '../spec/tabled.ts'
import type { AccessClass, EndpointRow } from '../spec/types.ts'
import { accessUnknownBecause, declaredAccess, operationKey, ownsByPath, resolveRef } from './read.ts'
import type { DeclaredOperation, DeclaredSchema, SwaggerSchema } from './read.ts'
import { isObject } from '../base/is-object.ts'

export type FindingKind =
  | 'undeclared-spec-endpoint'
  | 'access-class-differs'
  | 'field-type-contradicts'
  | 'body-keys-differ'

/** A finding as the report's `schema` block records it (lib/results/schema-block.ts), of one of the kinds above. */
export interface SchemaFinding extends SchemaFindingRecord {
  kind: FindingKind
}

export interface SchemaComparison {
  findings: SchemaFinding[]
  /** The kinds that could not be compared, and why (e.g. the customer's schema was not read). */
  notJudged: { kind: FindingKind; reason: string }[]
  /** How many spec endpoints were looked for, and how many of them the schema declares. */
  specEndpoints: number
  declaredSpecEndpoints: number
}

export interface CompareOptions {
  /** The path the shop serves for a spec path (the configured path aliases); default: the spec's own path. */
  targetPath?: (specPath: string) => string
  /** The spec endpoints to compare; default: the whole catalog. */
  rows?: readonly EndpointRow[]
}

const ACCESS_WORDS: Readonly<Record<AccessClass, string>> = { admin: 'admin', self: 'self', anon: 'anon' }
const LISTED_FOR: Readonly<Record<AccessClass, string>> = {
  anon: 'anonymous callers',
  self: 'customers, not anonymous callers',
  admin: 'admins only',
}

/** The spec endpoints the schema maps onto: operation key (the target's path) → the declared operation. */
function declaredBySpecRow(
  schema: DeclaredSchema,
  rows: readonly EndpointRow[],
  targetPath: (p: string) => string,
): Map<EndpointRow, DeclaredOperation> {
  const byKey = new Map(schema.operations.map((op) => [operationKey(op.method, op.path), op]))
  const found = new Map<EndpointRow, DeclaredOperation>()
  for (const row of rows) {
    const op = byKey.get(operationKey(row.method, targetPath(row.path)))
    if (op !== undefined) found.set(row, op)
  }
  return found
}

export function compareWithSpec(schema: DeclaredSchema, options: CompareOptions = {}): SchemaComparison {
  const rows = options.rows ?? CATALOG
  const declared = declaredBySpecRow(schema, rows, options.targetPath ?? ((p) => p))
  const findings: SchemaFinding[] = []
  const notJudged: SchemaComparison['notJudged'] = []

  // A spec endpoint is "undeclared" only if every schema that could list it was read: an admin may use every class.
  const wholeSchema = schema.views.length === 0 || schema.views.includes('admin')
  if (!wholeSchema)
    notJudged.push({
      kind: 'undeclared-spec-endpoint',
      reason: "the admin's schema was not read: an operation only an admin may use is in no other caller's schema",
    })
  const accessUnknown = accessUnknownBecause(schema.views)
  if (accessUnknown !== undefined) notJudged.push({ kind: 'access-class-differs', reason: accessUnknown })

  for (const row of rows) {
    const op = declared.get(row)
    const id = rowId(row)
    if (op === undefined) {
      if (wholeSchema) findings.push(undeclared(row, schema))
      continue
    }
    const access = declaredAccess(op, schema.views)
    if (access !== undefined && access !== row.access) {
      findings.push({
        kind: 'access-class-differs',
        operation: id,
        declared: ACCESS_WORDS[access],
        spec: ACCESS_WORDS[row.access],
        section: 'Authentication',
        specWords: ACCESS_RULES[row.access].specWords,
        message:
          access === 'admin' && row.access === 'self' && ownsByPath(row.path)
            ? `${id}: the shop's schema lists it for admins only, the platform's known way of publishing a \`mine\` method that also has an admin route (its webapi.xml); the spec's access class is self, and the suite checks it as self`
            : `${id}: the shop's schema lists it for ${LISTED_FOR[access]} (declared ${access}); the spec's access class is ${row.access}`,
      })
    }
    const keys = bodyKeysFinding(row, op)
    if (keys !== undefined) findings.push(keys)
    findings.push(...fieldTypeFindings(row, op, schema.definitions))
  }
  return { findings, notJudged, specEndpoints: rows.length, declaredSpecEndpoints: declared.size }
}

function undeclared(row: EndpointRow, schema: DeclaredSchema): SchemaFinding {
  const id = rowId(row)
  const read =
    schema.views.length === 0
      ? 'the schema read'
      : `the schemas read (${schema.views.map((v) => (v === 'anon' ? 'anonymous' : v)).join(', ')})`
  return {
    kind: 'undeclared-spec-endpoint',
    operation: id,
    declared: 'not declared',
    spec: 'listed',
    section: row.sections[0] ?? 'Endpoints',
    specWords: ROUTE_RULES.served.specWords,
    message: `${id}: a spec endpoint that ${read} ${schema.views.length > 1 ? 'do' : 'does'} not declare`,
  }
}

// --- body keys ------------------------------------------------------------------------------------------

/**
 * Keys a `mine` path's token may supply: "A customer token works when the caller owns the resource (paths with
 * `mine`)" — on such a path the caller's own cart or account is named by the token, so a schema that takes the
 * detail table's `cartId` from there rather than from the body is a reading the spec allows (the platform's
 * `POST /V1/carts/mine/estimate-shipping-methods` declares only `address`). Both readings pass.
 */
const MINE_TOKEN_KEYS = new Set(['cartId', 'customerId'])
const tokenMaySupply = (row: EndpointRow, key: string) =>
  row.path.split('/').includes('mine') && MINE_TOKEN_KEYS.has(key)

function bodyKeysFinding(row: EndpointRow, op: DeclaredOperation): SchemaFinding | undefined {
  const params = (row.params ?? []).filter((p) => p.in === 'body')
  if (params.length === 0) return undefined
  const specKeys = params.map((p) => p.name)
  const declaredKeys = op.bodyKeys ?? []
  const missing = specKeys.filter((k) => !declaredKeys.includes(k) && !tokenMaySupply(row, k))
  const extra = declaredKeys.filter((k) => !specKeys.includes(k))
  if (missing.length === 0 && extra.length === 0) return undefined
  const id = rowId(row)
  const list = (keys: readonly string[]) => (keys.length === 0 ? 'none' : keys.map((k) => `\`${k}\``).join(', '))
  const what = [
    missing.length > 0 ? `without ${list(missing)}` : '',
    extra.length > 0 ? `with ${list(extra)}, which the spec does not name` : '',
  ].filter((s) => s !== '')
  return {
    kind: 'body-keys-differ',
    operation: id,
    declared: op.bodyKeys === undefined ? 'no body parameter' : list(declaredKeys),
    spec: list(specKeys),
    section: row.sections[0] ?? 'Endpoints',
    specWords: [...BODY_KEYS_RULES.keys.specWords, ...params.filter((p) => p.required === true).map(requiredWords)],
    message: `${id}: the shop's schema declares ${op.bodyKeys === undefined ? 'no body parameter' : `the body keys ${list(declaredKeys)} (${what.join('; ')})`}; the spec's body keys are ${list(specKeys)}`,
  }
}

// --- field types of the tabled shapes ----------------------------------------------------------------------

/** Where a tabled shape appears in an operation: a body key (its schema inside the body's) or the 200 answer. */
interface Place {
  where: string
  schema: ShapeName
  array: boolean
  declared: unknown
}

function placesOf(
  row: EndpointRow,
  op: DeclaredOperation,
  definitions: Readonly<Record<string, SwaggerSchema>>,
): Place[] {
  const places: Place[] = []
  const body = resolveRef(op.bodySchema, definitions)
  const bodyProperty = (key: string): unknown =>
    body !== undefined && isObject(body.properties) ? body.properties[key] : undefined
  for (const param of (row.params ?? []).filter((p) => p.in === 'body')) {
    const typed = param.type !== undefined ? TABLED_TYPES[param.type] : undefined
    const headed = TABLED_BODY_KEYS[rowId(row)]?.[param.name]
    const schema = typed ?? headed?.schema
    if (schema !== undefined)
      places.push({
        where: `body \`${param.name}\``,
        schema,
        array: headed?.array === true,
        declared: bodyProperty(param.name),
      })
  }
  const returned = /^([A-Za-z]\w*)(\[\])?/.exec(row.returns ?? '')
  const returnedSchema = returned?.[1] !== undefined ? TABLED_TYPES[returned[1]] : undefined
  if (returnedSchema !== undefined)
    places.push({
      where: 'the 200 answer',
      schema: returnedSchema,
      array: returned?.[2] !== undefined,
      declared: op.responseSchema,
    })
  return places.filter((p) => p.declared !== undefined)
}

/** JSON type families: the spec's `number` does not separate integer from decimal, so `integer` is one. */
function family(type: unknown): string | undefined {
  if (type === 'integer' || type === 'number') return 'number'
  return typeof type === 'string' && ['string', 'boolean', 'object', 'array'].includes(type) ? type : undefined
}

/** A schema's `type` as a list: its list, its one type, or none. */
function declaredTypes(type: unknown): readonly unknown[] {
  if (Array.isArray(type)) return type
  return type === undefined ? [] : [type]
}

function typesOf(schema: Readonly<Record<string, unknown>>): string[] {
  const raw = declaredTypes(schema.type)
  const families = raw.map(family).filter((f): f is string => f !== undefined)
  if (raw.length === 0 && isObject(schema.properties)) return ['object']
  return [...new Set(families)]
}

interface Contradiction {
  field: string
  spec: string
  declared: string
}

/**
 * Walks the spec's schema and the declared one side by side. Only a real contradiction counts: a declared type
 * that no value of the spec's type can have (a number field declared a string). A field the schema does not
 * declare, a type it does not give or one this reader does not know (`file`), `integer` for the spec's
 * `number`, and `null` (the spec's fields may be null) are no contradiction.
 */
function contradictions(
  spec: Readonly<Record<string, unknown>>,
  declaredRaw: unknown,
  definitions: Readonly<Record<string, SwaggerSchema>>,
  at: string,
  out: Contradiction[],
): void {
  const declared = resolveRef(declaredRaw, definitions)
  if (declared === undefined) return
  const specTypes = typesOf(spec)
  const declaredTypes = typesOf(declared)
  if (declaredTypes.length > 0 && specTypes.length > 0 && !declaredTypes.some((t) => specTypes.includes(t))) {
    out.push({
      field: at === '' ? '(the whole value)' : at,
      spec: specTypes.join(' or '),
      declared: declaredTypes.join(' or '),
    })
    return
  }
  if (isObject(spec.properties) && isObject(declared.properties)) {
    for (const [name, child] of Object.entries(spec.properties)) {
      if (isObject(child) && Object.hasOwn(declared.properties, name))
        contradictions(child, declared.properties[name], definitions, at === '' ? name : `${at}.${name}`, out)
    }
  }
  if (isObject(spec.items) && declared.items !== undefined)
    contradictions(spec.items, declared.items, definitions, `${at}[]`, out)
}

function fieldTypeFindings(
  row: EndpointRow,
  op: DeclaredOperation,
  definitions: Readonly<Record<string, SwaggerSchema>>,
): SchemaFinding[] {
  // One finding per field of a shape, however many places of the operation (body key, answer) declare it so.
  const byField = new Map<string, { place: Place; c: Contradiction; where: string[] }>()
  for (const place of placesOf(row, op, definitions)) {
    const spec: Readonly<Record<string, unknown>> = place.array
      ? { type: 'array', items: TABLED_SHAPES[place.schema] }
      : TABLED_SHAPES[place.schema]
    const found: Contradiction[] = []
    contradictions(spec, place.declared, definitions, '', found)
    for (const c of found) {
      const field =
        place.array && c.field.startsWith('[]') ? c.field.replace(/^\[\]\.?/, '') || '(each element)' : c.field
      const key = `${place.schema} ${field}`
      const known = byField.get(key)
      if (known !== undefined) known.where.push(place.where)
      else byField.set(key, { place, c: { ...c, field }, where: [place.where] })
    }
  }
  const id = rowId(row)
  return [...byField.values()].map(({ place, c, where }) => {
    const title = String(TABLED_SHAPES[place.schema].title)
    const heading = TABLED_TYPE_WORDS[place.schema]
    return {
      kind: 'field-type-contradicts' as const,
      operation: id,
      field: c.field,
      declared: c.declared,
      spec: c.spec,
      section: `Resources and their fields › ${title}`,
      specWords: [...SHAPE_RULES.types.specWords, ...(heading !== undefined ? [heading] : [])],
      message: `${id}: the shop's schema declares ${c.field} of the ${title} (${where.join(', ')}) as ${c.declared}; the spec tables it as ${c.spec}`,
    }
  })
}
