import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { loadSchema, schemaUrl } from './load.ts'
import type { FetchedDocument, LoadOptions, SchemaGet } from './load.ts'
import type { SchemaCaller } from './read.ts'
import { handmadeDocument } from './testing.ts'

const BASE = 'https://shop.example.com/'
const URL_OF_SHOP = 'https://shop.example.com/rest/default/schema?services=all'
const TOKENS = { admin: 'admin-token-x', customer: 'customer-token-y' }
const json = (body: unknown, status = 200): FetchedDocument => ({
  status,
  contentType: 'application/json; charset=utf-8',
  text: JSON.stringify(body),
})
const NO_ROUTE = json({ message: 'Request does not match any route.' }, 404)

/** A shop answering per token, recording every GET. */
function shop(answer: (token: string | undefined) => FetchedDocument | { error: string }): {
  get: SchemaGet
  calls: string[]
} {
  const calls: string[] = []
  return {
    calls,
    get: (url, token) => {
      calls.push(`${url} ${token ?? 'no token'}`)
      return Promise.resolve(answer(token))
    },
  }
}
/** The view a token stands for here: no token (or one of no account) is the anonymous view. */
function viewOf(token: string | undefined): SchemaCaller {
  if (token === TOKENS.admin) return 'admin'
  return token === TOKENS.customer ? 'customer' : 'anon'
}
const platform = shop((token) => json(handmadeDocument(viewOf(token))))
const options = (over: Partial<LoadOptions>): LoadOptions => ({
  setting: { kind: 'auto' },
  baseUrl: BASE,
  storeCode: 'default',
  get: platform.get,
  tokens: TOKENS,
  ...over,
})

const dir = mkdtempSync(join(tmpdir(), 'schema-load-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe("auto: the shop's own schema, under each caller", () => {
  it('reads the three views and merges them', async () => {
    const loaded = await loadSchema(options({}))
    expect(loaded).toMatchObject({ status: 'read', source: `GET ${URL_OF_SHOP} under each caller`, notes: [] })
    if (loaded.status === 'read') expect(loaded.schema.views).toEqual(['anon', 'customer', 'admin'])
    expect(platform.calls.sort()).toEqual([
      `${URL_OF_SHOP} admin-token-x`,
      `${URL_OF_SHOP} customer-token-y`,
      `${URL_OF_SHOP} no token`,
    ])
  })

  it('says which view it could not read, and reads the others', async () => {
    const noCustomer = await loadSchema(options({ tokens: { admin: TOKENS.admin } }))
    expect(noCustomer).toMatchObject({
      status: 'read',
      notes: ['the schema under the customer token was not read: no customer token in this run'],
    })
    const anonRefused = shop((token) =>
      token === undefined
        ? json({ message: "The consumer isn't authorized to access %resources." }, 401)
        : json(handmadeDocument('admin')),
    )
    const loaded = await loadSchema(options({ get: anonRefused.get }))
    expect(loaded).toMatchObject({
      status: 'read',
      notes: [
        'the schema under no token was not read: answered 401 "The consumer isn\'t authorized to access %resources."',
      ],
    })
    if (loaded.status === 'read') expect(loaded.schema.views).toEqual(['customer', 'admin'])
  })

  const reasonFor = async (answer: FetchedDocument | { error: string }, status: 'unpublished' | 'broken') => {
    const loaded = await loadSchema(options({ get: shop(() => answer).get }))
    expect(loaded.status).toBe(status)
    return loaded.status === status ? loaded.reason : ''
  }

  it('is "not published", with the reason in one line, when the URL is not there or holds another format', async () => {
    expect(await reasonFor(NO_ROUTE, 'unpublished')).toBe(
      'with no token, answered 404 "Request does not match any route."',
    )
    expect(
      await reasonFor({ status: 404, contentType: 'text/html', text: '<html>Not Found</html>' }, 'unpublished'),
    ).toBe('with no token, answered 404 with a body that is not JSON (text/html: "<html>Not Found</html>")')
    expect(await reasonFor(json({ openapi: '3.0.0', paths: {} }), 'unpublished')).toBe(
      'with no token, answered 200 with an OpenAPI 3.0.0 document, not a Swagger 2.0 schema',
    )
    for (const token of Object.values(TOKENS)) expect(await reasonFor(NO_ROUTE, 'unpublished')).not.toContain(token)
  })

  it('is "broken" when the URL fails under every caller — a server error, a body that is not JSON, no answer — saying how', async () => {
    const internal = json(
      { message: 'Internal Error. Details are available in Magento log file. Report ID: webapi-6b084a486e3d7' },
      500,
    )
    expect(await reasonFor(internal, 'broken')).toBe(
      'answered 500 "Internal Error. Details are available in Magento log file. Report ID: webapi-6b084a486e3d7" under every caller',
    )
    expect(
      await reasonFor({ status: 200, contentType: 'text/html', text: '<html><body>Shop</body></html>' }, 'broken'),
    ).toBe('answered 200 with a body that is not JSON (text/html: "<html><body>Shop</body></html>") under every caller')
    expect(await reasonFor({ status: 200, text: '' }, 'broken')).toBe(
      'answered 200 with an empty body under every caller',
    )
    expect(await reasonFor({ status: 502, contentType: 'text/html', text: '<html>Bad Gateway</html>' }, 'broken')).toBe(
      'answered 502 with a body that is not JSON (text/html: "<html>Bad Gateway</html>") under every caller',
    )
    expect(await reasonFor({ error: 'timeout after 10000 ms' }, 'broken')).toBe(
      'no answer (timeout after 10000 ms) under every caller',
    )
    // Each caller's own way of failing, where they differ; a view not asked for (no token) is no failure.
    const mixed = shop((token) => (token === TOKENS.admin ? { error: 'socket hang up' } : internal))
    expect(await loadSchema(options({ get: mixed.get, tokens: { admin: TOKENS.admin } }))).toMatchObject({
      status: 'broken',
      reason:
        'with no token, answered 500 "Internal Error. Details are available in Magento log file. Report ID: webapi-6b084a486e3d7"; with the admin token, no answer (socket hang up)',
    })
  })

  it('reads the views it can where only some fail, and says what that leaves unchecked', async () => {
    const adminFails = shop((token) =>
      token === TOKENS.admin
        ? json({ message: 'Internal Error.' }, 500)
        : json(handmadeDocument(token === TOKENS.customer ? 'customer' : 'anon')),
    )
    expect(await loadSchema(options({ get: adminFails.get }))).toMatchObject({
      status: 'read',
      notes: [
        'the schema under the admin token was not read: answered 500 "Internal Error.": the shop\'s schema endpoint failed for this caller, so the extension operations only it may use were not checked',
      ],
    })
  })

  it('builds the schema URL from the base URL and store code', () => {
    expect(schemaUrl('https://shop.example.com/base/', 'de_de')).toBe(
      'https://shop.example.com/base/rest/de_de/schema?services=all',
    )
  })
})

describe('a file or a URL: one document, no caller views', () => {
  it('reads a URL once, without a token', async () => {
    const recorded = shop(() => json(handmadeDocument('admin')))
    const loaded = await loadSchema(
      options({ setting: { kind: 'url', url: 'https://qa:pw@docs.example.com/schema.json' }, get: recorded.get }),
    )
    expect(recorded.calls).toEqual(['https://qa:pw@docs.example.com/schema.json no token'])
    expect(loaded).toMatchObject({
      status: 'read',
      source: 'GET https://docs.example.com/schema.json (once, without a token)',
      notes: [expect.stringMatching(/^access classes not judged: .*without caller views/)],
    })
    if (loaded.status === 'read') expect(loaded.schema.views).toEqual([])
    expect(
      await loadSchema(
        options({ setting: { kind: 'url', url: 'https://docs.example.com/x' }, get: shop(() => NO_ROUTE).get }),
      ),
    ).toMatchObject({ status: 'unpublished', reason: 'answered 404 "Request does not match any route."' })
  })

  it('reads a file, and says what is wrong with one that is no schema', async () => {
    const file = (name: string, text: string) => {
      const path = join(dir, name)
      writeFileSync(path, text)
      return { kind: 'file' as const, path }
    }
    const get = shop(() => ({ error: 'not called' }))
    expect(
      await loadSchema(
        options({ setting: file('ok.json', JSON.stringify(handmadeDocument('customer'))), get: get.get }),
      ),
    ).toMatchObject({ status: 'read', source: `the file ${join(dir, 'ok.json')}` })
    expect(await loadSchema(options({ setting: file('html.json', '<html>'), get: get.get }))).toMatchObject({
      status: 'unpublished',
      reason: 'is not JSON',
    })
    expect(await loadSchema(options({ setting: file('v3.json', '{"openapi":"3.1.0"}'), get: get.get }))).toMatchObject({
      status: 'unpublished',
      reason: 'holds an OpenAPI 3.1.0 document, not a Swagger 2.0 schema',
    })
    expect(
      await loadSchema(options({ setting: { kind: 'file', path: join(dir, 'gone.json') }, get: get.get })),
    ).toMatchObject({ status: 'unpublished', reason: 'cannot be read: ENOENT' })
    expect(get.calls).toEqual([])
  })
})

it('off: reads nothing', async () => {
  const recorded = shop(() => json({}))
  expect(await loadSchema(options({ setting: { kind: 'off' }, get: recorded.get }))).toEqual({ status: 'off' })
  expect(recorded.calls).toEqual([])
})
