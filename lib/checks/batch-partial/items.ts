import { unanswered } from '../../shop/answer-text.ts'
import { defined } from '../../base/defined.ts'
/** The rows of the batch updates, deletes and the replace: a mixed call, its read-back, an all-valid call. */
import { provisionerOf, type Product, type Provisioner } from '../../setup/provision.ts'
import type { EndpointRow } from '../../spec/types.ts'
import type { Exchange } from '../../results/exchange.ts'
import type { Session } from '../../shop/session.ts'
import { batchServerError, judgeMixedAnswer, judgeReadBack } from './judgements.ts'
import { serverErrorOf } from '../../shop/server-error.ts'
import {
  invalidKindsOf,
  PATHS,
  type InvalidKind,
  type Operation,
  type PlannedItem,
  type Price,
  type PriceFamily,
} from './operations.ts'
import { json, quoteOutcome, quoteReply } from './quote.ts'
import { arrayAnswer, establish, send, type Judged, type JudgedCall } from './target.ts'
import { tagEvidence } from '../../shop/request-channel.ts'
import { spoil, validPrice, Values } from './values.ts'

/** update / delete / replace: one mixed call, its read-back, then an all-valid call. */
export async function judgeItems(
  row: EndpointRow,
  op: Extract<Operation, { kind: 'items' }>,
  session: Session,
): Promise<Judged> {
  const p = provisionerOf(session)
  const { family } = op
  const prefix = `batch ${op.key}`
  const v = new Values(p, prefix)
  const runId = session.seed.runId
  const unknownSku = p.builders.sku(`${prefix} no such sku`)
  const products = await productsOf(p, op, prefix)
  // The unknown sku's price is drawn before the known ones: a row's values are kept apart in the order drawn.
  const unknownBase = validPrice(family, v, unknownSku, 'unknown sku')
  const { mixedValid, allValid, invalidBase } = await knownState(p, op, v, products)
  const invalidItems: { kind: InvalidKind; fields: Price }[] = [
    { kind: 'unknown sku', fields: spoil('unknown sku', unknownBase, v, unknownSku, runId) },
    ...[...invalidBase].map(([k, base]) => ({ kind: k, fields: spoil(k, base, v, unknownSku, runId) })),
  ]
  const items = interleaved(mixedValid, invalidItems)

  const knownSkus = [products.valid1.sku, products.valid2.sku, ...products.invalidSkus.map(([, sku]) => sku)]
  const { answer: beforeAnswer } = await p.call(
    `read the ${family} prices before the ${op.op}`,
    { method: 'POST', path: PATHS[family].info, actor: 'admin', body: { skus: knownSkus } },
    arrayAnswer,
  )
  const before = beforeAnswer.body as unknown[]

  const mixedCall = await sendMixed(session, row, items)
  const ended = endedAtMixedCall(items, mixedCall)
  if (ended !== undefined) return ended
  const readBack = await send(session, 'POST', PATHS[family].info, { skus: knownSkus }, 'read-back')
  tagEvidence(readBack.exchange, { _observed: { before } })
  const clean = await send(session, row.method, row.path, { prices: allValid }, 'all-valid call')
  return judgeItemsCalls(op.op, family, { items, before, mixed: mixedCall, readBack, clean, allValid })
}

/** The row's products: two for valid items, a special price's spare's own, one per invalid kind with a known sku. */
interface ItemsProducts {
  valid1: Product
  valid2: Product
  spareProduct: Product | undefined
  /** Each invalid kind that names a known sku, with that sku. */
  invalidSkus: (readonly [InvalidKind, string])[]
}

/**
 * Products: two for valid items, one per invalid kind that names a known sku; a special price's spare gets a product
 * of its own, as a shop keeps one special price per sku and store (observations/special-price-two-periods).
 */
async function productsOf(
  p: Provisioner,
  op: Extract<Operation, { kind: 'items' }>,
  prefix: string,
): Promise<ItemsProducts> {
  const { family } = op
  const invalidKinds = invalidKindsOf(family).filter((k) => k !== 'unknown sku')
  const spareOwnSku = family === 'special' && op.op !== 'update'
  const [valid1, valid2, spareProduct, ...spoiled] = await Promise.all([
    p.product(`${prefix} valid 1`),
    p.product(`${prefix} valid 2`),
    spareOwnSku ? p.product(`${prefix} valid 3`) : undefined,
    ...invalidKinds.map((k) => p.product(`${prefix} ${k}`)),
  ])
  const invalidSkus = invalidKinds.map((k, i) => [k, defined(spoiled[i], `the product of the ${k} item`).sku] as const)
  return { valid1, valid2, spareProduct, invalidSkus }
}

/** The mixed call's valid prices, the all-valid call's, and each invalid item's price before it is spoiled. */
interface KnownState {
  mixedValid: Price[]
  allValid: Price[]
  invalidBase: Map<InvalidKind, Price>
}

/**
 * Known state first: what the delete must remove (and the all-valid delete after it), the tiers the replace must
 * remove, and a stored price under each invalid item's own sku, which that item must leave alone. An update stores
 * nothing first.
 */
async function knownState(
  p: Provisioner,
  op: Extract<Operation, { kind: 'items' }>,
  v: Values,
  { valid1, valid2, spareProduct, invalidSkus }: ItemsProducts,
): Promise<KnownState> {
  const { family } = op
  if (op.op === 'update') {
    const mixedValid = [validPrice(family, v, valid1.sku, 'valid 1'), validPrice(family, v, valid2.sku, 'valid 2', 1)]
    const invalidBase = new Map(invalidSkus.map(([k, sku]) => [k, validPrice(family, v, sku, k)]))
    const allValid = [
      validPrice(family, v, valid1.sku, 'valid 1 again'),
      validPrice(family, v, valid2.sku, 'valid 2 again', 1),
    ]
    return { mixedValid, allValid, invalidBase }
  }
  const existing1 = validPrice(family, v, valid1.sku, 'valid 1 existing')
  const existing2 = validPrice(family, v, valid2.sku, 'valid 2 existing', 1)
  const spare = validPrice(family, v, (spareProduct ?? valid1).sku, 'valid 1 existing spare')
  const invalidBase = new Map(invalidSkus.map(([k, sku]) => [k, validPrice(family, v, sku, `${k} existing`)]))
  await establish(
    p,
    family,
    [existing1, existing2, spare, ...invalidBase.values()],
    `store the ${family} prices the ${op.op} works on`,
    true,
  )
  // Deleted items name the stored prices exactly; the invalid ones name a stored price, spoiled.
  if (op.op === 'delete') return { mixedValid: [existing1, existing2], allValid: [spare], invalidBase }
  const mixedValid = [
    validPrice(family, v, valid1.sku, 'valid 1 new'),
    validPrice(family, v, valid2.sku, 'valid 2 new', 1),
  ]
  return { mixedValid, allValid: [validPrice(family, v, valid1.sku, 'valid 1 newer')], invalidBase }
}

/** Valid and invalid items interleaved, so neither position nor order tells them apart. Pure. */
function interleaved(valid: Price[], invalid: { kind: InvalidKind; fields: Price }[]): PlannedItem[] {
  const items: PlannedItem[] = []
  const queue = [...invalid]
  for (const fields of valid) {
    items.push({ index: items.length, valid: true, fields })
    const next = queue.shift()
    if (next) items.push({ index: items.length, valid: false, kind: next.kind, fields: next.fields })
  }
  for (const next of queue) items.push({ index: items.length, valid: false, kind: next.kind, fields: next.fields })
  return items
}

/** The mixed call sent, its plan told to the evidence, and its answer read against the target's no-route answer. */
async function sendMixed(session: Session, row: EndpointRow, items: PlannedItem[]): Promise<JudgedCall> {
  const { method, path } = row
  const mixed = await send(session, method, path, { prices: items.map((it) => it.fields) }, 'mixed call')
  // Which items are valid, and why the others are not, is the check's plan: told to the evidence for `judge --har`.
  tagEvidence(mixed.exchange, {
    _items: items.map((it) => ({ valid: it.valid, ...(it.kind !== undefined ? { kind: it.kind } : {}) })),
  })
  return {
    ...mixed,
    noRoute: mixed.answer !== undefined && session.looksLikeNoRoute(mixed.answer, session.targetPath(path)),
  }
}

/** A row's calls as the judgement reads them: the planned items, the prices read before, the three calls. */
interface ItemsCalls {
  items: PlannedItem[]
  /** The information call's entries for the known skus before the mixed call. */
  before: unknown[]
  mixed: JudgedCall
  readBack: JudgedCall
  clean: JudgedCall
  /** The all-valid call's items. */
  allValid: Price[]
}

function detailsOf(items: PlannedItem[]): Record<string, unknown> {
  return {
    items: items.map((it) => ({
      index: it.index,
      valid: it.valid,
      ...(it.kind ? { kind: it.kind } : {}),
      fields: it.fields,
    })),
  }
}

/**
 * The row judged from its mixed call alone when that call ends it — no answer, the no-route answer, a server error:
 * nothing after it is sent; else undefined. Pure.
 */
export function endedAtMixedCall(items: PlannedItem[], mixed: JudgedCall): Judged | undefined {
  const base = { problems: [], warnings: [], exchanges: [mixed.exchange], details: detailsOf(items), summary: '' }
  if (mixed.answer === undefined) {
    const why = unanswered(mixed)
    return { ...base, unanswered: { reason: why.reason, text: `the mixed call got no answer: ${why.text}` } }
  }
  if (mixed.noRoute === true)
    return {
      ...base,
      problems: [`the mixed call answered like the target's no-route answer (${quoteReply(mixed.answer)})`],
    }
  const mixedError = batchServerError('the mixed call', mixed.answer)
  return mixedError !== undefined ? { ...base, unanswered: mixedError } : undefined
}

/**
 * update / delete / replace judged from the mixed call, its read-back and the all-valid call (the mixed call not ending
 * it). Pure.
 */
export function judgeItemsCalls(op: 'update' | 'delete' | 'replace', family: PriceFamily, calls: ItemsCalls): Judged {
  const { items, before, mixed, readBack, clean, allValid } = calls
  const exchanges: Exchange[] = [mixed.exchange, readBack.exchange, clean.exchange]
  const problems: string[] = []
  const warnings: string[] = []
  const details = detailsOf(items)
  const answer = defined(mixed.answer, "the mixed call's answer (endedAtMixedCall ends a call without one)")
  const judgement = judgeMixedAnswer(items, answer)
  details.attribution = judgement.attributed
  problems.push(...judgement.problems.map((x) => `mixed call: ${x}`))
  warnings.push(...judgement.warnings.map((x) => `mixed call: ${x}`))

  // Read back: valid items applied, invalid ones not.
  let unjudged: string | undefined
  if (readBack.answer === undefined || !arrayAnswer(readBack.answer)) {
    unjudged = `the read-back POST ${PATHS[family].info} of known skus answered ${quoteOutcome(readBack)}, so what the mixed call stored is not known`
  } else {
    details.readBack = { before, after: readBack.answer.body }
    problems.push(...judgeReadBack(op, family, items, before, readBack.answer.body as unknown[]))
  }

  // An all-valid call answers exactly [].
  const allValidItems: PlannedItem[] = allValid.map((fields, index) => ({ index, valid: true, fields }))
  let missed: Judged['unanswered']
  if (clean.answer === undefined)
    missed = { reason: unanswered(clean).reason, text: `the all-valid call got no answer: ${unanswered(clean).text}` }
  else if (serverErrorOf(clean.answer) !== undefined) missed = batchServerError('the all-valid call', clean.answer)
  else {
    const j = judgeMixedAnswer(allValidItems, clean.answer)
    problems.push(...j.problems.map((x) => `all-valid call ${json(allValid, 300)}: ${x}`))
  }

  const invalid = items.filter((it) => !it.valid)
  const summary =
    `${op} of ${items.length - invalid.length} valid and ${invalid.length} invalid items (${invalid.map((it) => it.kind).join(', ')}): every invalid item reported, ` +
    `no valid one; valid items ${op === 'delete' ? 'deleted' : 'stored'}${op === 'replace' ? ' (and the tiers not in the call gone)' : ''}, invalid ones left alone; an all-valid call answered []`
  return {
    problems,
    warnings,
    exchanges,
    details,
    summary,
    ...(unjudged !== undefined && problems.length === 0 ? { unjudged } : {}),
    ...(missed !== undefined ? { unanswered: missed } : {}),
  }
}
