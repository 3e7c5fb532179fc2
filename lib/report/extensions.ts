import { plural } from '../base/text.ts'
import type { Result } from '../results/result.ts'
import type { ExtensionsBlock, ExtensionsMode, ExtensionTally } from '../results/schema-block.ts'
import { endpointText } from '../spec/endpoint-id.ts'

const ORIGIN_LABEL: Readonly<Record<ExtensionTally['origin'], string>> = {
  extension: 'Extensions',
  vendor: 'Vendor checks',
}

/** `extension-access` → `access`: how a line names an extension's check. */
function shortCheck(check: string): string {
  return check.replace(/^extension-/, '')
}

function tally(origin: ExtensionTally['origin'], results: readonly Result[]): ExtensionTally {
  const failedByCheck: Record<string, number> = {}
  for (const r of results) if (r.status === 'failed') failedByCheck[r.check] = (failedByCheck[r.check] ?? 0) + 1
  return {
    origin,
    operations: new Set(results.map((r) => endpointText(r.endpoint))).size,
    results: results.length,
    passed: results.filter((r) => r.status === 'passed').length,
    failed: results.filter((r) => r.status === 'failed').length,
    errors: results.filter((r) => r.status === 'error').length,
    notJudged: results.filter((r) => r.status === 'skipped' && r.applicable !== false).length,
    failedByCheck,
  }
}

function tallyText(t: ExtensionTally): string {
  const fails = Object.entries(t.failedByCheck).map(
    ([check, n]) => `${n} fail${n === 1 ? 's' : ''} ${shortCheck(check)}`,
  )
  const parts = [
    plural(t.operations, 'operation'),
    ...(fails.length > 0 ? fails : [`${plural(t.passed, 'check')} passed`]),
    ...(t.errors > 0 ? [plural(t.errors, 'error')] : []),
    ...(t.notJudged > 0 ? [`${t.notJudged} not judged`] : []),
  ]
  return `${ORIGIN_LABEL[t.origin]}: ${parts.join(', ')}`
}

/**
 * The results from outside the spec (a shop's extension operations, a vendor's checks), counted apart: never in
 * the spec's verdict. Absent when the run has none.
 */
export function extensionsBlock(results: readonly Result[], mode: ExtensionsMode): ExtensionsBlock | undefined {
  const tallies = (['extension', 'vendor'] as const).flatMap((origin) => {
    const own = results.filter((r) => r.extension === true && r.origin === origin)
    return own.length > 0 ? [tally(origin, own)] : []
  })
  if (tallies.length === 0) return undefined
  const effect =
    mode === 'gate'
      ? 'their failures fail the run (--extensions report-only reports them only)'
      : 'reported only (--extensions report-only)'
  return {
    mode,
    tallies,
    text: `${tallies.map(tallyText).join('; ')} · not the spec's: never in its verdict; ${effect}`,
  }
}
