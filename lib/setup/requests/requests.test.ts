/** The valid requests' registry (issue 20): every restricted endpoint has one, or a reason why none can be built. */
import { readFileSync } from 'node:fs'
import { crc32, inflateSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { CATALOG, rowId } from '../../spec/catalog/index.ts'
import { NO_SUCCESS_ON_DEFAULT_PLATFORM, NO_VALID_REQUEST, recipeOf } from './index.ts'
import { SMALL_PNG } from './catalog-products.ts'
import { isMineWrite, MINE_ADMIN_REQUESTS } from './mine-admin.ts'

const CHECKS_DOC = readFileSync(new URL('../../../docs/checks.md', import.meta.url), 'utf8')

describe('the valid requests', () => {
  const restricted = CATALOG.filter((r) => r.access !== 'anon')

  it('cover every restricted endpoint but those no valid request can be built for, which say why', () => {
    const without = restricted
      .filter((r) => recipeOf(r) === undefined)
      .map(rowId)
      .sort()
    expect(without).toEqual(Object.keys(NO_VALID_REQUEST).sort())
    for (const [endpoint, why = ''] of Object.entries(NO_VALID_REQUEST)) {
      expect(
        restricted.some((r) => rowId(r) === endpoint),
        endpoint,
      ).toBe(true)
      expect(why.length, endpoint).toBeGreaterThan(20)
    }
    // At least 95 % of the admin endpoints (the bar).
    const admin = restricted.filter((r) => r.access === 'admin')
    expect(admin.filter((r) => recipeOf(r) !== undefined).length / admin.length).toBeGreaterThanOrEqual(0.95)
  })

  it('are listed in docs/checks.md where they cannot be built', () => {
    for (const endpoint of Object.keys(NO_VALID_REQUEST)) expect(CHECKS_DOC, endpoint).toContain(`\`${endpoint}\``)
  })

  // Issue 29.7: the served admin endpoints a real 2.4.7 gave the valid request no success at, for a reason of the
  // platform's (the others got a request it takes).
  it('are listed in docs/checks.md, with why, where a default-configured platform gives them no success', () => {
    const section = CHECKS_DOC.slice(CHECKS_DOC.indexOf('no success on a default-configured 2.4.7'))
    for (const [endpoint, why = ''] of Object.entries(NO_SUCCESS_ON_DEFAULT_PLATFORM)) {
      expect(recipeOf(restricted.find((r) => rowId(r) === endpoint)!), endpoint).toBeDefined()
      expect(why.length, endpoint).toBeGreaterThan(20)
      expect(section, endpoint).toContain(`\`${endpoint}\``)
    }
  })
})

describe("the admin's request at a mine write", () => {
  it('is there for every `mine` and `me` write, and only for those', () => {
    const mine = CATALOG.filter(isMineWrite).map(rowId).sort()
    expect(mine.length).toBeGreaterThan(15)
    expect(Object.keys(MINE_ADMIN_REQUESTS).sort()).toEqual(mine)
    // Not the self writes that name someone else's tokens or a cart by id.
    expect(mine).not.toContain('POST /V1/integration/customer/revoke-customer-token')
    expect(mine).not.toContain('PUT /V1/guest-carts/:cartId')
  })
})

describe('the image the media upload sends', () => {
  // Issue 29.7: a genuine image, which an image library would open (the platform validates and re-renders uploads).
  it('is a well-formed 4×4 RGB PNG: signature, chunks with their CRCs, and pixel data of the size its header says', () => {
    const png = Buffer.from(SMALL_PNG, 'base64')
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
    const chunks: { type: string; data: Buffer }[] = []
    for (let at = 8; at < png.length; ) {
      const length = png.readUInt32BE(at)
      const type = png.subarray(at + 4, at + 8)
      const data = png.subarray(at + 8, at + 8 + length)
      expect(png.readUInt32BE(at + 8 + length), type.toString()).toBe(crc32(Buffer.concat([type, data])))
      chunks.push({ type: type.toString('latin1'), data })
      at += 12 + length
    }
    expect(chunks.map((c) => c.type)).toEqual(['IHDR', 'IDAT', 'IEND'])
    const header = chunks[0]!.data
    const [width, height, depth, colour] = [header.readUInt32BE(0), header.readUInt32BE(4), header[8], header[9]]
    expect({ width, height, depth, colour }).toEqual({ width: 4, height: 4, depth: 8, colour: 2 })
    // Each row: a filter byte, then 3 bytes a pixel.
    expect(inflateSync(chunks[1]!.data)).toHaveLength(height * (1 + width * 3))
  })
})
