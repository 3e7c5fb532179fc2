/**
 * The vendor's config loaded as a run loads it (through tsx, which starts esbuild: a process): a file that cannot be
 * loaded is one line, --dry-run names its checks, the README's config loads in a user's project; the worked example of
 * examples/vendor-extension/ judged against the reference target, which serves its endpoint when told to: it passes
 * there, and its own check fails — nothing else of it — where the example's behaviour is broken. Which file is the
 * config, and what in it is refused: config-file.test.ts.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { startReferenceTarget } from '../../reference-target/index.ts'
import { UsageError } from '../base/usage-error.ts'
import { CHECK_KINDS } from '../checks/index.ts'
import { dryRunPlan } from '../cli/dry-run.ts'
import { targetSessions } from '../checks/testing.ts'
import { buildPlan, SUITE } from '../plan/plan.ts'
import { loadConfig } from '../settings/config.ts'
import { ACL_RESOURCES } from '../spec/catalog/index.ts'
import { configFileOf, DEFAULT_CONFIG_FILE, loadVendorConfig } from './load.ts'
import { crashVerdict } from '../results/crash.ts'
import { endpointText } from '../spec/endpoint-id.ts'

const EXAMPLE = fileURLToPath(new URL('../../examples/vendor-extension/shop-conformance.config.ts', import.meta.url))
const sessions = targetSessions()
const dirs: string[] = []
afterAll(async () => {
  await sessions.closeAll()
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'vendor-config-'))
  dirs.push(dir)
  return dir
}

describe('the config file', () => {
  it('that cannot be loaded is refused in one line', async () => {
    const dir = tempDir()
    writeFileSync(join(dir, 'bad.config.ts'), 'export default {')
    await expect(loadVendorConfig(join(dir, 'bad.config.ts'), CHECK_KINDS)).rejects.toThrow(
      /^--config .*bad\.config\.ts: cannot be loaded: /,
    )
  })

  // Issue 31.12: a syntax error said only "cannot be loaded: Transform failed with 1 error:".
  it('with a syntax error: the line says where', async () => {
    const dir = tempDir()
    const broken = 'export default {\n  endpoints: [,\n  checks: []\n'
    writeFileSync(join(dir, 'syntax.config.ts'), broken)
    const ts = join(dir, 'syntax.config.ts')
    await expect(loadVendorConfig(ts, CHECK_KINDS)).rejects.toThrow(
      new UsageError(`--config ${ts}: cannot be loaded: ${ts}:3:8: ERROR: Expected "]" but found ":"`),
    )
  })
})

describe("a vendor's check that throws (issue 31.5)", () => {
  // The throw is on line 7, column 14 (`.count`), in every form of the file.
  const body = (types: boolean) => `const x${types ? ': any' : ''} = undefined
// line 2
// line 3
export default {
  endpoints: [{ method: 'GET', path: '/V1/ref-example/warehouses', access: 'admin', module: 'vendor-warehouses' }],
  checks: [{ name: 'throws', description: 'reads a field of nothing', run: async () => {
    return x.count
  } }],
}
`
  it.each([
    ['.ts in a CommonJS project', 'shop-conformance.config.ts', {}],
    ['.ts in an ES module project', 'shop-conformance.config.ts', { type: 'module' }],
    ['.mts', 'shop-conformance.config.mts', {}],
    ['.mjs', 'shop-conformance.config.mjs', {}],
    ['.js in an ES module project', 'shop-conformance.config.js', { type: 'module' }],
  ])("names the vendor's file, line and column as %s", async (_, name, manifest) => {
    const dir = tempDir()
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'shop-tests', version: '1.0.0', ...manifest }))
    const file = join(dir, name)
    writeFileSync(file, body(/\.[cm]?ts$/.test(name)))
    const parts = await loadVendorConfig(file, CHECK_KINDS)
    const error = await parts.kinds[0]!.run(parts.rows[0]!, undefined as never).then(
      () => undefined,
      (e: unknown) => e,
    )
    const { message } = crashVerdict('vendor', 'throws', error, (t) => t)
    const at = file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
    expect(message).toMatch(
      new RegExp(
        `^error of the vendor's check \\(its code, not a finding about the shop\\): throws threw TypeError: .* at \\S+ \\((file://)?${at}:7:14\\)$`,
      ),
    )
  })
})

describe("a vendor's config in run --dry-run", () => {
  // As the run reads its settings (lib/cli/dry-run.test.ts, the rest of what --dry-run prints).
  const dry = (argv: string[], cwd: string) =>
    dryRunPlan(
      loadConfig(
        ['--base-url', 'https://shop.example', ...argv],
        { SHOP_ADMIN_USERNAME: 'qa', SHOP_ADMIN_PASSWORD: 'pw' },
        {},
        CHECK_KINDS,
        ACL_RESOURCES,
      ),
      cwd,
    )

  it("names a vendor's checks, whose requests are their own code's, and refuses a config the run would refuse", async () => {
    expect(await dry(['--config', EXAMPLE], tempDir())).toContain(
      `\n# a vendor's checks (${EXAMPLE}): what each sends is its own code's — not listed\n# warehouse-stock: at GET /V1/ref-example/warehouses\n`,
    )
    const dir = tempDir()
    writeFileSync(join(dir, 'shop-conformance.config.ts'), 'export default { endpoints: 1, checks: [] }\n')
    await expect(dry([], dir)).rejects.toThrow('`endpoints` is not a list')
  })
})

describe("the README's config, in a project of the user's", () => {
  // The block of README "Extending the suite", word for word, importing the package by its name.
  const readme = readFileSync(fileURLToPath(new URL('../../README.md', import.meta.url)), 'utf8')
  const config = /## Extending the suite[^]*?\n```ts\n([^]*?)```\n/.exec(readme)![1]!
  it.each([
    ['a default (CommonJS) project', { name: 'shop-tests', version: '1.0.0' }],
    ['an ES module project', { name: 'shop-tests', version: '1.0.0', type: 'module' }],
  ])('loads in %s', async (_, packageJson) => {
    const dir = tempDir()
    writeFileSync(join(dir, 'package.json'), JSON.stringify(packageJson))
    mkdirSync(join(dir, 'node_modules'))
    symlinkSync(fileURLToPath(new URL('../..', import.meta.url)), join(dir, 'node_modules', 'shop-conformance'))
    writeFileSync(join(dir, DEFAULT_CONFIG_FILE), config)
    const parts = await loadVendorConfig(configFileOf(undefined, dir)!, CHECK_KINDS)
    expect(parts.rows.map((r) => `${endpointText(r)} ${r.module}`)).toEqual([
      'GET /V1/ref-example/warehouses vendor-warehouses',
    ])
    expect(parts.kinds.map((k) => k.name)).toEqual(['warehouse-stock'])
  })
})

describe('the worked example (examples/vendor-extension/)', () => {
  async function judged(serveExample: 'served' | 'broken') {
    const parts = await loadVendorConfig(EXAMPLE, CHECK_KINDS)
    const plan = buildPlan({ ...SUITE, rows: [...SUITE.rows, ...parts.rows], kinds: [...SUITE.kinds, ...parts.kinds] })
    const session = await sessions.open(await startReferenceTarget({ serveExample }))
    const vendor = plan.checks.filter((p) => p.origin === 'vendor')
    return Promise.all(
      vendor.map(async (p) => {
        const kind = parts.kinds.find((k) => k.name === p.kind)!
        const v = await kind.run(p.added!, session)
        return { id: p.id, module: p.module, status: v.status, message: v.message, exchanges: v.exchanges.length }
      }),
    )
  }

  it('passes on the reference target that serves its endpoint', async () => {
    expect(await judged('served')).toEqual([
      {
        id: 'GET /V1/ref-example/warehouses › warehouse-stock',
        module: 'vendor-warehouses',
        status: 'passed',
        message: '2 warehouses, each with a stock of at least 0',
        exchanges: 1,
      },
    ])
  })

  it("fails its own check where the example's behaviour is broken", async () => {
    expect(await judged('broken')).toEqual([
      {
        id: 'GET /V1/ref-example/warehouses › warehouse-stock',
        module: 'vendor-warehouses',
        status: 'failed',
        message: 'stock is not a whole number of at least 0 for south (-3)',
        exchanges: 1,
      },
    ])
  })
})
