/**
 * The directories the tests' CLI runs were made in (lib/cli/testing.ts makes them): each lives until the end of the
 * test file that made it (its tests read the reports). The integration project's test files share the modules of a
 * worker (isolate off, vitest.config.ts), so the removal is registered per file by per-file.ts, not once by the helper.
 */
import { rmSync } from 'node:fs'

const made: string[] = []

/** A run's directory, made for a test: removed after its test file. */
export function madeRunDir(dir: string): void {
  made.push(dir)
}

/** Removes the run directories made so far (after each test file). */
export function removeRunDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true })
}
