/**
 * What a shop's published schema declares of each operation's body, kept small for the whole run: the keys of each
 * object (down through `$ref`s and lists), not the schema itself — a real shop's schema is megabytes, its keys a
 * fraction. Read when the run lists a server error (lib/run/server-errors.ts): did the shop's own schema document
 * the body that failed?
 */
import { endpointText } from '../spec/endpoint-id.ts'
import { isObject } from '../base/is-object.ts'
import { matchTemplate } from '../spec/paths.ts'
import { resolveRef, type DeclaredSchema, type SwaggerSchema } from './read.ts'

/**
 * A declared value, as far as keys go: an object's keys (and those it requires), a list's element, or nothing declared
 * below it.
 */
type KeyShape = DeclaredObject | { readonly items: KeyShape } | 'open'

interface DeclaredObject {
  readonly keys: ReadonlyMap<string, KeyShape>
  readonly required: readonly string[]
}

interface DeclaredBody {
  method: string
  /** The path template in the suite's form (`/V1/carts/:cartId`). */
  path: string
  /** What the body parameter declares; undefined: the operation declares no body. */
  body: KeyShape | undefined
}

/** The shop's operations and what each declares of its body. */
export interface DeclaredBodies {
  operations: readonly DeclaredBody[]
}

/** How the shop's schema reads a body sent to a concrete path. */
interface BodyReading {
  /** Whether the schema declares the operation with a body whose keys include every key sent. */
  documents: boolean
  /** Why, in one line: what the schema declares. */
  says: string
}

export function declaredBodies(schema: DeclaredSchema): DeclaredBodies {
  const byRef = new Map<string, KeyShape>()
  const shape = (node: unknown, depth: number): KeyShape => {
    if (!isObject(node) || depth > MAX_DEPTH) return 'open'
    const ref = typeof node.$ref === 'string' ? node.$ref : undefined
    if (ref !== undefined) {
      const known = byRef.get(ref)
      if (known !== undefined) return known
      const resolved = resolveRef(node, schema.definitions)
      // Filled after it is known by its name: a definition that refers to itself ends there.
      if (resolved !== undefined && isObject(resolved.properties)) {
        const keys = new Map<string, KeyShape>()
        const made: KeyShape = { keys, required: requiredOf(resolved) }
        byRef.set(ref, made)
        fill(keys, resolved, depth)
        return made
      }
      byRef.set(ref, 'open')
      if (resolved === undefined) return 'open'
      const seen = shape(resolved, depth + 1)
      byRef.set(ref, seen)
      return seen
    }
    if (isObject(node.properties)) {
      const keys = new Map<string, KeyShape>()
      fill(keys, node, depth)
      return { keys, required: requiredOf(node) }
    }
    if (node.type === 'array' && node.items !== undefined) return { items: shape(node.items, depth + 1) }
    return 'open'
  }
  const fill = (keys: Map<string, KeyShape>, node: SwaggerSchema, depth: number) => {
    for (const [name, value] of Object.entries(node.properties as Record<string, unknown>))
      keys.set(name, shape(value, depth + 1))
  }
  const bodyOf = (bodySchema: SwaggerSchema | undefined) =>
    bodySchema === undefined ? undefined : shape(bodySchema, 0)
  return {
    operations: schema.operations.map(({ method, path, bodySchema }) => ({ method, path, body: bodyOf(bodySchema) })),
  }
}

function requiredOf(node: SwaggerSchema): string[] {
  return Array.isArray(node.required) ? node.required.filter((k): k is string => typeof k === 'string') : []
}

/** Deeper than any contract type of the platform; what lies below is not read. */
const MAX_DEPTH = 12

/** The declared operation a concrete path is of (the one with the most literal segments), or undefined. */
function operationAt(bodies: DeclaredBodies, method: string, path: string): DeclaredBody | undefined {
  let best: { op: DeclaredBody; literal: number } | undefined
  for (const op of bodies.operations) {
    if (op.method !== method) continue
    const m = matchTemplate(op.path, path)
    if (m !== undefined && (best === undefined || m.literalSegments > best.literal))
      best = { op, literal: m.literalSegments }
  }
  return best?.op
}

/** What the shop's schema says of `body` sent as `method path` (a concrete path, as sent). */
export function readBody(bodies: DeclaredBodies, method: string, path: string, body: unknown): BodyReading {
  const op = operationAt(bodies, method, path)
  if (op === undefined) return { documents: false, says: "the shop's schema does not declare this operation" }
  const operation = endpointText(op)
  if (op.body === undefined) return { documents: false, says: `the shop's schema declares ${operation} without a body` }
  const { undeclared, missing } = compared(op.body, body, '')
  if (undeclared.length === 0 && missing.length === 0) {
    return {
      documents: true,
      says: `the shop's schema declares ${operation} with a body of every key sent, and none it requires is missing`,
    }
  }
  const why = [
    ...(undeclared.length > 0 ? [`does not declare ${keysText(undeclared)}`] : []),
    ...(missing.length > 0 ? [`requires ${keysText(missing)}, not sent`] : []),
  ]
  return { documents: false, says: `the shop's schema declares ${operation} with a body, but ${why.join(', and ')}` }
}

function keysText(keys: readonly string[]): string {
  return keys.slice(0, 5).join(', ') + (keys.length > 5 ? `, … (${keys.length} in all)` : '')
}

/**
 * The keys sent that the declared shape does not have, and those it requires that were not sent, as paths; below
 * an open value nothing is declared.
 */
function compared(shape: KeyShape, value: unknown, at: string): { undeclared: string[]; missing: string[] } {
  const none = { undeclared: [], missing: [] }
  if (shape === 'open') return none
  const pathOf = (key: string) => (at === '' ? key : `${at}.${key}`)
  if ('items' in shape) {
    if (!Array.isArray(value)) return none
    const each = value.map((v) => compared(shape.items, v, `${at}[]`))
    return {
      undeclared: [...new Set(each.flatMap((c) => c.undeclared))],
      missing: [...new Set(each.flatMap((c) => c.missing))],
    }
  }
  if (!isObject(value)) return none
  const below = Object.entries(value).map(([key, v]) => {
    const declared = shape.keys.get(key) ?? [...shape.keys].find(([k]) => snakeCase(k) === snakeCase(key))?.[1]
    return declared === undefined ? { undeclared: [pathOf(key)], missing: [] } : compared(declared, v, pathOf(key))
  })
  const sent = new Set(Object.keys(value).map(snakeCase))
  return {
    undeclared: below.flatMap((c) => c.undeclared),
    missing: [...shape.required.filter((k) => !sent.has(snakeCase(k))).map(pathOf), ...below.flatMap((c) => c.missing)],
  }
}

/**
 * A key in the snake_case form the platform's schema declares: the platform takes a body's keys in either form
 * (platform conventions, "Request bodies"), so `stockId` sent is the `stock_id` declared.
 */
function snakeCase(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)
}

/** Every key a body sends, as paths (`inventoryRequest.items[].sku`), the first `max`. */
export function bodyKeyPaths(body: unknown, max = 40): string[] {
  const out = new Set<string>()
  const walk = (value: unknown, at: string) => {
    if (out.size >= max) return
    if (Array.isArray(value)) return value.forEach((v) => walk(v, `${at}[]`))
    if (!isObject(value)) return void (at !== '' && out.add(at))
    const entries = Object.entries(value)
    if (entries.length === 0 && at !== '') out.add(at)
    for (const [key, v] of entries) walk(v, at === '' ? key : `${at}.${key}`)
  }
  walk(body, '')
  return [...out].slice(0, max)
}
