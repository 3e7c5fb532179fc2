/**
 * `--dry-run` lists every request a run against the reference target sends (issue 24's done-when): the run's
 * request log (lib/bench/request-log.ts, the client's request channel) against the dry run's listing, compared by
 * method and path template — the ids the run makes differ from run to run, so a concrete path is read as the
 * template it matches (a catalog row, an extension operation of the shop's schema, a call of the set-up beyond the
 * spec, the calibration's impossible paths). The schema is given as a file, so the dry run knows the extension
 * operations too and lists their probes one by one; and every probe the dry run lists is one the run sent.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, describe, expect, it, onTestFinished } from 'vitest'
import { REFERENCE_ADMIN, startReferenceTarget, type ReferenceTarget } from '../../reference-target/index.ts'
import { readRequestLog } from '../bench/request-log.ts'
import { readingCall } from '../checks/extension-probes.ts'
import { limitedAdminEnv } from '../checks/testing.ts'
import { extensionOperations } from '../schema/extensions.ts'
import { readDocument } from '../schema/read.ts'
import { referenceTokens } from '../schema/testing.ts'
import { CATALOG } from '../spec/catalog/index.ts'
import { matchTemplate } from '../spec/paths.ts'
import { PLATFORM_CALLS } from '../setup/platform-calls.ts'
import { cli } from './testing.ts'
import { endpointText } from '../spec/endpoint-id.ts'

const PRELOAD = pathToFileURL(join(import.meta.dirname, '../bench/preload.mjs')).href
/** The calibration's paths carry a nonce of the run's: one template for any. */
const NONCE = /shop-conformance-no-such-route-(?:[0-9a-f]+|<nonce>)/

let target: ReferenceTarget
afterAll(() => target?.close())

/** `METHOD template` of a request, by the templates the run may send to: undefined where none matches. */
function templateOf(
  templates: readonly { method: string; path: string }[],
  method: string,
  path: string,
): string | undefined {
  const bare = path.split('?')[0]!.replace(NONCE, 'shop-conformance-no-such-route-<nonce>')
  let best: { path: string; literal: number } | undefined
  for (const t of templates) {
    if (t.method !== method) continue
    const m = matchTemplate(t.path, bare)
    if (m !== undefined && (best === undefined || m.literalSegments > best.literal))
      best = { path: t.path, literal: m.literalSegments }
  }
  return best === undefined ? undefined : `${endpointText({ method: method, path: best.path })}`
}

/** Each request line of the dry run (`GET, POST URL  [caller] …`): its methods and its path below `/rest/{store}`. */
function listed(text: string, base: string): { line: string; method: string; path: string; probe: boolean }[] {
  let section = ''
  return text.split('\n').flatMap((line) => {
    if (line.startsWith('# ')) section = line
    const m = /^((?:GET|POST|PUT|DELETE)(?:, (?:GET|POST|PUT|DELETE))*) (\S+)/.exec(line)
    if (m === null || !m[2]!.startsWith(base)) return []
    const path = m[2]!.slice(base.length).replace(/^\/rest\/[^/]+/, '')
    const probe = /^# (probes|valid requests|the shop's extension operations)/.test(section)
    return m[1]!.split(', ').map((method) => ({ line, method, path, probe }))
  })
}

describe('--dry-run and the request log of the same run', () => {
  it('lists every request the run sent, by method and path template, and sends every probe it lists', {
    timeout: 300_000,
  }, async () => {
    target = await startReferenceTarget()
    const tokens = await referenceTokens(target)
    const schema = await (
      await fetch(`${target.url}/rest/default/schema?services=all`, {
        headers: { Authorization: `Bearer ${tokens.admin}` },
      })
    ).json()
    const dir = mkdtempSync(join(tmpdir(), 'dry-run-log-'))
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
    const schemaFile = join(dir, 'schema.json')
    writeFileSync(schemaFile, JSON.stringify(schema))
    const log = join(dir, 'requests.jsonl')
    const args = ['--base-url', target.url, '--target-schema', schemaFile]
    const env = {
      SHOP_ADMIN_USERNAME: REFERENCE_ADMIN.username,
      SHOP_ADMIN_PASSWORD: REFERENCE_ADMIN.password,
      ...limitedAdminEnv(target),
    }
    // The dry run sends nothing (lib/run/safety.test.ts): it runs beside the run.
    const [run, dry] = await Promise.all([
      cli(['run', ...args], { ...env, NODE_OPTIONS: `--import=${PRELOAD}`, SHOP_REQUEST_LOG: log }),
      cli(['run', '--dry-run', ...args], env),
    ])
    expect(run.status, run.stderr).toBe(0)
    expect(dry.status, dry.stderr).toBe(0)

    const read = readDocument(schema)
    if (!read.ok) throw new Error(read.reason)
    const templates = [
      ...CATALOG,
      ...extensionOperations(read.schema),
      { method: 'GET', path: '/schema' },
      readingCall(false).call,
      ...Object.values(PLATFORM_CALLS),
      ...['GET', 'POST', 'PUT', 'DELETE'].flatMap((method) =>
        ['/V1/shop-conformance-no-such-route-<nonce>', '/V1/directory/shop-conformance-no-such-route-<nonce>'].map(
          (path) => ({ method, path }),
        ),
      ),
    ]
    const sent = readRequestLog(readFileSync(log, 'utf8'))
    const unknown = [
      ...new Set(
        sent.filter((r) => templateOf(templates, r.method, r.path) === undefined).map((r) => `${endpointText(r)}`),
      ),
    ]
    expect(unknown, 'requests of no template the suite knows').toEqual([])
    const sentTemplates = new Set(sent.map((r) => templateOf(templates, r.method, r.path)!))
    const lines = listed(dry.stdout, target.url)
    const listedTemplates = new Set(lines.flatMap((l) => templateOf(templates, l.method, l.path) ?? []))
    expect([...sentTemplates].filter((t) => !listedTemplates.has(t)).sort(), 'sent, not listed by --dry-run').toEqual(
      [],
    )
    const probes = lines.filter((l) => l.probe)
    expect(probes.length).toBeGreaterThan(400)
    expect(
      [...new Set(probes.map((l) => templateOf(templates, l.method, l.path) ?? l.line))]
        .filter((t) => !sentTemplates.has(t))
        .sort(),
      'listed as a probe, not sent',
    ).toEqual([])
  })
})
