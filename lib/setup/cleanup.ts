import { ledgerEntities, removalOf, USED_BY_OTHERS, type Ledger, type LedgerEntity, type LedgerEntry } from './ledger.ts'
import { runEmailPrefix, runMark } from './identifiers.ts'
import { platformCall } from './platform-calls.ts'
import { describeOutcome } from '../shop/answer-text.ts'
import type { TargetClient } from '../shop/client.ts'
import type { Outcome } from '../shop/request.ts'
import { FINDABLE, itemsOf, searchQuery, type FindableKind } from '../shop/lookup.ts'
import { sendRepeating } from '../shop/retry.ts'
import { endpointText } from '../spec/endpoint-id.ts'

export interface CleanupOutcome {
  removed: { kind: string; id: string; label: string }[]
  /** What of the run's is (or may be) still on the target, with why: the report lists it. */
  leftovers: { kind: string; id: string; label: string; reason: string }[]
}

/** Pages of a search the cleanup reads at most: a run makes a few hundred entities, not thousands. */
const MAX_PAGES = 20
const PAGE_SIZE = 100

/**
 * What the run made of each findable kind starts with its mark (lib/setup/identifiers.ts): the search pattern,
 * and the test every item found must pass too — a target that ignores the filter must not lose its own data.
 */
function marks(runId: string): Record<FindableKind, string> {
  return { product: `${runMark(runId)}-`, customer: runEmailPrefix(runId), 'attribute set': `${runMark(runId)} ` }
}

/**
 * Removes what the run made, where the interface has a call for it: first everything the ledger says was
 * created, then whatever still carries the run's mark (products by sku, customers by e-mail, attribute sets by
 * name, through the search-criteria lists) — a creation whose answer never came may have been made all the
 * same. Only what the ledger names or what carries the run's mark is ever touched. A 404 means it is gone.
 * The leftovers name everything of the run that is still there, or may be: never "complete" on less.
 */
export async function cleanUp(
  lines: readonly LedgerEntry[],
  client: TargetClient,
  adminToken: string,
  store: string,
  run: { id: string; ledger?: Ledger },
): Promise<CleanupOutcome> {
  const out: CleanupOutcome = { removed: [], leftovers: [] }
  const remove = (kind: string, id: string) => {
    const removal = removalOf(kind, id)!
    // A DELETE is the same however often it is sent: repeated when the target gave nothing usable.
    return sendRepeating(() => client.send({ method: removal.method, path: removal.path, store, token: adminToken }), gone, 'safe').then((r) => ({ removal, last: r.last }))
  }
  const entities = ledgerEntities(lines).reverse()
  const created = entities.filter((e) => e.state === 'created' && e.id !== '')
  // Two rounds: what uses other entities first (a tax rule, a coupon, products, customers), then what is used (the
  // tax classes and rates, sales rules, attribute sets, customer groups). Within a round the calls go out together,
  // bounded by the client's concurrency; results keep the newest-first order.
  const removeIn = (later: boolean) => Promise.all(created.map((e) => (removalOf(e.kind, e.id) === undefined || USED_BY_OTHERS.has(e.kind) !== later ? undefined : remove(e.kind, e.id))))
  const first = await removeIn(false)
  const second = await removeIn(true)
  const outcomes = first.map((o, i) => o ?? second[i])
  created.forEach((e, i) => {
    const done = outcomes[i]
    if (done === undefined) out.leftovers.push(leftover(e, `the interface has no call that removes ${a(e.kind)}`))
    else if (gone(done.last)) out.removed.push({ kind: e.kind, id: e.id, label: e.label })
    else out.leftovers.push(leftover(e, `${endpointText(done.removal)} answered ${describeOutcome(done.last)}`))
  })

  // What may be there although no answer said so: found by the search below, or listed as possibly left.
  const searched = new Set<string>(Object.keys(FINDABLE))
  for (const e of entities.filter((x) => x.state === 'requested')) {
    if (searched.has(e.kind) && e.key !== undefined) continue
    out.leftovers.push(leftover(e, `may have been made: its creation got no answer saying whether it was, and the interface has no call that finds ${a(e.kind)}`))
  }

  // What still carries the run's mark: removed, and looked for again — a creation repeated after a timeout can
  // have made two of a kind under one key (the first attempt was still queued at the shop), and a removal by key
  // takes one of them. Up to SEARCH_ROUNDS rounds; what is still found then is listed, without blaming the shop.
  const mark = marks(run.id)
  await Promise.all(
    (Object.keys(FINDABLE) as FindableKind[]).map(async (kind) => {
      const { list, field } = FINDABLE[kind]
      const removals = new Map<string, number>()
      for (let round = 1; round <= SEARCH_ROUNDS; round++) {
        const found = await searchAll(client, list, field, mark[kind], store, adminToken)
        if ('failed' in found) {
          out.leftovers.push({ kind, id: '?', label: `every ${kind} whose ${field} starts with ${mark[kind]}`, reason: `not known whether any is left: the search GET ${list} answered ${found.failed}` })
          return
        }
        const pending = found.items.filter((item) => !out.leftovers.some((l) => l.kind === kind && l.id === idOf(kind, item)))
        if (pending.length === 0) return
        for (const item of pending) {
          const key = String(item[field])
          const rawId = kind === 'product' ? key : kind === 'customer' ? item.id : item.attribute_set_id
          if (typeof rawId !== 'string' && typeof rawId !== 'number') {
            out.leftovers.push({ kind, id: key, label: `${kind} ${key}`, reason: `found by the cleanup's search (GET ${list}) without an id to remove it by` })
            continue
          }
          const id = String(rawId)
          const label = entities.find((e) => e.kind === kind && (e.id === id || e.key?.toLowerCase() === key.toLowerCase()))?.label ?? `${kind} ${key}`
          const times = removals.get(id) ?? (out.removed.some((r) => r.kind === kind && r.id === id) ? 1 : 0)
          if (round === SEARCH_ROUNDS) {
            out.removed = out.removed.filter((r) => !(r.kind === kind && r.id === id))
            out.leftovers.push({ kind, id, label, reason: `still found by the cleanup's search (GET ${list}) after ${times} removal${times === 1 ? '' : 's'} answered with a success` })
            continue
          }
          if (times === 0) run.ledger?.request({ kind, label, key }).created(id, `found by the cleanup's search (GET ${list})`)
          const done = await remove(kind, id)
          if (!gone(done.last)) {
            out.leftovers.push({ kind, id, label, reason: `found by the cleanup's search; ${endpointText(done.removal)} answered ${describeOutcome(done.last)}` })
            continue
          }
          removals.set(id, times + 1)
          if (!out.removed.some((r) => r.kind === kind && r.id === id)) out.removed.push({ kind, id, label })
        }
      }
    }),
  )
  await nameOrders(out, client, adminToken, store, run.id)
  return out
}

/**
 * Orders cannot be removed, but they can be found by their e-mail, which carries the run's mark: every order of the
 * run is named by its id and increment id, and a placement whose answer never came ("may have been made") is then
 * one of them or nothing — no leftover with an id of `?` where the search could look.
 */
async function nameOrders(out: CleanupOutcome, client: TargetClient, adminToken: string, store: string, runId: string): Promise<void> {
  if (!out.leftovers.some((l) => l.kind === 'order')) return
  const found = await searchAll(client, ORDERS, 'customer_email', runEmailPrefix(runId), store, adminToken)
  if ('failed' in found) return
  out.leftovers = out.leftovers.filter((l) => !(l.kind === 'order' && l.id === '?'))
  for (const order of found.items) {
    const id = String(order.entity_id ?? '')
    const name = `order ${String(order.increment_id ?? id)} (${String(order.customer_email)})`
    const known = out.leftovers.find((l) => l.kind === 'order' && l.id === id)
    if (known !== undefined) known.label = `${known.label}: ${name}`
    else out.leftovers.push({ kind: 'order', id, label: name, reason: `the interface has no call that removes an order (found by its e-mail, GET ${ORDERS})` })
  }
}

const ORDERS = platformCall('searchOrders').path

/** Rounds of search-and-remove for what carries the run's mark (a second copy of one key is found by the second). */
const SEARCH_ROUNDS = 3

function idOf(kind: FindableKind, item: Record<string, unknown>): string {
  return String(kind === 'product' ? item.sku : kind === 'customer' ? item.id : item.attribute_set_id)
}

function gone(o: Outcome | { status: number }): boolean {
  const status = 'status' in o ? o.status : o.answer?.status
  return status !== undefined && ((status >= 200 && status < 300) || status === 404)
}

/** `a cart`, `an order`. */
function a(kind: string): string {
  return `${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind}`
}

function leftover(e: LedgerEntity, reason: string): CleanupOutcome['leftovers'][number] {
  return { kind: e.kind, id: e.id !== '' ? e.id : (e.key ?? '?'), label: e.label, reason }
}

/** Every item of `list` whose `field` starts with `prefix`, page by page until `total_count`; or why not. */
async function searchAll(client: TargetClient, list: string, field: string, prefix: string, store: string, token: string): Promise<{ items: Record<string, unknown>[] } | { failed: string }> {
  const items: Record<string, unknown>[] = []
  for (let page = 1; page <= MAX_PAGES; page++) {
    const query = searchQuery([[field, `${prefix}%`, 'like']], { size: PAGE_SIZE, current: page })
    const { last } = await sendRepeating(() => client.send({ method: 'GET', path: list, query, store, token }), (a) => a.status === 200, 'safe')
    const found = itemsOf(last)
    if (found === undefined) return { failed: describeOutcome(last) }
    items.push(...found.filter((i) => typeof i[field] === 'string' && (i[field] as string).toLowerCase().startsWith(prefix.toLowerCase())))
    const total = (last.answer!.body as { total_count?: unknown }).total_count
    if (typeof total !== 'number' || page * PAGE_SIZE >= total || found.length === 0) break
  }
  return { items }
}
