/**
 * lib/schema end to end against a started reference target: the schema it publishes per caller is read,
 * compared with the spec, and its extension operations judged through judge.ts by the run's driver, the
 * extension kinds of lib/checks/extension.ts. Clean: no finding, every extension operation passes; each schema fault:
 * exactly its finding at its operation; extension-open: exactly that operation fails access; the
 * schema-unpublished variant: not published; its own views, read and merged, declare every route it serves.
 * Reading documents handed over: read.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FAULTS, startReferenceTarget } from '../../reference-target/index.ts'
import type { FaultName, ReferenceTarget, ReferenceTargetOptions } from '../../reference-target/index.ts'
import { EXTENSION_ROUTES } from '../../reference-target/extension-routes.ts'
import { EXTRA_ROUTES, SERVED_ROUTES } from '../../reference-target/extra-routes.ts'
import { resolveFaults } from '../../reference-target/faults.ts'
import { OTHER_ENDPOINTS } from '../../reference-target/testing.ts'
import { openSession } from '../checks/testing.ts'
import type { Session } from '../shop/session.ts'
import { compareWithSpec } from './compare.ts'
import type { FindingKind } from './compare.ts'
import { extensionOperations } from './extensions.ts'
import type { ExtensionOperation } from './extensions.ts'
type ProbeOptions = { readOnly: boolean; probeWrites: boolean }
import { extensionKinds, extensionRow } from '../checks/extension.ts'
import { loadSchema } from './load.ts'
import type { LoadedSchema } from './load.ts'
import { fetchGet, readOk, referenceTokens } from './testing.ts'
import { declaredAccess, mergeViews } from './read.ts'
import { endpointText } from '../spec/endpoint-id.ts'

const targets: ReferenceTarget[] = []
const sessions: Session[] = []
afterAll(async () => {
  for (const s of sessions) await s.close()
  for (const t of targets) await t.close()
})

async function started(options: ReferenceTargetOptions = {}): Promise<ReferenceTarget> {
  const target = await startReferenceTarget(options)
  targets.push(target)
  return target
}

async function schemaOf(target: ReferenceTarget): Promise<LoadedSchema> {
  return loadSchema({
    setting: { kind: 'auto' },
    baseUrl: target.url,
    storeCode: 'default',
    get: fetchGet,
    tokens: await referenceTokens(target),
  })
}

async function readSchema(target: ReferenceTarget) {
  const loaded = await schemaOf(target)
  if (loaded.status !== 'read') throw new Error(`schema not read: ${JSON.stringify(loaded)}`)
  return loaded
}

/** The run's driver (lib/checks/extension.ts): each extension operation's three kinds through one session. */
async function judgeExtensions(
  session: Session,
  operations: readonly ExtensionOperation[],
  options: ProbeOptions,
): Promise<Map<string, Judged[]>> {
  expect(session.seed.readOnly).toBe(options.readOnly)
  const kinds = extensionKinds({ probeWrites: options.probeWrites })
  const verdicts = new Map<string, Judged[]>()
  await Promise.all(
    operations.map(async (op) => {
      const row = extensionRow(op)
      const judged = await Promise.all(
        kinds.map(async (kind) => {
          const v = await kind.run(row, session)
          return {
            check: kind.name.replace(/^extension-/, ''),
            status: v.status === 'skipped' ? 'not judged' : v.status,
            message: v.message,
            exchanges: v.exchanges.length,
          }
        }),
      )
      verdicts.set(endpointText(op), judged)
    }),
  )
  return verdicts
}

async function session(target: ReferenceTarget): Promise<Session> {
  const s = await openSession(target)
  sessions.push(s)
  return s
}

interface Judged {
  check: string
  status: string
  message: string
  exchanges: number
}

const statuses = (verdicts: Map<string, Judged[]>) =>
  [...verdicts].flatMap(([key, vs]) => vs.map((v) => `${key} › ${v.check}: ${v.status}`)).sort()
const EXTENSIONS = [...EXTRA_ROUTES, ...EXTENSION_ROUTES]
const ANON_WRITES = EXTENSIONS.filter((r) => r.access === 'anon' && r.method !== 'GET').map((r) => r.key)

describe('the clean reference target', () => {
  it('publishes a schema that agrees with the spec, and extension operations that each behave as declared', async () => {
    const target = await started()
    const loaded = await readSchema(target)
    expect(loaded.notes).toEqual([])
    expect(loaded.schema.problems).toEqual([])
    const comparison = compareWithSpec(loaded.schema)
    expect(comparison).toEqual({ findings: [], notJudged: [], specEndpoints: 278, declaredSpecEndpoints: 278 })

    const operations = extensionOperations(loaded.schema)
    expect(operations.map((op) => `${endpointText(op)} ${op.declaredAccess}`).sort()).toEqual(
      EXTENSIONS.map((r) => `${r.key} ${r.access}`).sort(),
    )

    // Asked to send writes to every caller (the bundled target may be written to): every verdict passes.
    const s = await session(target)
    const all = await judgeExtensions(s, operations, { readOnly: false, probeWrites: true })
    expect(statuses(all).filter((v) => !v.endsWith(': passed'))).toEqual([])
    expect(all.get('GET /V1/ref-ext/audit-log')!.map((v) => v.message)).toEqual([
      expect.stringMatching(/^served: GET \/V1\/ref-ext\/audit-log \(admin token\) answered 200/),
      expect.stringMatching(/^served under "all"/),
      'declared admin: no token refused (401), malformed token refused (401), customer token refused (401), admin token let through (200)',
    ])
    // The answers each verdict read are its evidence, as a spec result's are.
    expect(all.get('GET /V1/ref-ext/audit-log')!.map((v) => v.exchanges)).toEqual([1, 2, 4])
  }, 60_000)

  it('by default sends writes only to callers their class refuses, leaves the anonymous writes unjudged, and changes nothing', async () => {
    const target = await started()
    const loaded = await readSchema(target)
    const s = await session(target)
    const before = target.snapshot()
    const safe = await judgeExtensions(s, extensionOperations(loaded.schema), { readOnly: false, probeWrites: false })
    expect(target.snapshot()).toEqual(before)
    const open = statuses(safe).filter((v) => !v.endsWith(': passed'))
    expect(open).toEqual(
      ANON_WRITES.flatMap((key) =>
        ['access', 'route', 'store-code'].map((check) => `${key} › ${check}: not judged`),
      ).sort(),
    )
    expect(safe.get('DELETE /V1/products/:sku')!.map((v) => v.status)).toEqual(['passed', 'passed', 'passed'])
    expect(safe.get('DELETE /V1/products/:sku')![2]!.message).toMatch(
      /; not sent to admin token: a write is sent only to callers its declared class must refuse/,
    )
  }, 60_000)
})

describe('read-only mode', () => {
  it('sends no extension write: every write is not judged, and the reads are judged', async () => {
    const target = await started()
    const loaded = await readSchema(target)
    const s = await openSession(target, ['--read-only'])
    sessions.push(s)
    const before = target.snapshot()
    const verdicts = await judgeExtensions(s, extensionOperations(loaded.schema), { readOnly: true, probeWrites: true })
    expect(target.snapshot()).toEqual(before)
    for (const [key, vs] of verdicts)
      expect(
        vs.map((v) => v.status),
        `${key}: ${vs.map((v) => v.message).join(' / ')}`,
      ).toEqual(key.startsWith('GET ') ? ['passed', 'passed', 'passed'] : ['not judged', 'not judged', 'not judged'])
  }, 60_000)
})

/** What each schema fault must be found as, at its operation. */
const KIND: Partial<Record<FaultName, FindingKind>> = {
  'schema-undeclared-endpoint': 'undeclared-spec-endpoint',
  'schema-wrong-access': 'access-class-differs',
  'schema-wrong-field-type': 'field-type-contradicts',
  'schema-wrong-body-keys': 'body-keys-differ',
}

describe.each(
  (Object.keys(KIND) as FaultName[]).flatMap((name) => [
    { label: `${name} (default endpoint)`, fault: { name } },
    {
      label: `${name}@${endpointText(OTHER_ENDPOINTS[name])}`,
      fault: { name, ...OTHER_ENDPOINTS[name] },
    },
  ]),
)('$label', ({ fault }) => {
  it('is found exactly at its operation, as its kind, and nothing else is', async () => {
    const key = resolveFaults([fault])[0]!.route.key
    const loaded = await readSchema(await started({ faults: [fault] }))
    const { findings } = compareWithSpec(loaded.schema)
    expect(findings.map((f) => `${f.kind} ${f.operation}`)).toEqual([`${KIND[fault.name]} ${key}`])
    if (fault.name === 'schema-wrong-field-type')
      expect(findings[0]).toMatchObject({ field: 'customer_address_id', declared: 'string', spec: 'number' })
    expect(
      extensionOperations(loaded.schema)
        .map((op) => endpointText(op))
        .sort(),
    ).toEqual(EXTENSIONS.map((r) => r.key).sort())
  })
})

describe('extension-open', () => {
  it('fails access at its extension operation, and nothing else fails', async () => {
    const target = await started({ faults: [{ name: 'extension-open' }] })
    const loaded = await readSchema(target)
    expect(compareWithSpec(loaded.schema).findings).toEqual([])
    const verdicts = await judgeExtensions(await session(target), extensionOperations(loaded.schema), {
      readOnly: false,
      probeWrites: true,
    })
    const { method, path } = FAULTS['extension-open'].defaultEndpoint
    expect(statuses(verdicts).filter((v) => !v.endsWith(': passed'))).toEqual([
      `${endpointText({ method, path })} › access: failed`,
    ])
    expect(verdicts.get(endpointText({ method, path }))![2]!.message).toMatch(
      /^declared admin: no token let through \(200 /,
    )
  }, 60_000)
})

describe('the schema-unpublished variant', () => {
  it('is "not published", with the reason', async () => {
    expect(await schemaOf(await started({ variants: ['schema-unpublished'] }))).toEqual({
      status: 'unpublished',
      source: expect.stringMatching(
        /^GET http:\/\/127\.0\.0\.1:\d+\/rest\/default\/schema\?services=all under each caller$/,
      ),
      reason: 'with no token, answered 404 "Request does not match any route."',
    })
  })
})

// Read as read.test.ts reads hand-made documents: the reference target's published views.
describe("the reference target's own views", () => {
  let target: ReferenceTarget
  beforeAll(async () => {
    target = await startReferenceTarget()
  })
  afterAll(async () => {
    await target.close()
  })

  it('read and merged, declare every route it serves with the access class of its route table', async () => {
    const tokens = await referenceTokens(target)
    const url = `${target.url}/rest/default/schema?services=all`
    const views = await Promise.all(
      (['anon', 'customer', 'admin'] as const).map(async (caller) => {
        const fetched = await fetchGet(url, caller === 'anon' ? undefined : tokens[caller])
        return readOk(JSON.parse('text' in fetched ? fetched.text : 'null'), caller)
      }),
    )
    const schema = mergeViews(views)
    expect(schema.problems).toEqual([])
    expect(schema.operations.map((op) => endpointText(op)).sort()).toEqual(SERVED_ROUTES.map((r) => r.key).sort())
    for (const route of SERVED_ROUTES) {
      const op = schema.operations.find((o) => o.method === route.method && o.path === route.template)!
      expect(declaredAccess(op, schema.views), route.key).toBe(route.access)
    }
  })
})
