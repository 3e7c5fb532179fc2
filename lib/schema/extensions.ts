/**
 * The shop's extension operations: every operation its schema declares that the spec does not name. The spec
 * endpoints are recognised by method and path template (`{id}` is `:id`, whatever either names the parameter),
 * through the configured path aliases when the shop serves a spec path under another prefix.
 */
import { CATALOG } from '../spec/catalog/index.ts'
import type { AccessClass, EndpointRow, HttpMethod } from '../spec/types.ts'
import { accessOf, accessUnknownBecause, operationKey } from './read.ts'
import type { DeclaredSchema } from './read.ts'

export interface ExtensionOperation {
  method: HttpMethod
  /** As the schema declares it, in `:name` form. */
  path: string
  operationId?: string
  /**
   * The access class the schema's caller views declare; absent when they cannot tell, with `accessUnknown` saying why.
   */
  declaredAccess?: AccessClass
  accessUnknown?: string
  /** POST, PUT and DELETE may change or remove data: sent only as `probesFor` allows. */
  writes: boolean
  origin: 'extension'
}

function isWrite(method: HttpMethod): boolean {
  return method !== 'GET'
}

export function extensionOperations(
  schema: DeclaredSchema,
  options: { targetPath?: (specPath: string) => string; rows?: readonly EndpointRow[] } = {},
): ExtensionOperation[] {
  const targetPath = options.targetPath ?? ((p) => p)
  const spec = new Set((options.rows ?? CATALOG).map((row) => operationKey(row.method, targetPath(row.path))))
  return schema.operations
    .filter((op) => !spec.has(operationKey(op.method, op.path)))
    .map((op) => {
      // A `mine`/`me` path is the caller's own: self, even where the platform's views list it for admins only.
      const access = accessOf(op, schema.views)
      const unknown =
        access === undefined
          ? (accessUnknownBecause(schema.views) ?? 'no caller view the schema was read under lists it')
          : undefined
      return {
        method: op.method,
        path: op.path,
        ...(op.operationId !== undefined ? { operationId: op.operationId } : {}),
        ...(access !== undefined ? { declaredAccess: access } : { accessUnknown: unknown }),
        writes: isWrite(op.method),
        origin: 'extension' as const,
      }
    })
}
