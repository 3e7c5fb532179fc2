/**
 * Reading a shop's published schema (Swagger 2.0 JSON, as the platform serves it at
 * `{base}/rest/{store}/schema?services=all`) into the operations it declares, in the suite's path form.
 *
 * The platform lists in each caller's schema only the operations that caller may use; the views of no token, a
 * customer token and an admin token are read one by one and merged, each operation remembering whose schema
 * listed it. A document that is not such a schema is refused with the reason, in one line; a malformed part of
 * one that is (an operation that is not an object, a method the spec does not use, a path that is no template)
 * is left out and named in `problems` — never a crash, whatever the document holds.
 */
import type { AccessClass, HttpMethod } from '../spec/types.ts'
import { isObject } from '../base/is-object.ts'
import { endpointText } from '../spec/endpoint-id.ts'

/** Whose schema listed an operation: no token, a customer token, an admin token. */
export type SchemaCaller = 'anon' | 'customer' | 'admin'

export const SCHEMA_CALLERS: readonly SchemaCaller[] = ['anon', 'customer', 'admin']

/** A Swagger schema object as the document gives it, `$ref`s unresolved. */
export type SwaggerSchema = Readonly<Record<string, unknown>>

export interface DeclaredOperation {
  method: HttpMethod
  /** The path template in the suite's form: `:name` parameters, no trailing slash (`/V1/carts/:cartId`). */
  path: string
  operationId?: string
  /** Top-level keys of the body parameter's schema; absent when the operation declares no body parameter. */
  bodyKeys?: string[]
  /** The body parameter's schema `$ref`, when it is one (its keys are then the definition's properties). */
  bodySchemaRef?: string
  /** The 200 response's schema `$ref`, when it is one. */
  responseSchemaRef?: string
  /** The body parameter's schema and the 200 response's, as declared: what field types are compared on. */
  bodySchema?: SwaggerSchema
  responseSchema?: SwaggerSchema
  /** The callers whose schema lists it; empty for a document read from a file or a URL (it has no caller views). */
  callers: Set<SchemaCaller>
}

export interface DeclaredSchema {
  operations: DeclaredOperation[]
  definitions: Record<string, SwaggerSchema>
  /** The caller views merged into it; empty: one document without caller views (a file or a URL). */
  views: SchemaCaller[]
  /** What was left out of the documents, one line each. */
  problems: string[]
}

export type ReadOutcome = { ok: true; schema: DeclaredSchema } | { ok: false; reason: string }

const METHODS: Readonly<Record<string, HttpMethod>> = { get: 'GET', post: 'POST', put: 'PUT', delete: 'DELETE' }
/** Swagger 2.0's other operation keys of a path item: methods the spec never uses. */
const OTHER_METHODS = new Set(['patch', 'head', 'options'])
const DEFINITION_REF = '#/definitions/'
const PARAMETER_REF = '#/parameters/'

/** `/V1/carts/{cartId}/` → `/V1/carts/:cartId`; undefined when the path is no template the suite can send. */
export function suitePath(swaggerPath: string): string | undefined {
  const stripped = swaggerPath.length > 1 ? swaggerPath.replace(/\/+$/, '') : swaggerPath
  const path = stripped.replace(/\{([A-Za-z_][\w-]*)\}/g, ':$1')
  return path.startsWith('/') && !/[{}\s?#]/.test(path) && !path.includes('//') ? path : undefined
}

/**
 * `METHOD` and the path's shape, parameters unnamed: `{id}` in a schema is the spec's `:id` whatever either
 * calls it (`GET /V1/carts/:cartId` and `GET /V1/carts/{quoteId}` are the same operation).
 */
export function operationKey(method: string, path: string): string {
  const bare = path.length > 1 ? path.replace(/\/+$/, '') : path
  return `${method.toUpperCase()} ${bare
    .split('/')
    .map((s) => (s.startsWith(':') || /^\{.*\}$/.test(s) ? ':' : s))
    .join('/')}`
}

/**
 * The definition a `$ref` names (`#/definitions/x`), or the schema itself when it is no `$ref`; undefined: a `$ref` to
 * nothing.
 */
export function resolveRef(
  schema: unknown,
  definitions: Readonly<Record<string, SwaggerSchema>>,
): SwaggerSchema | undefined {
  if (!isObject(schema)) return undefined
  const ref = schema.$ref
  if (typeof ref !== 'string') return schema
  if (!ref.startsWith(DEFINITION_REF)) return undefined
  const name = decodeURIComponent(ref.slice(DEFINITION_REF.length)).replace(/~1/g, '/').replace(/~0/g, '~')
  return Object.hasOwn(definitions, name) && isObject(definitions[name]) ? definitions[name] : undefined
}

function parameterOf(raw: unknown, doc: Record<string, unknown>): Record<string, unknown> | undefined {
  if (!isObject(raw)) return undefined
  if (typeof raw.$ref !== 'string') return raw
  const shared = isObject(doc.parameters) ? doc.parameters : {}
  const name = raw.$ref.startsWith(PARAMETER_REF) ? raw.$ref.slice(PARAMETER_REF.length) : undefined
  return name !== undefined && isObject(shared[name]) ? shared[name] : undefined
}

function operationOf(
  method: HttpMethod,
  path: string,
  raw: Record<string, unknown>,
  pathParameters: unknown[],
  doc: Record<string, unknown>,
  definitions: Record<string, SwaggerSchema>,
  problems: string[],
): DeclaredOperation {
  const op: DeclaredOperation = { method, path, callers: new Set() }
  if (typeof raw.operationId === 'string') op.operationId = raw.operationId
  const own: readonly unknown[] = Array.isArray(raw.parameters) ? raw.parameters : []
  for (const entry of [...pathParameters, ...own]) {
    const parameter = parameterOf(entry, doc)
    if (parameter === undefined) {
      problems.push(
        `${endpointText({ method, path })}: a parameter that is not an object (or a $ref to none) was left out`,
      )
      continue
    }
    if (parameter.in !== 'body') continue
    const schema = isObject(parameter.schema) ? parameter.schema : {}
    op.bodySchema = schema
    if (typeof schema.$ref === 'string') op.bodySchemaRef = schema.$ref
    const resolved = resolveRef(schema, definitions)
    op.bodyKeys = isObject(resolved?.properties) ? Object.keys(resolved.properties) : []
  }
  const responses = isObject(raw.responses) ? raw.responses : {}
  const ok = isObject(responses['200']) ? responses['200'] : undefined
  if (ok !== undefined && isObject(ok.schema)) {
    op.responseSchema = ok.schema
    if (typeof ok.schema.$ref === 'string') op.responseSchemaRef = ok.schema.$ref
  }
  return op
}

/** What a JSON value that is not an object is, in words. */
function jsonKind(value: unknown): string {
  if (Array.isArray(value)) return 'a JSON array'
  return value === null ? 'null' : `a JSON ${typeof value}`
}

/** What an object that is not a Swagger 2.0 document is instead, in words. */
function notSwagger2(document: Readonly<Record<string, unknown>>): string {
  if (typeof document.openapi === 'string') return `an OpenAPI ${document.openapi} document`
  if (document.swagger === undefined) return 'a JSON object without "swagger": "2.0"'
  return `a document of "swagger": ${JSON.stringify(document.swagger)}`
}

/** One document: a Swagger 2.0 schema, or the reason it is not one. `caller`: whose view it is, if one. */
export function readDocument(document: unknown, caller?: SchemaCaller): ReadOutcome {
  if (!isObject(document))
    return { ok: false, reason: `the document is ${jsonKind(document)}, not a Swagger 2.0 object` }
  if (document.swagger !== '2.0') return { ok: false, reason: `${notSwagger2(document)}, not a Swagger 2.0 schema` }
  if (!isObject(document.paths)) return { ok: false, reason: 'a Swagger 2.0 document without a "paths" object' }
  const problems: string[] = []
  const definitions: Record<string, SwaggerSchema> = {}
  if (document.definitions !== undefined && !isObject(document.definitions))
    problems.push('"definitions" is not an object: left out')
  for (const [name, value] of Object.entries(isObject(document.definitions) ? document.definitions : {})) {
    if (isObject(value)) definitions[name] = value
    else problems.push(`definition "${name}" is not an object: left out`)
  }
  const operations: DeclaredOperation[] = []
  const seen = new Set<string>()
  for (const [rawPath, item] of Object.entries(document.paths)) {
    const path = suitePath(rawPath)
    if (path === undefined || !isObject(item)) {
      problems.push(
        `path ${JSON.stringify(rawPath)}: ${path === undefined ? 'not a path template' : 'not an object'}: left out`,
      )
      continue
    }
    const pathParameters = Array.isArray(item.parameters) ? item.parameters : []
    for (const [key, raw] of Object.entries(item)) {
      const method = METHODS[key]
      if (method === undefined) {
        if (OTHER_METHODS.has(key))
          problems.push(`${key.toUpperCase()} ${path}: a method the spec does not use: left out`)
        continue
      }
      const id = operationKey(method, path)
      if (!isObject(raw) || seen.has(id)) {
        problems.push(
          `${endpointText({ method, path })}: ${seen.has(id) ? 'declared twice (the first kept)' : 'not an object: left out'}`,
        )
        continue
      }
      seen.add(id)
      const op = operationOf(method, path, raw, pathParameters, document, definitions, problems)
      if (caller !== undefined) op.callers.add(caller)
      operations.push(op)
    }
  }
  return { ok: true, schema: { operations, definitions, views: caller === undefined ? [] : [caller], problems } }
}

/**
 * Caller views merged: an operation once, listed for every caller whose view has it; definitions by name, the first
 * kept.
 */
export function mergeViews(views: readonly DeclaredSchema[]): DeclaredSchema {
  const byKey = new Map<string, DeclaredOperation>()
  const merged: DeclaredSchema = { operations: [], definitions: {}, views: [], problems: [] }
  for (const view of views) {
    for (const op of view.operations) {
      const key = operationKey(op.method, op.path)
      const known = byKey.get(key)
      if (known === undefined) {
        const copy = { ...op, callers: new Set(op.callers) }
        byKey.set(key, copy)
        merged.operations.push(copy)
      } else for (const caller of op.callers) known.callers.add(caller)
    }
    for (const [name, definition] of Object.entries(view.definitions))
      if (!Object.hasOwn(merged.definitions, name)) merged.definitions[name] = definition
    merged.views.push(...view.views.filter((v) => !merged.views.includes(v)))
    merged.problems.push(...view.problems.filter((p) => !merged.problems.includes(p)))
  }
  return merged
}

/**
 * The access class an operation's listing declares: listed for anonymous callers → anon; for customers but not
 * anonymous callers → self; for admins only → admin. Undefined unless all three views were read: without the
 * customer's, self and admin cannot be told apart, and a file or URL has no views at all.
 *
 * Whether an admin token's schema also lists the self and anonymous operations (the spec: for self endpoints
 * "an admin token also works"; anonymous ones need no Authorization) is the platform's convention, not the
 * spec's: the class is read from the narrowest view that lists the operation, so both readings give the same class.
 */
export function declaredAccess(
  op: Pick<DeclaredOperation, 'callers'>,
  views: readonly SchemaCaller[],
): AccessClass | undefined {
  if (!SCHEMA_CALLERS.every((c) => views.includes(c))) return undefined
  if (op.callers.has('anon')) return 'anon'
  if (op.callers.has('customer')) return 'self'
  return op.callers.has('admin') ? 'admin' : undefined
}

/**
 * A `mine` or `me` path names the calling customer's own cart or account: a self operation whatever the schema's
 * caller views say (Authentication 3: "paths with `mine`"). The platform leaves out of the customer's view a `mine`
 * method that also has an admin route (its webapi.xml), so its views would call it admin-only.
 */
export function ownsByPath(path: string): boolean {
  return /\/(mine|me)(\/|$)/.test(path)
}

/** The access class of an operation: a `mine`/`me` path is self (ownsByPath), else what the caller views declare. */
export function accessOf(
  op: Pick<DeclaredOperation, 'callers' | 'path'>,
  views: readonly SchemaCaller[],
): AccessClass | undefined {
  const declared = declaredAccess(op, views)
  return declared === 'admin' && ownsByPath(op.path) ? 'self' : declared
}

/** Why `declaredAccess` is undefined for a schema's views, in one line. */
export function accessUnknownBecause(views: readonly SchemaCaller[]): string | undefined {
  if (views.length === 0)
    return 'the schema was read from one document without caller views (a file or a URL): which callers may use an operation is not declared in it'
  const missing = SCHEMA_CALLERS.filter((c) => !views.includes(c))
  return missing.length === 0
    ? undefined
    : `the ${missing.map((c) => (c === 'anon' ? 'anonymous' : c)).join(' and ')} caller's schema was not read, so the declared access classes cannot be told apart`
}
