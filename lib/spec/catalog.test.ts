/**
 * Keeps the catalog honest: the hand-written rows must agree with what the spec text names (read by the
 * generic extractor), with the module list, and with what a real instance was probed for.
 */
import { existsSync, readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import {
  catalogPosition,
  CATALOG,
  endpointId,
  findRow,
  rowId,
  rowOf,
  rowOfCall,
  rowsOfModule,
  ROWS_BY_MODULE,
} from './catalog/index.ts'
import { requestTabled } from './tabled.ts'
import { extractSpecEndpointsDetailed, extractSpecOccurrences } from './extract-spec-endpoints.ts'
import { MODULES } from './modules.ts'
import type { EndpointRow } from './types.ts'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const VENDORED = resolve(ROOT, 'lib/spec/source/commerce-rest-interface.md')
const SHARED = resolve(ROOT, '../shared/spec/commerce-rest-interface.md')
const SPEC_PATH = existsSync(SHARED) ? SHARED : VENDORED
const SPEC = readFileSync(SPEC_PATH, 'utf8')
const MATRIX = resolve(ROOT, 'fixtures/observations/access-matrix-2.4.7.tsv')

const LISTS = 'Endpoints › Endpoint lists by module › '
const DETAIL = 'Endpoints › Endpoints with detailed shape'
const ADDITIONAL = 'Endpoints › Additional operations known only by path and purpose'

const strip = (p: string) => (p.length > 1 ? p.replace(/\/+$/, '') : p)
const fmt = (lines: string[]) => (lines.length ? `\n  ${lines.join('\n  ')}\n` : '')

/** `expect(problems).toEqual([])` with the list in the message. */
function noProblems(what: string, problems: string[]): void {
  expect(problems, `${what}:${fmt(problems)}`).toEqual([])
}

describe('spec source', () => {
  // Without ../shared (a clone of this repository alone) there is nothing to compare with: said as skipped, not passed.
  it.skipIf(!existsSync(SHARED))('the vendored copy equals ../shared/spec byte for byte', () => {
    const a = readFileSync(VENDORED)
    const b = readFileSync(SHARED)
    expect(
      a.equals(b),
      `lib/spec/source/commerce-rest-interface.md differs from ${SHARED}: re-vendor it and review the catalog`,
    ).toBe(true)
  })
})

describe('catalog against the spec text', () => {
  const { endpoints, conflicts } = extractSpecEndpointsDetailed(SPEC)
  const specByKey = new Map(endpoints.map((e) => [`${e.method} ${e.path}`, e]))
  const catByKey = new Map<string, EndpointRow>(CATALOG.map((r) => [rowId(r), r]))

  it('the spec gives each pair at most one access class', () => {
    noProblems('pairs with conflicting access marks in the spec', conflicts)
  })

  it('every pair the spec names is in the catalog', () => {
    noProblems(
      `pairs the spec (${SPEC_PATH}) names that CATALOG lacks`,
      [...specByKey.keys()].filter((k) => !catByKey.has(k)),
    )
  })

  it('every catalog pair is named by the spec', () => {
    noProblems(
      'CATALOG pairs the spec does not name',
      [...catByKey.keys()].filter((k) => !specByKey.has(k)),
    )
  })

  it('access classes agree with the spec', () => {
    const bad: string[] = []
    for (const [k, e] of specByKey) {
      const row = catByKey.get(k)
      if (row && row.access !== e.access) bad.push(`${k}: spec ${e.access}, catalog ${row.access}`)
    }
    noProblems('access classes that disagree', bad)
  })

  it('"(listed as self)" rows are self with accessNote "listed as self", and only those', () => {
    const listedAsSelf = new Set(
      extractSpecOccurrences(SPEC)
        .filter((o) => /\(listed as self\)/.test(o.line.split(' — ')[0] ?? ''))
        .map((o) => `${o.method} ${o.path}`),
    )
    const bad: string[] = []
    for (const row of CATALOG) {
      const want = listedAsSelf.has(rowId(row))
      if (want && (row.access !== 'self' || row.accessNote !== 'listed as self'))
        bad.push(`${rowId(row)}: want self / listed as self`)
      if (!want && row.accessNote !== undefined) bad.push(`${rowId(row)}: unexpected accessNote ${row.accessNote}`)
    }
    noProblems('access notes', bad)
  })

  it('each row names exactly the sections that name its pair, module lists first', () => {
    const bad: string[] = []
    const rank = (s: string) => {
      if (s.startsWith(LISTS)) return 0
      if (s === DETAIL) return 1
      return s === ADDITIONAL ? 2 : 3
    }
    for (const row of CATALOG) {
      const e = specByKey.get(rowId(row))
      if (!e) continue
      const want = [...e.sections].sort((a, b) => rank(a) - rank(b))
      if (JSON.stringify(want) !== JSON.stringify(row.sections)) {
        bad.push(`${rowId(row)}: spec ${JSON.stringify(want)}, catalog ${JSON.stringify(row.sections)}`)
      }
    }
    noProblems('sections', bad)
  })

  it('each row sits in the module whose list names it first; the others in the module their file says', () => {
    const idByTitle = new Map(MODULES.map((m) => [m.title, m.id]))
    const bad: string[] = []
    for (const row of CATALOG) {
      const list = row.sections.find((s) => s.startsWith(LISTS))
      if (list) {
        const want = idByTitle.get(list.slice(LISTS.length))
        if (want !== row.module) bad.push(`${rowId(row)}: listed under ${list}, module ${row.module}`)
      } else if (!row.sections.includes(DETAIL) && !row.sections.includes(ADDITIONAL)) {
        bad.push(`${rowId(row)}: in no module list, detail table or additional operations`)
      }
    }
    noProblems('modules', bad)
  })

  it('every contract the spec writes next to a pair is the row contract (and contract module)', () => {
    const bad: string[] = []
    const byLine = new Map<number, { key: string; line: string; section: string }[]>()
    for (const o of extractSpecOccurrences(SPEC)) {
      const list = byLine.get(o.lineNo) ?? []
      list.push({ key: `${o.method} ${o.path}`, line: o.line, section: o.section })
      byLine.set(o.lineNo, list)
    }
    let checked = 0
    for (const [lineNo, occs] of byLine) {
      const { line, section } = occs[0]!
      const want = new Map<string, { contract: string; contractModule?: string }>()
      if (section === DETAIL) {
        const cell = line.split('|')[2]?.trim() ?? ''
        const m = /^(\w+): (\w+::\w+)/.exec(cell)
        if (!m) bad.push(`line ${lineNo}: detail contract cell not understood: ${cell}`)
        else for (const o of occs) want.set(o.key, { contract: m[2]!, contractModule: m[1]! })
      } else if (section === ADDITIONAL) {
        const m = / — (\w+): (\w+::\w+)/.exec(line)
        if (!m) bad.push(`line ${lineNo}: contract not understood: ${line}`)
        else for (const o of occs) want.set(o.key, { contract: m[2]!, contractModule: m[1]! })
      } else if (section.startsWith(LISTS)) {
        const m = / — (\w+)::(\w+(?: \/ \w+)*)/.exec(line)
        if (m) {
          const methods = m[2]!.split(' / ')
          if (methods.length !== 1 && methods.length !== occs.length) {
            bad.push(`line ${lineNo}: ${methods.length} methods for ${occs.length} pairs`)
          }
          occs.forEach((o, i) =>
            want.set(o.key, { contract: `${m[1]}::${methods.length === 1 ? methods[0] : methods[i]}` }),
          )
        }
      }
      for (const [key, w] of want) {
        checked++
        const row = CATALOG.find((r) => rowId(r) === key)
        if (!row) continue
        if (row.contract !== w.contract)
          bad.push(`${key}: spec line ${lineNo} says ${w.contract}, catalog ${row.contract}`)
        if (w.contractModule && row.contractModule !== w.contractModule) {
          bad.push(`${key}: spec line ${lineNo} says module ${w.contractModule}, catalog ${row.contractModule}`)
        }
      }
    }
    expect(checked).toBeGreaterThan(250)
    noProblems('contracts', bad)
  })

  it("a row's acl, returns and purpose are the spec's own words", () => {
    const bad: string[] = []
    for (const row of CATALOG) {
      if (row.acl !== undefined) {
        if (!row.sections.includes(DETAIL)) bad.push(`${rowId(row)}: acl without a detail-table entry`)
        if (!SPEC.includes(`ACL \`${row.acl}\``)) bad.push(`${rowId(row)}: acl ${row.acl} not in the spec`)
      }
      if (row.returns !== undefined && !SPEC.includes(`| ${row.returns} |`))
        bad.push(`${rowId(row)}: returns ${row.returns} not in the spec`)
      if (row.purpose !== undefined && !SPEC.includes(row.purpose))
        bad.push(`${rowId(row)}: purpose not in the spec: ${row.purpose}`)
      if (row.contractModule !== undefined && !SPEC.includes(`${row.contractModule}: ${row.contract}`)) {
        bad.push(`${rowId(row)}: "${row.contractModule}: ${row.contract}" not in the spec`)
      }
    }
    // every detail-table row with an ACL gave it to its catalog row
    for (const o of extractSpecOccurrences(SPEC).filter((x) => x.section === DETAIL)) {
      const acl = /ACL `([^`]+)`/.exec(o.line)?.[1]
      const row = findRow(o.method, o.path)
      if (acl && row?.acl !== acl) bad.push(`${o.method} ${o.path}: detail table gives ACL ${acl}, catalog ${row?.acl}`)
    }
    noProblems('spec wording', bad)
  })
})

describe('catalog rows', () => {
  it('totals: 278 pairs, 116 GET, 97 POST, 62 PUT, 3 DELETE', () => {
    const count = (m: string) => CATALOG.filter((r) => r.method === m).length
    expect({
      total: CATALOG.length,
      GET: count('GET'),
      POST: count('POST'),
      PUT: count('PUT'),
      DELETE: count('DELETE'),
    }).toEqual({
      total: 278,
      GET: 116,
      POST: 97,
      PUT: 62,
      DELETE: 3,
    })
  })

  it('every module is a known module id, and each file holds only its own module', () => {
    const ids = new Set(MODULES.map((m) => m.id))
    const bad = CATALOG.filter((r) => !ids.has(r.module)).map((r) => `${rowId(r)}: module ${r.module}`)
    for (const [id, rows] of Object.entries(ROWS_BY_MODULE)) {
      if (!ids.has(id)) bad.push(`rows file for unknown module ${id}`)
      for (const r of rows) if (r.module !== id) bad.push(`${rowId(r)}: in the ${id} file but module ${r.module}`)
    }
    noProblems('modules', bad)
  })

  it('no duplicate method+path', () => {
    const seen = new Map<string, number>()
    for (const r of CATALOG) seen.set(rowId(r), (seen.get(rowId(r)) ?? 0) + 1)
    noProblems(
      'duplicates',
      [...seen].filter(([, n]) => n > 1).map(([k, n]) => `${k} ×${n}`),
    )
  })

  it('every contract looks like Name::method', () => {
    noProblems(
      'contracts not of the form Name::method',
      CATALOG.filter((r) => r.contract !== undefined && !/^[A-Z]\w*::[a-z]\w*$/.test(r.contract)).map(
        (r) => `${rowId(r)}: ${JSON.stringify(r.contract)}`,
      ),
    )
  })

  it('paths are /V1 templates without a trailing slash; methods and access are from their enums', () => {
    const bad: string[] = []
    for (const r of CATALOG) {
      if (!/^\/V1(\/[A-Za-z0-9_\-:.]+)+$/.test(r.path)) bad.push(`${rowId(r)}: path`)
      if (!['GET', 'POST', 'PUT', 'DELETE'].includes(r.method)) bad.push(`${rowId(r)}: method`)
      if (!['admin', 'self', 'anon'].includes(r.access)) bad.push(`${rowId(r)}: access ${r.access}`)
      if (r.sections.length === 0) bad.push(`${rowId(r)}: no sections`)
    }
    noProblems('malformed rows', bad)
  })

  it('path params are exactly those of the template, in order; other params are query or body', () => {
    const bad: string[] = []
    for (const r of CATALOG) {
      const fromTemplate = [...r.path.matchAll(/:(\w+)/g)].map((m) => m[1])
      const declared = (r.params ?? []).filter((p) => p.in === 'path').map((p) => p.name)
      if (JSON.stringify(fromTemplate) !== JSON.stringify(declared)) {
        bad.push(`${rowId(r)}: template ${fromTemplate.join(',')} vs params ${declared.join(',')}`)
      }
      for (const p of r.params ?? []) {
        if (p.in !== 'path' && !r.sections.includes(DETAIL))
          bad.push(`${rowId(r)}: ${p.in} param ${p.name} without a detail entry`)
        if (p.in !== 'path' && !SPEC.includes(`\`${p.name}\``) && !SPEC.includes(`\`${p.name}[]\``)) {
          bad.push(`${rowId(r)}: param ${p.name} not in the spec`)
        }
      }
      if (r.params && r.params.length === 0) bad.push(`${rowId(r)}: empty params list (leave it out)`)
    }
    noProblems('params', bad)
  })

  it('CATALOG lists the modules in MODULES order', () => {
    const order = MODULES.map((m) => m.id)
    const seen = CATALOG.map((r) => r.module).filter((m, i, a) => i === 0 || a[i - 1] !== m)
    expect(seen).toEqual(order)
  })
})

describe('catalog against the observation matrix (2.4.7)', () => {
  const lines = readFileSync(MATRIX, 'utf8')
    .split(/\r?\n/)
    .filter((l) => l.trim() !== '' && !l.startsWith('#'))
  const [head, ...body] = lines
  const cols = head!.split('\t')
  const iMethod = cols.indexOf('method')
  const iPath = cols.indexOf('spec_path')
  const iAccess = cols.indexOf('spec_access')
  const matrix = body.map((l) => {
    const c = l.split('\t')
    return { method: c[iMethod]!, path: strip(c[iPath]!), access: c[iAccess]! }
  })

  it('has the same method, path and access as the catalog, row for row', () => {
    expect(iMethod >= 0 && iPath >= 0 && iAccess >= 0, `columns: ${cols.join(', ')}`).toBe(true)
    const m = new Map(matrix.map((r) => [`${r.method} ${r.path}`, r.access]))
    const c = new Map<string, string>(CATALOG.map((r) => [rowId(r), r.access]))
    const bad: string[] = []
    if (m.size !== matrix.length) bad.push(`matrix has duplicate rows (${matrix.length} lines, ${m.size} pairs)`)
    for (const [k, a] of m) {
      if (!c.has(k)) bad.push(`only in the matrix: ${k}`)
      else if (c.get(k) !== a) bad.push(`${k}: matrix ${a}, catalog ${c.get(k)}`)
    }
    for (const k of c.keys()) if (!m.has(k)) bad.push(`only in the catalog: ${k}`)
    noProblems('catalog vs matrix', bad)
  })
})

describe('lookup helpers', () => {
  it("rowOfCall: the row a concrete call names, the most literal template first; requestTabled: the detail table's 17", () => {
    expect(rowId(rowOfCall('GET', '/V1/customerGroups/default')!)).toBe('GET /V1/customerGroups/default')
    expect(rowId(rowOfCall('get', '/V1/customerGroups/5')!)).toBe('GET /V1/customerGroups/:id')
    expect(rowId(rowOfCall('PUT', '/V1/carts/mine/items/26')!)).toBe('PUT /V1/carts/mine/items/:itemId')
    expect(rowOfCall('GET', '/V1/orders/5')).toBeUndefined()
    expect(CATALOG.filter(requestTabled)).toHaveLength(17)
    expect(requestTabled(findRow('POST', '/V1/inventory/source-selection-algorithm-result')!)).toBe(false)
  })

  it('rowId, rowOf, endpointId, catalogPosition, findRow and rowsOfModule', () => {
    const row = findRow('GET', '/V1/creditmemo/:id') as EndpointRow
    expect(row.contract).toBe('CreditmemoRepositoryInterface::get')
    expect(rowId(row)).toBe('GET /V1/creditmemo/:id')
    expect(rowOf(rowId(row))).toBe(row)
    expect(endpointId('GET /V1/creditmemo/:id')).toBe(rowId(row))
    expect(() => endpointId('GET /V1/creditmemo/:nope')).toThrow('the catalog has no row GET /V1/creditmemo/:nope')
    // A row equal to a catalog row but not one of its rows (an extension operation's, a vendor's) has no id.
    expect(() => rowId({ ...row })).toThrow('GET /V1/creditmemo/:id is not a row of the catalog')
    for (const [i, r] of CATALOG.entries()) expect(catalogPosition(r)).toBe(i)
    expect(catalogPosition({ method: '-', path: '(workflow credit-memo)' })).toBeUndefined()
    expect(findRow('post', '/V1/carts/')?.contract).toBe('CartManagementInterface::createEmptyCart')
    expect(findRow('GET', '/V1/stockItems/lowStock/')?.module).toBe('catalog-inventory-agreements')
    expect(findRow('PATCH', '/V1/creditmemo/:id')).toBeUndefined()
    expect(findRow('GET', '/V1/no-such-path')).toBeUndefined()
    expect(rowsOfModule('quote').every((r) => r.module === 'quote')).toBe(true)
    expect(rowsOfModule('quote').length).toBeGreaterThan(0)
    expect(rowsOfModule('no-such-module')).toEqual([])
    expect(MODULES.reduce((n, m) => n + rowsOfModule(m.id).length, 0)).toBe(CATALOG.length)
  })

  it('rows the brief pins down', () => {
    const r = (m: string, p: string) => findRow(m, p)
    expect(r('PUT', '/V1/customers/me')?.sections).toEqual([
      `${LISTS}Customer`,
      `${LISTS}Sales, SalesRule, Tax, TwoFactorAuth`,
    ])
    expect(r('PUT', '/V1/guest-carts/:cartId')).toMatchObject({ access: 'self', accessNote: 'listed as self' })
    expect(r('GET', '/V1/customers/me/shippingAddress')?.access).toBe('self')
    expect(r('GET', '/V1/categories/:categoryId')?.module).toBe('catalog-categories')
    expect(r('DELETE', '/V1/carts/:cartId/items/:itemId')?.module).toBe('quote')
    expect(r('GET', '/V1/carts/:cartId')?.module).toBe('quote')
    expect(r('POST', '/V1/creditmemo/:id/emails')?.module).toBe('sales-tax-tfa')
    expect(r('DELETE', '/V1/eav/attribute-sets/:attributeSetId')?.module).toBe('eav')
    expect(r('GET', '/V1/attributeMetadata/customerAddress/form/:formCode')?.contract).toBe(
      'AddressMetadataInterface::getAttributes',
    )
    expect(r('GET', '/V1/guest-carts/:cartId/gift-message/:itemId')?.contract).toBe('GuestItemRepositoryInterface::get')
    expect(r('POST', '/V1/carts/mine/gift-message')?.contract).toBe('CartRepositoryInterface::save')
    expect(r('GET', '/V1/categories/:categoryId')?.params).toEqual([
      { name: 'categoryId', in: 'path', type: 'int', required: true },
      { name: 'storeId', in: 'query', type: 'int', default: 'null' },
    ])
    expect(r('POST', '/V1/creditmemo')).toMatchObject({ contractModule: 'Sales', acl: 'Shop_Sales::sales_creditmemo' })
  })
})

describe('rows whose contract the spec does not name', () => {
  it('carry no invented contract, and are exactly these', () => {
    expect(
      CATALOG.filter((r) => r.contract === undefined)
        .map(rowId)
        .sort(),
    ).toEqual([
      'GET /V1/customers/me/billingAddress',
      'GET /V1/customers/me/shippingAddress',
      'GET /V1/eav/attribute-sets/:attributeSetId',
      'GET /V1/inventory/in-store-pickup/pickup-locations',
      'PUT /V1/creditmemo/:id',
    ])
  })
})

describe('rule data in the rows, transcribed from the spec', () => {
  const STORAGE = /^(BasePrice|Cost|SpecialPrice|TierPrice)StorageInterface::(update|delete|get|replace)$/
  const PRICES = { BasePrice: 'base', Cost: 'cost', SpecialPrice: 'special', TierPrice: 'tier' } as const

  it('batch: exactly the price storage operations ("Batch price operations …", "Price and cost information calls, and cost delete"), by their contract', () => {
    const batch = CATALOG.filter((r) => r.batch !== undefined)
    expect(batch.map(rowId)).toEqual(CATALOG.filter((r) => STORAGE.test(r.contract ?? '')).map(rowId))
    expect(batch).toHaveLength(12)
    for (const row of batch) {
      const [, iface, method] = STORAGE.exec(row.contract!)!
      const prices = PRICES[iface as keyof typeof PRICES]
      let op = method
      if (method === 'get') op = 'information'
      else if (method === 'delete' && prices === 'cost') op = 'cost-delete'
      expect(row.batch, rowId(row)).toMatchObject({ prices, op })
    }
  })

  it('batch.invalid: an update\'s invalid items are its purpose words ("invalid price, store id or sku fail the item"); the others name none', () => {
    const KIND_OF_WORDS: Readonly<Record<string, string>> = {
      price: 'invalid price',
      cost: 'invalid cost',
      'store id': 'unknown store id',
      sku: 'unknown sku',
      dates: 'malformed date',
      'price type': 'invalid price type',
      'website id': 'unknown website id',
      'customer group': 'unknown customer group',
      quantity: 'invalid quantity',
    }
    for (const row of CATALOG.filter((r) => r.batch !== undefined)) {
      const words = /invalid (.+) fail the item/.exec(row.purpose ?? '')?.[1]
      if (row.batch!.op !== 'update') {
        expect(words, rowId(row)).toBeUndefined()
        expect(row.batch!.invalid, rowId(row)).toBeUndefined()
        continue
      }
      const named = words!.split(/, | or /).map((w) => KIND_OF_WORDS[w] ?? `unknown words "${w}"`)
      expect([...row.batch!.invalid!].sort(), rowId(row)).toEqual(named.sort())
    }
  })

  it('answer: only reads with no return whose purpose names the tabled resource they load', () => {
    const withAnswer = CATALOG.filter((r) => r.answer !== undefined).map((r) => [
      rowId(r),
      r.purpose,
      r.answer,
      r.returns,
    ])
    expect(withAnswer.sort()).toEqual([
      ['GET /V1/carts/:cartId/billing-address', 'billing address of a quote.', 'cartAddress', undefined],
      ['GET /V1/creditmemo/:id', 'loads a credit memo.', 'creditmemo', undefined],
    ])
  })
})
