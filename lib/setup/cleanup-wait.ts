/** The cleanup's wait for the run's writes still in flight: what they ask for may yet be made. */
import { setTimeout as delay } from 'node:timers/promises'
import { ledgerEntities, type Ledger, type LedgerEntity, type LedgerEntry } from './ledger.ts'
import type { Search } from './cleanup-names.ts'
import { FINDABLE, type FindableKind } from '../shop/lookup.ts'

/** What the cleanup knows of the run besides its ledger's lines. */
export interface CleanupRun {
  id: string
  /**
   * The run's ledger: what the cleanup's search finds is written there, and its lines are read again while it
   * waits.
   */
  ledger?: Ledger
  /**
   * The run's writes that may still be in flight (sent, then cut off by a stop or left behind by the run's process
   * when it ended): the shop may make what they asked for until `endBy` (their deadline, counted from the stop), and
   * the cleanup waits for them until `waitUntil` at most — what it must leave itself to remove and search.
   */
  writesInFlight?: { endBy: number; waitUntil: number }
}

/** How often the cleanup looks again while writes are in flight. */
const POLL_MS = 500

/**
 * What a search after the wait can find once it is made: a product, customer or attribute set by its key, an order
 * by the run's e-mail, a shipment of the pickup notice by its order. Waiting for anything else names nothing more.
 */
function findableOnceMade(e: LedgerEntity): boolean {
  return e.kind === 'order' || (e.key !== undefined && (Object.hasOwn(FINDABLE, e.kind) || e.kind === 'shipment'))
}

/**
 * The run's lines once its writes in flight that a search can find have ended: read again (the run's other
 * processes may still be answered meanwhile) until none is in flight, every one in flight is found made by its key
 * (a customer by its e-mail: it ended), or `endBy` — when each has had its deadline — or `waitUntil` comes. `over`:
 * nothing is in flight any more, or its deadline has passed.
 */
export async function writesEnded(
  lines: readonly LedgerEntry[],
  search: Search,
  run: CleanupRun,
): Promise<{ lines: readonly LedgerEntry[]; over: boolean }> {
  let current = lines
  const wait = run.writesInFlight
  for (;;) {
    const inFlight = ledgerEntities(current).filter((e) => e.inFlight === true && findableOnceMade(e))
    if (inFlight.length === 0 || wait === undefined || Date.now() >= wait.endBy) return { lines: current, over: true }
    if (Date.now() >= wait.waitUntil) return { lines: current, over: false }
    if (await allFound(inFlight, search)) return { lines: current, over: true }
    await delay(Math.max(0, Math.min(POLL_MS, wait.waitUntil - Date.now())))
    current = run.ledger?.lines() ?? current
  }
}

/** Whether every entity is of a findable kind and found by its key (made: its request has ended). */
async function allFound(entities: readonly LedgerEntity[], search: Search): Promise<boolean> {
  const keyed = entities.flatMap((e) =>
    e.key !== undefined && Object.hasOwn(FINDABLE, e.kind) ? [{ kind: e.kind as FindableKind, key: e.key }] : [],
  )
  if (keyed.length < entities.length) return false
  for (const { kind, key } of keyed) {
    const { list, field } = FINDABLE[kind]
    const found = await search(list, field, key, 'eq')
    if ('failed' in found || found.items.length === 0) return false
  }
  return true
}
