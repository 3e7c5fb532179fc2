import type { LedgerEntry } from '../../fixtures/ledger.ts'
import { describeOutcome } from '../target/answer-text.ts'
import type { TargetClient } from '../target/client.ts'

export interface CleanupOutcome {
  removed: { kind: string; id: string; label: string }[]
  /** What the run created and could not remove, with why: the report lists it. */
  leftovers: { kind: string; id: string; label: string; reason: string }[]
}

/**
 * Removes what the run created where the interface has a call for it; only entities in the run's own ledger
 * are ever touched. A 404 means the run already removed it.
 */
export async function cleanUp(entries: readonly LedgerEntry[], client: TargetClient, adminToken: string, store: string): Promise<CleanupOutcome> {
  const out: CleanupOutcome = { removed: [], leftovers: [] }
  const newestFirst = [...entries].reverse()
  // The removable kinds (products, customers, attribute sets, tax rates) do not depend on one another, so
  // the calls go out together, bounded by the client's concurrency; results keep the newest-first order.
  const outcomes = await Promise.all(
    newestFirst.map((entry) => (entry.remove === undefined ? undefined : client.send({ method: entry.remove.method, path: entry.remove.path, store, token: adminToken }))),
  )
  newestFirst.forEach((entry, i) => {
    const { kind, id, label } = entry
    const outcome = outcomes[i]
    if (entry.remove === undefined || outcome === undefined) {
      out.leftovers.push({ kind, id, label, reason: `the interface has no call that removes a ${kind}` })
      return
    }
    const status = outcome.answer?.status
    if (status !== undefined && ((status >= 200 && status < 300) || status === 404)) out.removed.push({ kind, id, label })
    else out.leftovers.push({ kind, id, label, reason: `${entry.remove.method} ${entry.remove.path} answered ${describeOutcome(outcome)}` })
  })
  return out
}
