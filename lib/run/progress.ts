import type { Result } from '../results/result.ts'

/** On stderr under `shop-conformance run`: each failure as it comes. */
export function failureLine(r: Result): string {
  return `  ✗ ${r.id} — ${r.message.length > 160 ? `${r.message.slice(0, 160)}…` : r.message}\n`
}

/** …then a line per module as it finishes. */
export function moduleLine(module: string, results: readonly Result[]): string {
  const judged = results.filter((r) => r.applicable !== false)
  const count = (status: string) => judged.filter((r) => r.status === status).length
  const failed = count('failed')
  const skipped = count('skipped')
  return `  ${module.padEnd(30)} ${String(judged.length).padStart(4)} checks  ${count('passed')} passed${failed > 0 ? `, ${failed} FAILED` : ''}${skipped > 0 ? `, ${skipped} not judged` : ''}\n`
}

/** The module a suite file runs: `suites/<module>.conformance.ts`. */
export function moduleIdOf(suiteFile: string): string {
  return suiteFile.replace(/^.*\//, '').replace(/\.conformance\.ts$/, '')
}

/** A test that ended without a result (a crash inside the suite) is a failed result, never a silent gap. */
export function crashResult(name: string, module: string, error: string): Result {
  const m = /^(\S+) (\S+) › (.+)$/.exec(name)
  return {
    id: name,
    module,
    endpoint: { method: m?.[1] ?? '?', path: m?.[2] ?? '?' },
    check: m?.[3] ?? '?',
    status: 'failed',
    message: `the suite itself failed while checking: ${error}`,
    durationMs: 0,
    spec: [],
    exchanges: [],
  }
}
