/** The valid requests' registry (issue 20): every restricted endpoint has one, or a reason why none can be built. */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { CATALOG, rowId } from '../../spec/catalog/index.ts'
import { NO_VALID_REQUEST, recipeOf } from './index.ts'

const CHECKS_DOC = readFileSync(new URL('../../../docs/checks.md', import.meta.url), 'utf8')

describe('the valid requests', () => {
  const restricted = CATALOG.filter((r) => r.access !== 'anon')

  it('cover every restricted endpoint but those no valid request can be built for, which say why', () => {
    const without = restricted.filter((r) => recipeOf(r) === undefined).map(rowId).sort()
    expect(without).toEqual(Object.keys(NO_VALID_REQUEST).sort())
    for (const [endpoint, why = ''] of Object.entries(NO_VALID_REQUEST)) {
      expect(restricted.some((r) => rowId(r) === endpoint), endpoint).toBe(true)
      expect(why.length, endpoint).toBeGreaterThan(20)
    }
    // At least 95 % of the admin endpoints (the bar).
    const admin = restricted.filter((r) => r.access === 'admin')
    expect(admin.filter((r) => recipeOf(r) !== undefined).length / admin.length).toBeGreaterThanOrEqual(0.95)
  })

  it('are listed in docs/checks.md where they cannot be built', () => {
    for (const endpoint of Object.keys(NO_VALID_REQUEST)) expect(CHECKS_DOC, endpoint).toContain(`\`${endpoint}\``)
  })
})
