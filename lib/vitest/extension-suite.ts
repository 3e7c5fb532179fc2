/**
 * What `suites/extensions.conformance.ts` calls: a test per check of the run's additions to the spec's suite —
 * the shop's extension operations (its published schema, read when the run starts) × the three extension kinds,
 * and the vendor's endpoints × its checks (its config file, loaded here too: its checks are functions). Known only
 * in a run (`inject('shopExtensions')`): a listing or an editor's discovery shows the file without operations,
 * and its describe name says so. Results carry `origin` and `extension: true`: never the spec's.
 */
import { beforeAll, describe, inject, test } from 'vitest'
import { defined } from '../base/defined.ts'
import { CHECK_KINDS } from '../checks/index.ts'
import { loadVendorConfig } from '../extend/load.ts'
import { buildPlan, selectionOf, selectPlan, suiteWith } from '../plan/plan.ts'
import type { Result } from '../results/result.ts'
import { plannedWork } from '../run/judge-planned.ts'
import { sessionFor } from '../run/worker-session.ts'
import { quiet, selectedTests, verdictOf } from './module-suite.ts'
import { markSelected } from './task-meta.ts'
import { endpointText } from '../spec/endpoint-id.ts'

const EXTENSIONS_TITLE = "Extensions: the shop's own operations and the vendor's checks (not the spec's)"

export async function extensionSuite(): Promise<void> {
  const facts = inject('shopExtensions')
  if (facts === undefined) {
    // Listed without sending anything: a listing or an editor's discovery reads no schema and loads no config.
    return placeholder(
      `${EXTENSIONS_TITLE} — known only when a run reads the shop's schema and the config`,
      'no operations listed: a run registers one test per check of each operation',
    )
  }
  const vendor = facts.configFile !== undefined ? await loadVendorConfig(facts.configFile, CHECK_KINDS) : undefined
  const parts = suiteWith({
    operations: facts.operations,
    probeWrites: facts.probeWrites,
    ...(vendor !== undefined ? { vendor } : {}),
  })
  const plan = buildPlan(parts)
  // `--module` picks a vendor's module alone (the shop's extension operations only in a run of every module).
  const modules = inject('shopModules') ?? []
  const planned = selectPlan(plan, selectionOf(modules, inject('shopChecks') ?? [])).checks.filter(
    (p) => p.origin !== 'spec',
  )
  const starters = plannedWork(parts, planned)
  const started = new Map<string, Promise<Result>>()

  // A file without a test is an error of the run: none to check (no schema, --check, --module) is said by a skipped
  // one.
  if (planned.length === 0)
    return placeholder(
      `${EXTENSIONS_TITLE}: none in this run`,
      'no extension operation or vendor check selected in this run',
    )
  // By origin too: a vendor may declare an operation the shop's schema lists as an extension.
  const operations = new Set(
    planned.map(
      (p) => `${p.origin} ${endpointText(defined(p.added, "the row of an extension's or a vendor's check"))}`,
    ),
  )
  describe.concurrent(`${EXTENSIONS_TITLE}: ${operations.size} operations`, () => {
    beforeAll(({}, suite) => {
      const run = inject('shopRun')
      if (run === undefined || run.refused !== undefined) return
      for (const task of selectedTests(suite)) {
        const starter = starters.get(task.name)
        if (starter === undefined) continue
        markSelected(task)
        started.set(task.name, quiet(starter(sessionFor(run.seed))()))
      }
    })
    for (const p of planned) test(p.id, (ctx) => verdictOf(ctx, p.id, started))
  })
}

/** One test that never judges anything (skipped when run): what the file shows when it has no operation to check. */
function placeholder(title: string, name: string): void {
  describe(title, () => {
    test(name, (ctx) => ctx.skip(name))
  })
}
