/** Stored prices, normalised: what an information call answers, comparable across answers and items. */
import type { Price, PriceFamily } from './operations.ts'
import { defined } from '../../base/defined.ts'
import { isObject } from '../../base/is-object.ts'
import { scalarText } from '../../base/text.ts'

export interface Stored {
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

const keyNum = (x: unknown): string => (num(x) !== undefined ? String(num(x)) : scalarText(x ?? '').trim())
const keyText = (x: unknown): string =>
  scalarText(x ?? '')
    .trim()
    .toLowerCase()
const keyDate = (x: unknown): string =>
  scalarText(x ?? '')
    .trim()
    .replace('T', ' ')
    .slice(0, 19)

/** A price the run planned or stored, normalised: the suite made it with its sku, so it is never left out. */
export function normalisePlanned(family: PriceFamily, price: Price): Stored {
  return defined(normalise(family, price), `the planned price of sku ${scalarText(price.sku)}, normalised`)
}

export function normalise(family: PriceFamily, e: unknown): Stored | undefined {
  if (!isObject(e) || typeof e.sku !== 'string') return undefined
  const sku = e.sku
  switch (family) {
    case 'base':
      return { sku, key: `store ${keyNum(e.store_id)}`, values: { price: num(e.price) }, raw: e }
    case 'cost':
      return { sku, key: `store ${keyNum(e.store_id)}`, values: { cost: num(e.cost) }, raw: e }
    case 'special':
      return {
        sku,
        key: `store ${keyNum(e.store_id)} from ${keyDate(e.price_from)} to ${keyDate(e.price_to)}`,
        values: { price: num(e.price) },
        raw: e,
      }
    case 'tier':
      return {
        sku,
        key: `website ${keyNum(e.website_id)} group ${keyText(e.customer_group)} quantity ${keyNum(e.quantity)}`,
        values: {
          price: num(e.price),
          price_type: typeof e.price_type === 'string' ? e.price_type.toLowerCase() : undefined,
        },
        raw: e,
      }
  }
}

export const sameSku = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase()

export function sameValues(a: Stored['values'], b: Stored['values']): boolean {
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
export function fingerprint(entries: Stored[]): string {
  const canon = (s: Stored): string =>
    `${s.key}: ${Object.entries(s.values)
      .map(([k, v]) => `${k}=${typeof v === 'number' ? Number(v.toFixed(6)) : String(v ?? '')}`)
      .join(', ')}`
  return JSON.stringify(entries.map(canon).sort())
}

export const of = (entries: Stored[], sku: string): Stored[] => entries.filter((e) => sameSku(e.sku, sku))

export function storedOf(family: PriceFamily, body: unknown): Stored[] {
  return (Array.isArray(body) ? body : []).flatMap((e) => normalise(family, e) ?? [])
}
