import { ledgerEntities, NESTED, removalOf, removalRound, type LedgerEntity, type LedgerEntry } from './ledger.ts'
import { runEmailPrefix, runMark } from './identifiers.ts'
import { type CleanupRun, writesEnded } from './cleanup-wait.ts'
import { nameLeftovers, searcher, withNamingSearches, type Leftover, type Search } from './cleanup-names.ts'
import { describeOutcome } from '../shop/answer-text.ts'
import type { TargetClient } from '../shop/client.ts'
import type { Outcome } from '../shop/request.ts'
import { FINDABLE, type FindableKind } from '../shop/lookup.ts'
import { sendRepeating } from '../shop/retry.ts'
import { sideBySideGroup } from '../shop/pace.ts'
import { Lane } from '../shop/bound.ts'
import { endpointText } from '../spec/endpoint-id.ts'
import { defined } from '../base/defined.ts'

export interface CleanupOutcome {
  /**
   * `alreadyGone`: its removal answered 404 — gone before (an earlier cleanup of the same ledger), nothing removed now.
   */
  removed: { kind: string; id: string; label: string; alreadyGone?: true }[]
  /** What of the run's is (or may be) still on the target, with why: the report lists it. */
  leftovers: Leftover[]
}

/**
 * What the run made of each findable kind starts with its mark (lib/setup/identifiers.ts): the search pattern,
 * and the test every item found must pass too — a target that ignores the filter must not lose its own data.
 */
function marks(runId: string): Record<FindableKind, string> {
  return { product: `${runMark(runId)}-`, customer: runEmailPrefix(runId), 'attribute set': `${runMark(runId)} ` }
}

/**
 * Removes what the run made, where the interface has a call for it: once the writes still in flight have ended
 * (each by its deadline: a creation sent before a stop may still be made), first everything the ledger says was
 * created — what uses others before what it uses (ledger.ts: removalRound) —, then whatever still carries the run's
 * mark (products by sku, customers by e-mail, attribute sets by name, through the search-criteria lists) — a
 * creation whose answer never came may have been made all the same. Only what the ledger names or what carries the
 * run's mark is ever touched. A 404 means it is gone. The leftovers name everything of the run that is still there,
 * or may be — each by what the shop still answers to (cleanup-names.ts): never "complete" on less.
 */
export async function cleanUp(
  lines: readonly LedgerEntry[],
  client: TargetClient,
  adminToken: string,
  store: string,
  run: CleanupRun,
): Promise<CleanupOutcome> {
  const out: CleanupOutcome = { removed: [], leftovers: [] }
  const search = searcher(client, store, adminToken)
  const remove = remover(client, store, adminToken)
  const ended = await writesEnded(lines, search, run)
  const entities = ledgerEntities(ended.lines).reverse()
  const naming = withNamingSearches(entities, search, run.id)
  await removeCreated(out, entities, remove)
  // What may be there although no answer said so: found by the searches below, or listed as possibly left.
  const mayStillBeMade = unsureCreations(out, entities, ended.over, run)
  // What still carries the run's mark: removed, and looked for again — a creation repeated after a timeout can
  // have made two of a kind under one key (the first attempt was still queued at the shop), and a removal by key
  // takes one of them. Up to SEARCH_ROUNDS rounds; what is still found then is listed, without blaming the shop.
  const sweep: MarkedSweep = { out, search, remove, entities, run }
  await Promise.all((Object.keys(FINDABLE) as FindableKind[]).map((kind) => removeMarked(sweep, kind)))
  const foundOrLeft = (l: Leftover) =>
    [...out.removed, ...out.leftovers].some((x) => x.kind === l.kind && (x.id === l.id || x.label === l.label))
  out.leftovers.push(...mayStillBeMade.filter((l) => !foundOrLeft(l)))
  out.leftovers = await nameLeftovers(out.leftovers, entities, naming, run.id)
  return out
}

/** Removes one of the run's entities by the interface's call for its kind: what it sent, and its last answer. */
type Remove = ReturnType<typeof remover>

/**
 * The cleanup's one way to remove: the admin's DELETE of the kind's call. The removals that wait for one another's
 * turn (the attribute sets' and their groups': pace.ts sideBySideGroup) go before the others whenever one waits:
 * their chain then runs beside a round's other removals instead of each link queueing behind them (issue 29.9:
 * behind a round's hundred-odd products, three groups took 0.45 s).
 */
function remover(client: TargetClient, store: string, adminToken: string) {
  const others = new Lane()
  return (kind: string, id: string) => {
    const removal = defined(removalOf(kind, id), `the removal of a ${kind} (only removable kinds are removed)`)
    const lane = sideBySideGroup(removal.method, removal.path) === undefined ? others : undefined
    // A DELETE is the same however often it is sent: repeated when the target gave nothing usable.
    return sendRepeating(
      () => client.send({ method: removal.method, path: removal.path, store, token: adminToken }, lane),
      gone,
      'safe',
    ).then((r) => ({ removal, last: r.last }))
  }
}

/**
 * Everything the ledger says was created, removed round by round: removed (or gone before), or a leftover with why —
 * no call removes its kind, or its removal's answer.
 */
async function removeCreated(out: CleanupOutcome, entities: readonly LedgerEntity[], remove: Remove): Promise<void> {
  const created = entities.filter((e) => e.state === 'created' && e.id !== '')
  const outcomes = await removeInRounds(
    created.filter((e) => removalOf(e.kind, e.id) !== undefined),
    remove,
  )
  for (const e of created) {
    const done = outcomes.get(e)
    if (done === undefined) out.leftovers.push(leftover(e, `the interface has no call that removes ${a(e.kind)}`))
    else if (gone(done.last)) {
      const alreadyGone = done.last.answer?.status === 404 ? { alreadyGone: true as const } : {}
      out.removed.push({ kind: e.kind, id: e.id, label: e.label, ...alreadyGone })
    } else out.leftovers.push(leftover(e, `${endpointText(done.removal)} answered ${describeOutcome(done.last)}`))
  }
}

/**
 * The creations no answer confirmed: a findable kind's is left to the searches of the run's mark (and returned, to
 * be listed unless they find it, when it was still in flight as the wait ended); any other is a leftover that may
 * have been made — but a shipment of the pickup notice, found by its order (cleanup-names.ts).
 */
function unsureCreations(
  out: CleanupOutcome,
  entities: readonly LedgerEntity[],
  waitOver: boolean,
  run: CleanupRun,
): Leftover[] {
  const searched = new Set<string>(Object.keys(FINDABLE))
  // Findable, but still in flight when the wait had to end: listed by its key unless the searches below find it.
  const mayStillBeMade: Leftover[] = []
  for (const e of entities.filter((x) => x.state === 'requested')) {
    const stillInFlight = e.inFlight === true && !waitOver
    if (searched.has(e.kind) && e.key !== undefined) {
      const field = FINDABLE[e.kind as FindableKind].field
      const until = new Date(run.writesInFlight?.endBy ?? Date.now()).toISOString()
      if (stillInFlight)
        mayStillBeMade.push(
          leftover(
            e,
            `may still be made: its creation was in flight at the shop when the cleanup last searched, and may be made until ${until}: look for it by its ${field}`,
          ),
        )
      continue
    }
    // A shipment of the pickup notice is found by its order (cleanup-names.ts).
    if (e.kind === 'shipment' && e.key !== undefined) continue
    const why =
      e.inFlight === true
        ? 'its creation was cut off in flight by the stop, and the shop may still make it'
        : 'its creation got no answer saying whether it was'
    out.leftovers.push(leftover(e, `may have been made: ${why}, and the interface has no call that finds ${a(e.kind)}`))
  }
  return mayStillBeMade
}

/** What the searches for the run's mark share: the outcome they add to, the calls they make, the ledger's entities. */
interface MarkedSweep {
  out: CleanupOutcome
  search: Search
  remove: Remove
  entities: readonly LedgerEntity[]
  run: CleanupRun
}

/**
 * The items of one kind that carry the run's mark, searched for and removed round by round until none is found;
 * a search that fails leaves every one of the kind unknown, and so listed.
 */
async function removeMarked(sweep: MarkedSweep, kind: FindableKind): Promise<void> {
  const { out } = sweep
  const mark = marks(sweep.run.id)[kind]
  const { list, field } = FINDABLE[kind]
  const removals = new Map<string, number>()
  for (let round = 1; round <= SEARCH_ROUNDS; round++) {
    const found = await sweep.search(list, field, mark, 'like')
    if ('failed' in found) {
      out.leftovers.push({
        kind,
        id: '?',
        label: `every ${kind} whose ${field} starts with ${mark}`,
        reason: `not known whether any is left: the search GET ${list} answered ${found.failed}`,
      })
      return
    }
    const pending = found.items.filter(
      (item) => !out.leftovers.some((l) => l.kind === kind && l.id === idOf(kind, item)),
    )
    if (pending.length === 0) return
    for (const item of pending) await removeFound(sweep, kind, item, round, removals)
  }
}

/**
 * One item the search for the run's mark found: recorded in the ledger the first time, then removed — or a leftover
 * when it has no id to remove it by, its removal fails, or the last round still finds it. `removals`: how many
 * removals of each id of the kind answered with a success.
 */
async function removeFound(
  sweep: MarkedSweep,
  kind: FindableKind,
  item: Record<string, unknown>,
  round: number,
  removals: Map<string, number>,
): Promise<void> {
  const { out } = sweep
  const { list, field } = FINDABLE[kind]
  const key = String(item[field])
  const rawId = kind === 'product' ? key : item[ID_FIELD[kind]]
  if (typeof rawId !== 'string' && typeof rawId !== 'number') {
    out.leftovers.push({
      kind,
      id: key,
      label: `${kind} ${key}`,
      reason: `found by the cleanup's search (GET ${list}) without an id to remove it by`,
    })
    return
  }
  const id = String(rawId)
  const label =
    sweep.entities.find((e) => e.kind === kind && (e.id === id || e.key?.toLowerCase() === key.toLowerCase()))?.label ??
    `${kind} ${key}`
  const times = removals.get(id) ?? (out.removed.some((r) => r.kind === kind && r.id === id) ? 1 : 0)
  if (round === SEARCH_ROUNDS) {
    out.removed = out.removed.filter((r) => !(r.kind === kind && r.id === id))
    const removedTimes = `${times} removal${times === 1 ? '' : 's'}`
    out.leftovers.push({
      kind,
      id,
      label,
      reason: `still found by the cleanup's search (GET ${list}) after ${removedTimes} answered with a success`,
    })
    return
  }
  if (times === 0)
    sweep.run.ledger?.request({ kind, label, key }).created(id, `found by the cleanup's search (GET ${list})`)
  const done = await sweep.remove(kind, id)
  if (!gone(done.last)) {
    out.leftovers.push({
      kind,
      id,
      label,
      reason: `found by the cleanup's search; ${endpointText(done.removal)} answered ${describeOutcome(done.last)}`,
    })
    return
  }
  removals.set(id, times + 1)
  if (!out.removed.some((r) => r.kind === kind && r.id === id)) out.removed.push({ kind, id, label })
}

/**
 * Removes `created` round by round (ledger.ts: removalRound), what uses others first: within a round the calls go out
 * together, bounded by the client's concurrency — nested kinds (a category under another of the run's) one at a
 * time, newest first, so a child goes before its parent.
 */
async function removeInRounds<T>(
  created: readonly LedgerEntity[],
  remove: (kind: string, id: string) => Promise<T>,
): Promise<Map<LedgerEntity, T>> {
  const outcomes = new Map<LedgerEntity, T>()
  const rounds = [...new Set(created.map((e) => removalRound(e.kind)))].sort((x, y) => x - y)
  for (const round of rounds) {
    const inRound = created.filter((e) => removalRound(e.kind) === round)
    const nested = async (kind: string) => {
      for (const e of inRound.filter((x) => x.kind === kind)) outcomes.set(e, await remove(e.kind, e.id))
    }
    await Promise.all([
      ...inRound.filter((e) => !NESTED.has(e.kind)).map(async (e) => outcomes.set(e, await remove(e.kind, e.id))),
      ...[...NESTED].map(nested),
    ])
  }
  return outcomes
}

/** Rounds of search-and-remove for what carries the run's mark (a second copy of one key is found by the second). */
const SEARCH_ROUNDS = 3

/** The field of a found item that holds the id it is removed by (a product's is its sku). */
const ID_FIELD: Readonly<Record<FindableKind, string>> = {
  product: 'sku',
  customer: 'id',
  'attribute set': 'attribute_set_id',
}

function idOf(kind: FindableKind, item: Record<string, unknown>): string {
  return String(item[ID_FIELD[kind]])
}

function gone(o: Outcome | { status: number }): boolean {
  const status = 'status' in o ? o.status : o.answer?.status
  return status !== undefined && ((status >= 200 && status < 300) || status === 404)
}

/** `a cart`, `an order`. */
function a(kind: string): string {
  return `${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind}`
}

function leftover(e: LedgerEntity, reason: string): Leftover {
  return { kind: e.kind, id: e.id !== '' ? e.id : (e.key ?? '?'), label: e.label, reason }
}
