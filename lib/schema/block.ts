/**
 * What a run does with the shop's schema once loaded (load.ts): the report's `schema` block (its findings against
 * the spec, what was not read) and the extension operations the plan gets rows for. Not published, or not read
 * (`--target-schema off`): one line, no finding, no extension operation.
 */
import { schemaText, type SchemaBlock } from '../results/schema-block.ts'
import { compareWithSpec, type CompareOptions } from './compare.ts'
import { extensionOperations, type ExtensionOperation } from './extensions.ts'
import type { LoadedSchema } from './load.ts'
import { declaredBodies, type DeclaredBodies } from './bodies.ts'

export interface SchemaFacts {
  block: SchemaBlock
  operations: ExtensionOperation[]
  /** What the schema declares of each operation's body, when it was read: what the list of server errors reads. */
  bodies?: DeclaredBodies
}

export function schemaFacts(loaded: LoadedSchema, options: CompareOptions = {}): SchemaFacts {
  const empty = {
    callers: [],
    notes: [],
    findings: [],
    notJudged: [],
    specEndpoints: 0,
    declaredSpecEndpoints: 0,
    extensionOperations: 0,
  }
  if (loaded.status === 'off') return { block: withText({ status: 'off', published: false, ...empty }), operations: [] }
  if (loaded.status === 'unpublished')
    return {
      block: withText({
        status: 'unpublished',
        published: false,
        source: loaded.source,
        reason: loaded.reason,
        ...empty,
      }),
      operations: [],
    }
  if (loaded.status === 'broken')
    return {
      block: withText({
        status: 'broken',
        published: true,
        source: loaded.source,
        reason: loaded.reason,
        ...empty,
        notes: brokenNotes(loaded.reason),
      }),
      operations: [],
    }
  const comparison = compareWithSpec(loaded.schema, options)
  const operations = extensionOperations(loaded.schema, options)
  // The admin's own view misses what the admin may not use: a limited admin's schema hides operations.
  const limited = loaded.schema.views.includes('admin')
    ? [
        "undeclared spec endpoints and extension operations are read from the admin's view, which lists only what the run's admin may use (an admin limited by ACL sees fewer)",
      ]
    : []
  const block = {
    status: 'read' as const,
    published: true,
    source: loaded.source,
    callers: [...loaded.schema.views],
    notes: [...loaded.notes, ...loaded.schema.problems, ...limited],
    findings: comparison.findings,
    notJudged: comparison.notJudged,
    specEndpoints: comparison.specEndpoints,
    declaredSpecEndpoints: comparison.declaredSpecEndpoints,
    extensionOperations: operations.length,
  }
  return { block: withText(block), operations, bodies: declaredBodies(loaded.schema) }
}

/** What a broken schema endpoint usually is, for whoever reads the report on the shop's team. */
function brokenNotes(reason: string): string[] {
  if (!/answered 5\d\d/.test(reason)) return []
  return [
    "a server error at the schema URL usually means the platform could not generate the schema: one module's interface that it cannot describe (a third-party module's, often) breaks it for every caller, while that module's REST routes still work; the report ID in the shop's answer names the entry in its exception log",
  ]
}

function withText(b: Omit<SchemaBlock, 'text'>): SchemaBlock {
  return { ...b, text: schemaText(b) }
}
