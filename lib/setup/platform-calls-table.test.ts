/**
 * The table of the platform's calls itself (issue 24.2): no spec endpoint in it, docs/running.md's copy of it,
 * its paths filled, the ledger's removals through it, the reference target's extra routes alike: no target. That
 * the target serves each entry as the table says, and that a run sends nothing else: platform-calls.test.ts.
 */
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { EXTRA_ROUTES } from '../../reference-target/index.ts'
import { findRow } from '../spec/catalog/index.ts'
import { endpointText } from '../spec/endpoint-id.ts'
import { ENTITY_KINDS } from './ledger.ts'
import { PLATFORM_CALLS, platformCall, type PlatformCall } from './platform-calls.ts'

const ROOT = resolve(import.meta.dirname, '../..')
/** Where the platform's asynchronous bulk interface serves the writes of the routes below `/V1/`. */
const BULK = '/async/bulk/V1/'

describe('the platform calls table', () => {
  it('lists no endpoint of the spec, each method and path once', () => {
    const entries = Object.values(PLATFORM_CALLS)
    expect(entries.filter((c) => findRow(c.method, c.path) !== undefined).map(endpointText)).toEqual([])
    expect(new Set(entries.map(endpointText)).size).toBe(entries.length)
    for (const c of entries) expect(c.path, endpointText(c)).toMatch(/^(\/async\/bulk)?\/V1(\/[A-Za-z0-9_\-:.]+)+$/)
  })

  it('is what docs/running.md tells a shop it must also serve, row for row', () => {
    const doc = readFileSync(join(ROOT, 'docs/running.md'), 'utf8')
    const rows = Object.values(PLATFORM_CALLS).map(
      (c: PlatformCall) => `| ${c.method} | \`${c.path}\` | ${c.access} | ${c.for} |`,
    )
    const inDoc = doc.split('\n').filter((line) => /^\| (GET|POST|PUT|DELETE) \| `(\/async\/bulk)?\/V1\//.test(line))
    expect(inDoc, 'docs/running.md "What a shop must also serve": paste these rows').toEqual(rows)
  })

  it('fills path parameters, each encoded as one segment, and refuses a call without one', () => {
    expect(platformCall('deleteProduct', { sku: 'a/b c' })).toEqual({
      method: 'DELETE',
      path: '/V1/products/a%2Fb%20c',
    })
    expect(platformCall('searchOrders')).toEqual({ method: 'GET', path: '/V1/orders' })
    expect(() => platformCall('readOrder')).toThrow('platformCall readOrder: no value for :id')
  })

  it('removes what the ledger can remove through an entry or a catalog row', () => {
    const removals = Object.values(ENTITY_KINDS).filter((r) => r !== undefined)
    const beyond = removals.filter((r) => findRow(r.method, r.path) === undefined)
    expect(beyond.every((r) => Object.values(PLATFORM_CALLS).includes(r as never))).toBe(true)
    expect(removals.length - beyond.length).toBe(1)
  })

  it('is what the reference target serves beyond the spec, with the same access', () => {
    const served = new Map(EXTRA_ROUTES.map((r) => [r.key, r.access]))
    const direct = Object.values(PLATFORM_CALLS).filter((c) => !c.path.startsWith(BULK))
    expect(direct.filter((c) => served.get(endpointText(c)) !== c.access).map(endpointText)).toEqual([])
    // Through the asynchronous bulk interface: a write of a spec route without path parameters, with its access.
    const queued = Object.values(PLATFORM_CALLS).filter((c) => c.path.startsWith(BULK))
    expect(queued.length).toBeGreaterThan(0)
    for (const c of queued) {
      expect(c.path, endpointText(c)).not.toContain(':')
      expect(findRow(c.method, c.path.slice(BULK.length - 4)), endpointText(c)).toMatchObject({ access: c.access })
    }
  })
})
