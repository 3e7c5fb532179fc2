/**
 * The run's reading of the shop's schema through its client, against the reference target: clean, it agrees
 * with the spec and declares the target's extension operations; with a schema fault, that finding; not published,
 * one line; `off`, no request at all.
 */
import { afterAll, describe, expect, it } from 'vitest'
import {
  startReferenceTarget,
  type ReferenceTarget,
  type ReferenceTargetOptions,
} from '../../reference-target/index.ts'
import { EXTENSION_ROUTES } from '../../reference-target/extension-routes.ts'
import { EXTRA_ROUTES } from '../../reference-target/extra-routes.ts'
import { referenceTokens } from '../schema/testing.ts'
import type { TargetSchemaSetting } from '../schema/setting.ts'
import { TargetClient } from '../shop/client.ts'
import { Secrets } from '../shop/secrets.ts'
import { readShopSchema, requestSchemaEarly } from './shop-schema.ts'
import { endpointText } from '../spec/endpoint-id.ts'

const closers: (() => Promise<void>)[] = []
afterAll(async () => {
  for (const close of closers.reverse()) await close()
})

async function read(options: ReferenceTargetOptions, setting: TargetSchemaSetting = { kind: 'auto' }) {
  const target: ReferenceTarget = await startReferenceTarget(options)
  const client = new TargetClient({ baseUrl: target.url, timeoutMs: 10_000, concurrency: 4, secrets: new Secrets() })
  closers.push(
    () => target.close(),
    () => client.close(),
  )
  const tokens = await referenceTokens(target)
  const before = target.stats().requests
  const facts = await readShopSchema(
    { setting, baseUrl: target.url, storeCode: 'default', timeoutMs: 10_000, pathAliases: [], tokens },
    client,
  )
  return { facts, requests: target.stats().requests - before }
}

describe('readShopSchema', () => {
  it("reads the clean target's schema under each caller: no finding, its extension operations", async () => {
    const { facts, requests } = await read({})
    // One GET per caller view: what the schema costs a run.
    expect(requests).toBe(3)
    expect(facts.block).toMatchObject({
      status: 'read',
      published: true,
      callers: ['anon', 'customer', 'admin'],
      findings: [],
      notJudged: [],
      specEndpoints: 278,
      declaredSpecEndpoints: 278,
    })
    expect(facts.operations.map((op) => endpointText(op)).sort()).toEqual(
      [...EXTRA_ROUTES, ...EXTENSION_ROUTES].map((r) => r.key).sort(),
    )
    expect(facts.block.text).toContain(
      `agrees with the spec (no finding); declares 278 of 278 spec endpoints and ${EXTRA_ROUTES.length + EXTENSION_ROUTES.length} extension operations`,
    )
  })

  it('finds a schema fault at its operation', async () => {
    const { facts } = await read({ faults: [{ name: 'schema-wrong-access' }] })
    expect(facts.block.findings.map((f) => f.kind)).toEqual(['access-class-differs'])
  })

  it('not published: one line, no extension operation', async () => {
    const { facts } = await read({ variants: ['schema-unpublished'] })
    expect(facts.operations).toEqual([])
    expect(facts.block.text).toBe(
      'The shop publishes no schema: with no token, answered 404 "Request does not match any route.".',
    )
  })

  it("broken (a 500 for every caller, as a real shop's was): said as the shop's broken endpoint, with what went unchecked and how to check it", async () => {
    const { facts, requests } = await read({ variants: ['schema-broken'] })
    expect(requests).toBe(3)
    expect(facts.operations).toEqual([])
    expect(facts.block).toMatchObject({
      status: 'broken',
      published: true,
      findings: [],
      notes: [
        expect.stringMatching(
          /^a server error at the schema URL usually means the platform could not generate the schema/,
        ),
      ],
    })
    expect(facts.block.text).toMatch(
      /^The shop's schema endpoint is broken: GET http:\/\/127\.0\.0\.1:\d+\/rest\/default\/schema\?services=all answered 500 "Internal Error\. Details are available in Shop log file\. Report ID: webapi-\w+" with no token, and answered 500 under every other caller too\. The shop's extension endpoints were not checked: the schema lists them\. To check them anyway, give a schema saved where it generates .* as --target-schema FILE, or declare them, with checks of your own, in a config \(--config\)\. Information only/,
    )
  })

  // Issue 29.9: the anonymous and the admin's views need only the admin's token, and were read after the preflight's
  // customers; requested as soon as the token is known, the reading uses their answers and sends nothing more for them.
  it('uses the anonymous and admin views requested early: one GET per view all the same; none early for another setting', async () => {
    const target = await startReferenceTarget({})
    const client = new TargetClient({ baseUrl: target.url, timeoutMs: 10_000, concurrency: 4, secrets: new Secrets() })
    closers.push(
      () => target.close(),
      () => client.close(),
    )
    const tokens = await referenceTokens(target)
    const before = target.stats().requests
    const early = requestSchemaEarly({ kind: 'auto' }, 'default', client, tokens.admin)
    expect([...early.keys()]).toEqual(['', tokens.admin])
    await Promise.all(early.values())
    expect(target.stats().requests - before).toBe(2)
    const facts = await readShopSchema(
      {
        setting: { kind: 'auto' },
        baseUrl: target.url,
        storeCode: 'default',
        timeoutMs: 10_000,
        pathAliases: [],
        tokens,
      },
      client,
      early,
    )
    expect(target.stats().requests - before).toBe(3)
    expect(early.size).toBe(0)
    expect(facts.block).toMatchObject({ status: 'read', callers: ['anon', 'customer', 'admin'], findings: [] })
    expect(requestSchemaEarly({ kind: 'off' }, 'default', client, tokens.admin).size).toBe(0)
    expect(
      requestSchemaEarly({ kind: 'url', url: `${target.url}/rest/default/schema` }, 'default', client, tokens.admin)
        .size,
    ).toBe(0)
    expect(target.stats().requests - before).toBe(3)
  })

  it('off: nothing read', async () => {
    const { facts, requests } = await read({}, { kind: 'off' })
    expect(requests).toBe(0)
    expect(facts).toEqual({ block: expect.objectContaining({ status: 'off', published: false }), operations: [] })
  })
})
