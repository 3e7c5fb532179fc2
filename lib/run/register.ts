import { describe, inject, test } from 'vitest'
import { CHECKS } from '../checks/index.ts'
import { rowsOfModule } from '../spec/catalog/index.ts'
import { MODULES } from '../spec/modules.ts'
import { Session, type SessionSeed } from '../target/session.ts'
import { toResult, type Result } from './result.ts'

declare module 'vitest' {
  export interface ProvidedContext {
    shopSession: SessionSeed
    /** Check kinds to register; empty means all. */
    shopChecks: string[]
  }
}

/** Where a result travels from the worker to the reporter. */
export const RESULT_META_KEY = 'shopResult'

let shared: Session | undefined

/** One session per worker, so every suite file shares the client and the probe memo. */
function workerSession(seed: SessionSeed): Session {
  if (shared === undefined || shared.seed.runId !== seed.runId) shared = new Session(seed)
  return shared
}

/**
 * Registers one vitest test per catalog row of the module and selected check, named
 * `<METHOD> <path> › <check>`. The suite files under suites/ are nothing but a call of this.
 */
export function registerModule(moduleId: string): void {
  const module = MODULES.find((m) => m.id === moduleId)
  if (module === undefined) throw new Error(`unknown module ${moduleId}`)
  const selected = inject('shopChecks')
  const checks = CHECKS.filter((c) => selected.length === 0 || selected.includes(c.name))
  const session = workerSession(inject('shopSession'))

  describe.concurrent(module.title, () => {
    for (const row of rowsOfModule(moduleId)) {
      const alias = session.targetPath(row.path) !== row.path ? session.targetPath(row.path) : undefined
      for (const check of checks) {
        test(`${row.method} ${row.path} › ${check.name}`, async (ctx) => {
          const started = performance.now()
          const applies = check.appliesTo(row)
          const verdict =
            applies === true ? await check.run(row, session) : { status: 'skipped' as const, message: `not applicable: ${applies}`, exchanges: [] }
          const result: Result = toResult(row, check, verdict, Math.round(performance.now() - started), alias)
          ;(ctx.task.meta as Record<string, unknown>)[RESULT_META_KEY] = result
          if (verdict.status === 'failed') throw new Error(verdict.message)
          if (verdict.status === 'skipped') ctx.skip(verdict.message)
        })
      }
    }
  })
}
