/**
 * The check `batch-partial`: batch price operations exclude and report invalid items and apply the valid
 * ones; the price/cost information calls and cost-delete refuse unknown skus (spec § Errors 1–3, § Catalog:
 * prices and costs; bodies per platform conventions § Batch prices).
 *
 * Every row works on products of its own (labels `batch <endpoint> …`, skus carrying the run id), so the
 * rows can run concurrently without touching each other's prices. Only the products are recorded in the
 * ledger (by the provisioner): every price this check stores lives on one of them and goes with it.
 *
 * The judging functions (`judgeMixedAnswer`, `judgeKnownSkusAnswer`, `judgeUnknownSkuAnswer`) are pure, so
 * they can be proven on a real instance's recorded answers.
 */
import { isObject, isSuccess, provisionerOf, SetupError, type Provisioner } from '../../fixtures/provision.ts'
import { rowId } from '../spec/catalog/index.ts'
import type { EndpointRow } from '../spec/types.ts'
import type { Answer, Exchange, Outcome } from '../target/client.ts'
import type { Session } from '../target/session.ts'
import { judgeBatchResult, type BatchItem } from './batch-attribution.ts'
import type { Check, Verdict } from './types.ts'

// --- the operations ----------------------------------------------------------------------------------------

export type Family = 'base' | 'cost' | 'special' | 'tier'

const PATHS = {
  base: { update: '/V1/products/base-prices', info: '/V1/products/base-prices-information' },
  cost: { update: '/V1/products/cost', info: '/V1/products/cost-information', delete: '/V1/products/cost-delete' },
  special: { update: '/V1/products/special-price', info: '/V1/products/special-price-information', delete: '/V1/products/special-price-delete' },
  tier: { update: '/V1/products/tier-prices', info: '/V1/products/tier-prices-information', delete: '/V1/products/tier-prices-delete' },
} as const

type Operation =
  /** A batch of price items: update, delete or replace. */
  | { kind: 'items'; key: string; family: Family; op: 'update' | 'delete' | 'replace' }
  /** `{skus}` → the stored prices. */
  | { kind: 'information'; key: string; family: Family }
  /** `{skus}` → true. */
  | { kind: 'cost-delete'; key: string }

const OPERATIONS: Readonly<Record<string, Operation>> = {
  'POST /V1/products/base-prices': { kind: 'items', key: 'base-prices', family: 'base', op: 'update' },
  'POST /V1/products/base-prices-information': { kind: 'information', key: 'base-prices-information', family: 'base' },
  'POST /V1/products/cost': { kind: 'items', key: 'cost', family: 'cost', op: 'update' },
  'POST /V1/products/cost-delete': { kind: 'cost-delete', key: 'cost-delete' },
  'POST /V1/products/cost-information': { kind: 'information', key: 'cost-information', family: 'cost' },
  'POST /V1/products/special-price': { kind: 'items', key: 'special-price', family: 'special', op: 'update' },
  'POST /V1/products/special-price-delete': { kind: 'items', key: 'special-price-delete', family: 'special', op: 'delete' },
  'POST /V1/products/special-price-information': { kind: 'information', key: 'special-price-information', family: 'special' },
  'POST /V1/products/tier-prices': { kind: 'items', key: 'tier-prices', family: 'tier', op: 'update' },
  'POST /V1/products/tier-prices-delete': { kind: 'items', key: 'tier-prices-delete', family: 'tier', op: 'delete' },
  'POST /V1/products/tier-prices-information': { kind: 'information', key: 'tier-prices-information', family: 'tier' },
  'PUT /V1/products/tier-prices': { kind: 'items', key: 'tier-prices-replace', family: 'tier', op: 'replace' },
}

/** The row ids this check judges. */
export const BATCH_ROWS: readonly string[] = Object.keys(OPERATIONS)

/**
 * The kinds of invalid item the spec names for each update. The deletes and the replace name none (the spec
 * says only "Failed items are excluded from the update, delete or replace"), so they get their update's kinds.
 */
const INVALID_KINDS: Readonly<Record<Family, readonly InvalidKind[]>> = {
  base: ['unknown sku', 'invalid price', 'unknown store id'],
  cost: ['unknown sku', 'invalid cost', 'unknown store id'],
  special: ['unknown sku', 'invalid price', 'unknown store id', 'reversed dates'],
  tier: ['unknown sku', 'invalid price', 'invalid price type', 'unknown website id', 'unknown customer group', 'invalid quantity'],
}

type InvalidKind =
  | 'unknown sku'
  | 'invalid price'
  | 'invalid cost'
  | 'unknown store id'
  | 'reversed dates'
  | 'invalid price type'
  | 'unknown website id'
  | 'unknown customer group'
  | 'invalid quantity'

type Price = Record<string, string | number>

/** An item of a judged call, with what makes it invalid (absent: valid). */
export interface PlannedItem extends BatchItem {
  kind?: string
}

// --- values ------------------------------------------------------------------------------------------------

/** Distinct odd values for the items of one row, so each result entry can be traced to its item. */
class Values {
  readonly #p: Provisioner
  readonly #prefix: string
  readonly #taken = new Set<number>([0, 1])
  #period = 0

  constructor(p: Provisioner, prefix: string) {
    this.#p = p
    this.#prefix = prefix
  }

  /** A value in [min, max] no other item of the row has; decimals > 0 never give a whole number. */
  number(label: string, min: number, max: number, decimals = 2): number {
    const step = 10 ** -decimals
    let v = this.#p.builders.oddNumber(`${this.#prefix} ${label}`, min, max, decimals)
    const round = (x: number) => Number(x.toFixed(decimals))
    while (this.#taken.has(v) || (decimals > 0 && Number.isInteger(v))) v = round(v + step)
    this.#taken.add(v)
    return v
  }

  price(label: string): number {
    return this.number(`price ${label}`, 5, 45)
  }

  negative(label: string): number {
    return this.number(`negative ${label}`, -9.99, -1.01)
  }

  /** A store or website id no install has. */
  unknownId(label: string): number {
    return this.number(`unknown id ${label}`, 9901, 9998, 0)
  }

  quantity(label: string): number {
    return this.number(`quantity ${label}`, 11, 97, 0)
  }

  /** A special-price period of its own: from and to, `YYYY-MM-DD hh:mm:ss`, in the future. */
  period(): { price_from: string; price_to: string } {
    const n = this.#period++
    const day = String(1 + (n % 28)).padStart(2, '0')
    const month = 1 + Math.floor(n / 28)
    return { price_from: `2031-${String(month).padStart(2, '0')}-${day} 00:00:00`, price_to: `2031-${String(month + 6).padStart(2, '0')}-${day} 00:00:00` }
  }
}

/** A valid price of the family for `sku`, every value its own. */
function validPrice(family: Family, v: Values, sku: string, label: string, variant = 0): Price {
  switch (family) {
    case 'base':
      return { sku, price: v.price(label), store_id: 0 }
    case 'cost':
      return { sku, cost: v.price(label), store_id: 0 }
    case 'special':
      return { sku, price: v.price(label), store_id: 0, ...v.period() }
    case 'tier':
      // A second kind of valid tier: a discount (a percentage) for the group General.
      return variant === 1
        ? { sku, price: v.number(`discount ${label}`, 5, 40), price_type: 'discount', website_id: 0, customer_group: 'General', quantity: v.quantity(label) }
        : { sku, price: v.price(label), price_type: 'fixed', website_id: 0, customer_group: 'ALL GROUPS', quantity: v.quantity(label) }
  }
}

/** `price` made invalid the given way (its sku stays, except for an unknown sku). */
function spoil(kind: InvalidKind, price: Price, v: Values, unknownSku: string, runId: string): Price {
  const label = `${kind} ${price.sku}`
  switch (kind) {
    case 'unknown sku':
      return { ...price, sku: unknownSku }
    case 'invalid price':
      return { ...price, price: v.negative(label) }
    case 'invalid cost':
      return { ...price, cost: v.negative(label) }
    case 'unknown store id':
      return { ...price, store_id: v.unknownId(label) }
    case 'unknown website id':
      return { ...price, website_id: v.unknownId(label) }
    case 'reversed dates':
      return { ...price, price_from: price.price_to!, price_to: price.price_from! }
    case 'invalid price type':
      return { ...price, price_type: 'bogus' }
    case 'unknown customer group':
      return { ...price, customer_group: `no-such-group-${runId}` }
    case 'invalid quantity':
      return { ...price, quantity: -3 }
  }
}

// --- stored prices, normalised ---------------------------------------------------------------------------

interface Stored {
  sku: string
  /** What identifies the price beside its sku: store; store and period; website, group and quantity. */
  key: string
  /** The values stored under that key. */
  values: Record<string, number | string | undefined>
  raw: unknown
}

function num(x: unknown): number | undefined {
  if (typeof x === 'number') return Number.isFinite(x) ? x : undefined
  if (typeof x === 'string' && /^\s*[+-]?(\d+(\.\d*)?|\.\d+)\s*$/.test(x)) return Number(x)
  return undefined
}

const keyNum = (x: unknown): string => (num(x) !== undefined ? String(num(x)) : String(x ?? '').trim())
const keyText = (x: unknown): string => String(x ?? '').trim().toLowerCase()
const keyDate = (x: unknown): string => String(x ?? '').trim().replace('T', ' ').slice(0, 19)

function normalise(family: Family, e: unknown): Stored | undefined {
  if (!isObject(e) || typeof e.sku !== 'string') return undefined
  const sku = e.sku
  switch (family) {
    case 'base':
      return { sku, key: `store ${keyNum(e.store_id)}`, values: { price: num(e.price) }, raw: e }
    case 'cost':
      return { sku, key: `store ${keyNum(e.store_id)}`, values: { cost: num(e.cost) }, raw: e }
    case 'special':
      return { sku, key: `store ${keyNum(e.store_id)} from ${keyDate(e.price_from)} to ${keyDate(e.price_to)}`, values: { price: num(e.price) }, raw: e }
    case 'tier':
      return {
        sku,
        key: `website ${keyNum(e.website_id)} group ${keyText(e.customer_group)} quantity ${keyNum(e.quantity)}`,
        values: { price: num(e.price), price_type: typeof e.price_type === 'string' ? e.price_type.toLowerCase() : undefined },
        raw: e,
      }
  }
}

const sameSku = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase()

function sameValues(a: Stored['values'], b: Stored['values']): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)])
  for (const k of keys) {
    const x = a[k]
    const y = b[k]
    if (typeof x === 'number' && typeof y === 'number') {
      if (Math.abs(x - y) > 1e-6) return false
    } else if (String(x ?? '').toLowerCase() !== String(y ?? '').toLowerCase()) return false
  }
  return true
}

/** A stored state of one sku, order-free, to compare before and after. */
function fingerprint(entries: Stored[]): string {
  const canon = (s: Stored): string =>
    `${s.key}: ${Object.entries(s.values)
      .map(([k, v]) => `${k}=${typeof v === 'number' ? Number(v.toFixed(6)) : String(v ?? '')}`)
      .join(', ')}`
  return JSON.stringify(entries.map(canon).sort())
}

const of = (entries: Stored[], sku: string): Stored[] => entries.filter((e) => sameSku(e.sku, sku))

// --- quoting -----------------------------------------------------------------------------------------------

function clip(text: string, max = 200): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text
}

function json(value: unknown, max = 200): string {
  try {
    return clip(JSON.stringify(value) ?? String(value), max)
  } catch {
    return clip(String(value), max)
  }
}

/** `404 "No such entity…"` or `200 [...]`. */
export function quoteReply(answer: { status: number; body: unknown }): string {
  const body = answer.body
  if (isObject(body) && typeof body.message === 'string') return `${answer.status} "${clip(body.message, 160)}"`
  if (body === undefined || body === '') return `${answer.status} (empty body)`
  return `${answer.status} ${json(body, 160)}`
}

function quoteOutcome(o: Outcome): string {
  return o.answer !== undefined ? quoteReply(o.answer) : `no answer (${o.failure?.message ?? 'transport failure'})`
}

const itemName = (it: PlannedItem): string => `item ${it.index}${it.kind !== undefined ? ` (${it.kind})` : ''} ${json(it.fields)}`

// --- pure judgements ---------------------------------------------------------------------------------------

export interface MixedJudgement {
  problems: string[]
  warnings: string[]
  /** Set when the call was answered per item (a JSON array). */
  attributed?: Record<number, number[]>
}

/**
 * The answer to a batch call with valid and invalid items: a 2xx success whose result entries cover every
 * invalid item and name no valid one (spec § Errors 1). A call refused as a whole fails, quoting the answer.
 */
export function judgeMixedAnswer(items: PlannedItem[], answer: { status: number; body: unknown }): MixedJudgement {
  const invalid = items.filter((it) => !it.valid)
  const valid = items.filter((it) => it.valid)
  if (!(answer.status >= 200 && answer.status < 300)) {
    const problem =
      invalid.length > 0
        ? `the call failed as a whole instead of reporting its invalid items: answered ${quoteReply(answer)} — per the spec (Errors 1) the ${invalid.length} invalid item${invalid.length === 1 ? '' : 's'} (${invalid.map((it) => `item ${it.index}${it.kind !== undefined ? ` ${it.kind}` : ''}`).join(', ')}) ${invalid.length === 1 ? 'is' : 'are'} excluded and reported as result entries, and the ${valid.length} valid one${valid.length === 1 ? '' : 's'} applied`
        : `the call failed as a whole: answered ${quoteReply(answer)} — per the spec (Errors 1) a call whose items are all valid applies them and answers []`
    return {
      problems: [problem],
      warnings: [],
    }
  }
  const j = judgeBatchResult(items, answer.body)
  const kinds = new Map(items.map((it) => [it.index, it.kind]))
  // Name each item's kind in the judgement's words: "invalid item 3 {…}" → "invalid item 3 (invalid price) {…}".
  const named = (text: string): string => text.replace(/\bitem (\d+) (?=[{\[])/g, (m, i: string) => (kinds.get(Number(i)) !== undefined ? `item ${i} (${kinds.get(Number(i))}) ` : m))
  return {
    problems: j.problems.map(named),
    warnings: j.warnings.map(named),
    ...(Array.isArray(answer.body) ? { attributed: Object.fromEntries(j.attribution.byItem) } : {}),
  }
}

/**
 * The answer to an information call or a cost-delete that names only known skus: a 2xx success; an
 * information call answers a JSON array with entries for every sku asked for. Undefined when it is right.
 */
export function judgeKnownSkusAnswer(kind: 'information' | 'cost-delete', skus: string[], answer: { status: number; body: unknown }): string | undefined {
  if (!(answer.status >= 200 && answer.status < 300)) return `a call naming only known skus (${skus.join(', ')}) answered ${quoteReply(answer)}, not a success`
  if (kind === 'cost-delete') {
    return answer.body === false ? `a cost-delete of known skus (${skus.join(', ')}) answered false: nothing was deleted` : undefined
  }
  if (!Array.isArray(answer.body)) return `a call naming known skus (${skus.join(', ')}) answered ${quoteReply(answer)}, not a JSON array of their prices`
  const body = answer.body as unknown[]
  const missing = skus.filter((s) => !body.some((e) => isObject(e) && typeof e.sku === 'string' && sameSku(e.sku, s)))
  if (missing.length > 0) return `asked for the prices of ${skus.join(', ')} (all stored), the answer has no entry for ${missing.join(', ')}: ${json(body)}`
  return undefined
}

/**
 * The answer to an information call or a cost-delete naming at least one unknown sku: an error (spec
 * § Errors 2: "raise an exception"; the status is not shown, so any 4xx/5xx). Undefined when it is right.
 */
export function judgeUnknownSkuAnswer(
  kind: 'information' | 'cost-delete',
  skus: string[],
  unknown: string[],
  answer: { status: number; body: unknown },
): string | undefined {
  if (answer.status >= 400) return undefined
  const named = `naming the unknown sku${unknown.length === 1 ? '' : 's'} ${unknown.join(', ')}${skus.length > unknown.length ? ` beside the known ${skus.filter((s) => !unknown.some((u) => sameSku(u, s))).join(', ')}` : ''}`
  const rule = 'per the spec (Errors 2) a call naming an unknown sku raises an exception'
  if (answer.status < 200 || answer.status >= 300) return `a ${kind === 'cost-delete' ? 'cost-delete' : 'call'} ${named} answered ${quoteReply(answer)}, not an error: ${rule}`
  if (kind === 'cost-delete') {
    return `the target dropped the unknown sku instead of raising: a cost-delete ${named} answered ${quoteReply(answer)}; ${rule}`
  }
  const body = Array.isArray(answer.body) ? (answer.body as unknown[]) : undefined
  const echoed = body !== undefined && unknown.some((u) => body.some((e) => isObject(e) && typeof e.sku === 'string' && sameSku(e.sku, u)))
  if (body !== undefined && !echoed) {
    return `the target dropped the unknown sku instead of raising: a call ${named} answered ${quoteReply(answer)}, silently leaving ${unknown.length === 1 ? 'it' : 'them'} out; ${rule}`
  }
  return `a call ${named} answered ${quoteReply(answer)} instead of raising an exception; ${rule}`
}

// --- talking to the target -----------------------------------------------------------------------------

/** A judged call (its exchange is evidence), made by the run's admin; never throws. */
async function send(session: Session, method: string, path: string, body: unknown): Promise<Outcome> {
  const token = session.tokenFor('admin')
  return session.send({ method, path: session.targetPath(path), store: session.seed.storeCode, ...(token !== undefined ? { token } : {}), body })
}

const arrayAnswer = (a: Answer): boolean => isSuccess(a) && Array.isArray(a.body)

function storedOf(family: Family, body: unknown): Stored[] {
  return (Array.isArray(body) ? body : []).flatMap((e) => normalise(family, e) ?? [])
}

/** The stored prices of `skus` through the family's information call, as a set-up step. */
async function readState(p: Provisioner, family: Family, skus: string[], step: string): Promise<Stored[]> {
  const { answer } = await p.call(step, { method: 'POST', path: PATHS[family].info, actor: 'admin', body: { skus } }, arrayAnswer)
  return storedOf(family, answer.body)
}

/**
 * Stores `prices` through the family's update (a set-up step). With `verify`, reads them back through the
 * information call and refuses to go on unless each is there: the row is then not judged, never passed.
 */
async function establish(p: Provisioner, family: Family, prices: Price[], step: string, verify: boolean): Promise<Answer> {
  const { answer } = await p.call(step, { method: 'POST', path: PATHS[family].update, actor: 'admin', body: { prices } })
  if (!verify) return answer
  const stored = await readState(p, family, [...new Set(prices.map((x) => String(x.sku)))], `${step}: read back`)
  for (const price of prices) {
    const want = normalise(family, price)!
    const got = of(stored, want.sku).find((s) => s.key === want.key)
    if (got === undefined || !sameValues(got.values, want.values)) {
      throw new SetupError(step, `set-up step "${step}": POST ${PATHS[family].update} answered ${quoteReply(answer)} but ${json(price)} is not stored (read back ${got !== undefined ? json(got.raw) : 'nothing under that key'})`)
    }
  }
  return answer
}

// --- the rows ----------------------------------------------------------------------------------------------

interface Judged {
  problems: string[]
  warnings: string[]
  exchanges: Exchange[]
  details: Record<string, unknown>
  summary: string
  /** Set when the row could not be judged after all (a read-back the judgement needs was refused). */
  unjudged?: string
}

/** update / delete / replace: one mixed call, its read-back, then an all-valid call. */
async function judgeItems(row: EndpointRow, op: Extract<Operation, { kind: 'items' }>, session: Session): Promise<Judged> {
  const p = provisionerOf(session)
  const { family } = op
  const prefix = `batch ${op.key}`
  const v = new Values(p, prefix)
  const runId = session.seed.runId
  const unknownSku = p.builders.sku(`${prefix} no such sku`)
  const invalidKinds = INVALID_KINDS[family].filter((k) => k !== 'unknown sku')

  // Products: two for valid items, one per invalid kind that names a known sku.
  const [valid1, valid2, ...spoiled] = await Promise.all([
    p.product(`${prefix} valid 1`),
    p.product(`${prefix} valid 2`),
    ...invalidKinds.map((k) => p.product(`${prefix} ${k}`)),
  ])
  const invalidSku = new Map(invalidKinds.map((k, i) => [k, spoiled[i]!.sku]))

  // Known state first: what the delete must remove (and the all-valid delete after it), the tiers the replace
  // must remove, and a stored price under each invalid item's own sku, which that item must leave alone.
  let mixedValid: Price[]
  let allValid: Price[]
  let invalidBase: Map<InvalidKind, Price>
  const unknownBase = validPrice(family, v, unknownSku, 'unknown sku')
  if (op.op === 'update') {
    mixedValid = [validPrice(family, v, valid1!.sku, 'valid 1'), validPrice(family, v, valid2!.sku, 'valid 2', 1)]
    invalidBase = new Map(invalidKinds.map((k) => [k, validPrice(family, v, invalidSku.get(k)!, k)]))
    allValid = [validPrice(family, v, valid1!.sku, 'valid 1 again'), validPrice(family, v, valid2!.sku, 'valid 2 again', 1)]
  } else {
    const existing1 = validPrice(family, v, valid1!.sku, 'valid 1 existing')
    const existing2 = validPrice(family, v, valid2!.sku, 'valid 2 existing', 1)
    const spare = validPrice(family, v, valid1!.sku, 'valid 1 existing spare')
    invalidBase = new Map(invalidKinds.map((k) => [k, validPrice(family, v, invalidSku.get(k)!, `${k} existing`)]))
    await establish(p, family, [existing1, existing2, spare, ...invalidBase.values()], `store the ${family} prices the ${op.op} works on`, true)
    if (op.op === 'delete') {
      // Deleted items name the stored prices exactly; the invalid ones name a stored price, spoiled.
      mixedValid = [existing1, existing2]
      allValid = [spare]
    } else {
      mixedValid = [validPrice(family, v, valid1!.sku, 'valid 1 new'), validPrice(family, v, valid2!.sku, 'valid 2 new', 1)]
      allValid = [validPrice(family, v, valid1!.sku, 'valid 1 newer')]
    }
  }
  const invalidItems: { kind: InvalidKind; fields: Price }[] = [
    { kind: 'unknown sku', fields: spoil('unknown sku', unknownBase, v, unknownSku, runId) },
    ...invalidKinds.map((k) => ({ kind: k, fields: spoil(k, invalidBase.get(k)!, v, unknownSku, runId) })),
  ]
  // Valid and invalid items interleaved, so neither position nor order tells them apart.
  const items: PlannedItem[] = []
  const queue = [...invalidItems]
  for (const fields of mixedValid) {
    items.push({ index: items.length, valid: true, fields })
    const next = queue.shift()
    if (next) items.push({ index: items.length, valid: false, kind: next.kind, fields: next.fields })
  }
  for (const next of queue) items.push({ index: items.length, valid: false, kind: next.kind, fields: next.fields })

  const knownSkus = [valid1!.sku, valid2!.sku, ...invalidSku.values()]
  const { answer: beforeAnswer } = await p.call(`read the ${family} prices before the ${op.op}`, { method: 'POST', path: PATHS[family].info, actor: 'admin', body: { skus: knownSkus } }, arrayAnswer)
  const before = beforeAnswer.body as unknown[]

  const { method, path } = row
  const exchanges: Exchange[] = []
  const problems: string[] = []
  const warnings: string[] = []
  const details: Record<string, unknown> = { items: items.map((it) => ({ index: it.index, valid: it.valid, ...(it.kind ? { kind: it.kind } : {}), fields: it.fields })) }

  const mixed = await send(session, method, path, { prices: items.map((it) => it.fields) })
  exchanges.push(mixed.exchange)
  if (mixed.answer === undefined) {
    return { problems: [`the mixed call got no answer: ${quoteOutcome(mixed)}`], warnings, exchanges, details, summary: '' }
  }
  if (session.looksLikeNoRoute(mixed.answer, session.targetPath(path))) {
    return { problems: [`the mixed call answered like the target's no-route answer (${quoteReply(mixed.answer)})`], warnings, exchanges, details, summary: '' }
  }
  const judgement = judgeMixedAnswer(items, mixed.answer)
  details.attribution = judgement.attributed
  problems.push(...judgement.problems.map((x) => `mixed call: ${x}`))
  warnings.push(...judgement.warnings.map((x) => `mixed call: ${x}`))

  // Read back: valid items applied, invalid ones not.
  const readBack = await send(session, 'POST', PATHS[family].info, { skus: knownSkus })
  exchanges.push(readBack.exchange)
  let unjudged: string | undefined
  if (readBack.answer === undefined || !arrayAnswer(readBack.answer)) {
    unjudged = `the read-back POST ${PATHS[family].info} of known skus answered ${quoteOutcome(readBack)}, so what the mixed call stored is not known`
  } else {
    details.readBack = { before, after: readBack.answer.body }
    problems.push(...judgeReadBack(op.op, family, items, before, readBack.answer.body as unknown[]))
  }

  // An all-valid call answers exactly [].
  const allValidItems: PlannedItem[] = allValid.map((fields, index) => ({ index, valid: true, fields }))
  const clean = await send(session, method, path, { prices: allValid })
  exchanges.push(clean.exchange)
  if (clean.answer === undefined) problems.push(`all-valid call: no answer (${quoteOutcome(clean)})`)
  else {
    const j = judgeMixedAnswer(allValidItems, clean.answer)
    problems.push(...j.problems.map((x) => `all-valid call ${json(allValid, 300)}: ${x}`))
  }

  const invalidKindsSent = invalidItems.map((i) => i.kind).join(', ')
  const summary =
    `${op.op} of ${mixedValid.length} valid and ${invalidItems.length} invalid items (${invalidKindsSent}): every invalid item reported, ` +
    `no valid one; valid items ${op.op === 'delete' ? 'deleted' : 'stored'}${op.op === 'replace' ? ' (and the tiers not in the call gone)' : ''}, invalid ones left alone; an all-valid call answered []`
  return { problems, warnings, exchanges, details, summary, ...(unjudged !== undefined && problems.length === 0 ? { unjudged } : {}) }
}

/**
 * What the read-back (information call of the known skus) must show after a mixed call: valid items applied
 * (deleted; for a replace, the skus' other tiers gone), invalid items' skus as they were before. `before`
 * and `after` are the information answers' entries. Pure.
 */
export function judgeReadBack(op: 'update' | 'delete' | 'replace', family: Family, items: PlannedItem[], beforeEntries: unknown[], afterEntries: unknown[]): string[] {
  const before = storedOf(family, beforeEntries)
  const after = storedOf(family, afterEntries)
  const problems: string[] = []
  const verb = op === 'delete' ? 'deleted' : 'stored'
  for (const it of items.filter((i) => i.valid)) {
    const want = normalise(family, it.fields)!
    const got = of(after, want.sku).find((s) => s.key === want.key)
    if (op === 'delete') {
      if (got !== undefined) problems.push(`valid ${itemName(it)} was not deleted: read back ${json(got.raw)}`)
    } else if (got === undefined) {
      problems.push(`valid ${itemName(it)} was not ${verb}: read back ${of(after, want.sku).length === 0 ? `nothing for sku ${want.sku}` : `for sku ${want.sku} only ${json(of(after, want.sku).map((s) => s.raw))}`}`)
    } else if (!sameValues(got.values, want.values)) {
      problems.push(`valid ${itemName(it)} was not ${verb}: read back ${json(got.raw)}`)
    }
  }
  if (op === 'replace') {
    // Tier prices of the replaced skus that are not in the call must be gone.
    const validOf = (sku: string) => items.filter((i) => i.valid && sameSku(String(i.fields.sku), sku)).map((i) => normalise(family, i.fields)!)
    for (const sku of new Set(items.filter((i) => i.valid).map((i) => String(i.fields.sku)))) {
      const keep = validOf(sku)
      const stale = of(after, sku).filter((s) => !keep.some((k) => k.key === s.key))
      if (stale.length > 0) problems.push(`the replace left tier prices of sku ${sku} that are not in the call: ${json(stale.map((s) => s.raw))} (the spec: replace "removes existing tier prices and sets the new ones")`)
    }
  }
  const validSkus = items.filter((i) => i.valid).map((i) => String(i.fields.sku))
  for (const it of items.filter((i) => !i.valid)) {
    const sku = String(it.fields.sku)
    // (An unknown sku is not read back: its before and after are both empty.)
    if (validSkus.some((s) => sameSku(s, sku))) continue
    const was = of(before, sku)
    const now = of(after, sku)
    if (fingerprint(was) !== fingerprint(now)) {
      problems.push(`invalid ${itemName(it)} was applied: sku ${sku} read back ${json(now.map((s) => s.raw))} where it had ${json(was.map((s) => s.raw))}`)
    }
  }
  return problems
}

/** An information call: known skus answer their prices, a known and an unknown sku are refused. */
async function judgeInformation(op: Extract<Operation, { kind: 'information' }>, session: Session): Promise<Judged> {
  const p = provisionerOf(session)
  const { family } = op
  const prefix = `batch ${op.key}`
  const v = new Values(p, prefix)
  const [known1, known2] = await Promise.all([p.product(`${prefix} known 1`), p.product(`${prefix} known 2`)])
  const skus = [known1!.sku, known2!.sku]
  // Base prices come with the products; the other prices are stored first, so there is something to answer.
  // Not verified through the call under test (its answer is what is judged); what the set-up call answered
  // is quoted when the prices are missing.
  let stored: Answer | undefined
  if (family !== 'base') {
    stored = await establish(p, family, [validPrice(family, v, known1!.sku, 'known 1'), validPrice(family, v, known2!.sku, 'known 2', 1)], `store the ${family} prices to ask for`, false)
  }
  const unknownSku = p.builders.sku(`${prefix} no such sku`)
  const path = PATHS[family].info
  const exchanges: Exchange[] = []
  const problems: string[] = []

  const known = await send(session, 'POST', path, { skus })
  exchanges.push(known.exchange)
  if (known.answer === undefined) problems.push(`the call naming known skus got no answer: ${quoteOutcome(known)}`)
  else {
    const why = judgeKnownSkusAnswer('information', skus, known.answer)
    if (why !== undefined) problems.push(stored !== undefined ? `${why} (the set-up POST ${PATHS[family].update} storing them answered ${quoteReply(stored)})` : why)
  }
  const mixedSkus = [known1!.sku, unknownSku]
  const mixed = await send(session, 'POST', path, { skus: mixedSkus })
  exchanges.push(mixed.exchange)
  if (mixed.answer === undefined) problems.push(`the call naming an unknown sku got no answer: ${quoteOutcome(mixed)}`)
  else {
    const why = judgeUnknownSkuAnswer('information', mixedSkus, [unknownSku], mixed.answer)
    if (why !== undefined) problems.push(why)
  }
  const entries = Array.isArray(known.answer?.body) ? (known.answer.body as unknown[]).length : 0
  const summary = `two known skus answered their prices (${known.answer?.status}, ${entries} entries); a known and an unknown sku were refused (${quoteOutcome(mixed)})`
  return { problems, warnings: [], exchanges, details: { skus, unknownSku }, summary }
}

/** cost-delete: known skus are deleted; a known and an unknown sku are refused and nothing is deleted. */
async function judgeCostDelete(session: Session): Promise<Judged> {
  const p = provisionerOf(session)
  const prefix = 'batch cost-delete'
  const v = new Values(p, prefix)
  const [known1, known2] = await Promise.all([p.product(`${prefix} known 1`), p.product(`${prefix} known 2`)])
  const cost1 = validPrice('cost', v, known1!.sku, 'known 1')
  const cost2 = validPrice('cost', v, known2!.sku, 'known 2')
  await establish(p, 'cost', [cost1, cost2], 'store the costs to delete', true)
  const unknownSku = p.builders.sku(`${prefix} no such sku`)
  const exchanges: Exchange[] = []
  const problems: string[] = []
  let unjudged: string | undefined

  const readCosts = async (sku: string): Promise<Stored[] | undefined> => {
    const o = await send(session, 'POST', PATHS.cost.info, { skus: [sku] })
    exchanges.push(o.exchange)
    if (o.answer === undefined || !arrayAnswer(o.answer)) {
      unjudged ??= `the read-back POST ${PATHS.cost.info} of ${sku} answered ${quoteOutcome(o)}, so what the cost-delete did is not known`
      return undefined
    }
    return of(storedOf('cost', o.answer.body), sku)
  }

  // Known skus only: success, and the cost is gone.
  const first = await send(session, 'POST', PATHS.cost.delete, { skus: [known1!.sku] })
  exchanges.push(first.exchange)
  if (first.answer === undefined) problems.push(`the cost-delete of a known sku got no answer: ${quoteOutcome(first)}`)
  else {
    const why = judgeKnownSkusAnswer('cost-delete', [known1!.sku], first.answer)
    if (why !== undefined) problems.push(why)
    else {
      const left = await readCosts(known1!.sku)
      if (left !== undefined && left.length > 0) problems.push(`the cost-delete of ${known1!.sku} answered ${quoteReply(first.answer)} but its cost is still there: ${json(left.map((s) => s.raw))}`)
    }
  }

  // A known and an unknown sku: an error, and the known sku's cost is still there.
  const mixedSkus = [known2!.sku, unknownSku]
  const second = await send(session, 'POST', PATHS.cost.delete, { skus: mixedSkus })
  exchanges.push(second.exchange)
  if (second.answer === undefined) problems.push(`the cost-delete naming an unknown sku got no answer: ${quoteOutcome(second)}`)
  else {
    const why = judgeUnknownSkuAnswer('cost-delete', mixedSkus, [unknownSku], second.answer)
    const left = await readCosts(known2!.sku)
    const want = normalise('cost', cost2)!
    const kept = left === undefined ? undefined : left.some((s) => s.key === want.key && sameValues(s.values, want.values))
    if (why !== undefined) problems.push(kept === false ? `${why}; it also deleted the cost of the known sku ${known2!.sku}` : why)
    else if (kept === false) problems.push(`the cost-delete naming the unknown sku ${unknownSku} was refused (${quoteReply(second.answer)}) but deleted the cost of the known sku ${known2!.sku} anyway (read back ${json(left!.map((s) => s.raw))})`)
  }
  const summary = `a known sku's cost deleted (${quoteOutcome(first)}); a known and an unknown sku refused (${quoteOutcome(second)}) and nothing deleted`
  return { problems, warnings: [], exchanges, details: { skus: [known1!.sku, known2!.sku], unknownSku }, summary, ...(unjudged !== undefined && problems.length === 0 ? { unjudged } : {}) }
}

// --- the check ---------------------------------------------------------------------------------------------

export async function batchPartial(row: EndpointRow, session: Session): Promise<Verdict> {
  const op = OPERATIONS[rowId(row)]
  if (op === undefined) return { status: 'skipped', message: 'not a batch price operation', exchanges: [] }
  let judged: Judged
  try {
    judged = op.kind === 'items' ? await judgeItems(row, op, session) : op.kind === 'information' ? await judgeInformation(op, session) : await judgeCostDelete(session)
  } catch (err) {
    if (err instanceof SetupError) {
      return { status: 'skipped', message: `not judged: ${err.message}`, exchanges: err.exchange !== undefined ? [err.exchange] : [] }
    }
    throw err
  }
  const { problems, warnings, exchanges, details } = judged
  const extra = warnings.length > 0 ? { warnings } : {}
  if (problems.length > 0) return { status: 'failed', message: problems.join('; '), exchanges, details, ...extra }
  if (judged.unjudged !== undefined) return { status: 'skipped', message: `not fully judged: ${judged.unjudged}`, exchanges, details, ...extra }
  return { status: 'passed', message: judged.summary, exchanges, details, ...extra }
}

export const batchPartialCheck: Check = {
  name: 'batch-partial',
  description: 'Batch price calls exclude and report invalid items and apply the valid ones; information calls and cost-delete refuse unknown skus.',
  spec: ['Errors 1–3', 'Endpoints › Endpoint lists by module › Catalog: prices and costs'],
  appliesTo: (row) => (OPERATIONS[rowId(row)] !== undefined ? true : 'not a batch price operation'),
  run: batchPartial,
}
