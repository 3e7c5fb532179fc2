/**
 * The suite under vitest's own commands (issue 11 point 1): a run, a slice, a listing, shards merged from
 * blobs, interrupts — each as a user types it, in a copy of the project without vitest's caches (a fresh clone).
 */
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REFERENCE_ADMIN, startReferenceTarget, type ReferenceTarget } from '../../reference-target/index.ts'
import { readRequestLog } from '../bench/request-log.ts'
import { cli, inRunSlot } from '../cli/testing.ts'
import { spawnInTest } from '../../test-setup/child-processes.ts'
import type { Report } from '../report/model.ts'
import { PLAN } from '../plan/plan.ts'
import { queued } from '../../test-setup/deadlines.ts'

const ROOT = resolve(import.meta.dirname, '../..')
const ADMIN_ENV = { SHOP_ADMIN_USERNAME: REFERENCE_ADMIN.username, SHOP_ADMIN_PASSWORD: REFERENCE_ADMIN.password }

/**
 * The project's files (what a clone has) with node_modules linked entry by entry: vitest's caches (dot folders) stay
 * out.
 */
function freshCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'shop-native-'))
  for (const entry of readdirSync(ROOT)) {
    if (['node_modules', 'reports', '.git', '.scratch', '.vitest-reports'].includes(entry)) continue
    cpSync(join(ROOT, entry), join(dir, entry), { recursive: true })
  }
  mkdirSync(join(dir, 'node_modules'))
  for (const entry of readdirSync(join(ROOT, 'node_modules')))
    if (!entry.startsWith('.')) symlinkSync(join(ROOT, 'node_modules', entry), join(dir, 'node_modules', entry))
  return dir
}

interface Ran {
  status: number | null
  stdout: string
  stderr: string
}

/** `npx vitest ARGS` in `cwd`, with only the given environment; `signal` sent once `when()` holds. */
function vitest(
  cwd: string,
  args: string[],
  env: Record<string, string>,
  signal?: { name: NodeJS.Signals; when: () => boolean },
): Promise<Ran> {
  return inRunSlot(
    () =>
      new Promise((done) => {
        const child = spawnInTest(process.execPath, [join(cwd, 'node_modules/vitest/vitest.mjs'), ...args], {
          cwd,
          env: { PATH: process.env.PATH ?? '', HOME: cwd, TMPDIR: tmpdir(), ...env },
        })
        let stdout = ''
        let stderr = ''
        child.stdout!.on('data', (d) => (stdout += d))
        child.stderr!.on('data', (d) => (stderr += d))
        const poll =
          signal === undefined
            ? undefined
            : setInterval(() => {
                if (!signal.when()) return
                clearInterval(poll)
                child.kill(signal.name)
              }, 50)
        // A copy a timed-out test removed while its run queued: said as the run's output, never an uncaught ENOENT.
        child.on('error', (err) => done({ status: null, stdout, stderr: `${stderr}${err.message}\n` }))
        child.on('close', (status) => {
          clearInterval(poll)
          done({ status, stdout, stderr })
        })
      }),
  )
}

/** The requests of a run logged as `npm run bench` logs them: its preload, in the main thread and vitest's worker. */
const REQUEST_LOG = (file: string) => ({
  SHOP_REQUEST_LOG: file,
  NODE_OPTIONS: `--import=${pathToFileURL(join(ROOT, 'lib/bench/preload.mjs')).href}`,
})

const reportIn = (dir: string) => JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report

// Concurrent: most of these tests wait on their vitest processes (bounded for the machine by inRunSlot). They
// share one copy of the tree, warm after its first runs; the cold run has a copy of its own, and the two that
// must not overlap another run (one adds suite files to the copy, one interrupts at a point of progress) run alone.
describe.concurrent('the suite under vitest, natively', () => {
  let copy: string
  const targets: ReferenceTarget[] = []
  beforeAll(() => {
    copy = freshCopy()
  })
  afterAll(async () => {
    for (const t of targets) await t.close()
    rmSync(copy, { recursive: true, force: true })
  })
  async function target(options: Parameters<typeof startReferenceTarget>[0] = {}) {
    const t = await startReferenceTarget(options)
    targets.push(t)
    return t
  }

  it('npx vitest run --project conformance runs the whole suite against the bundled target: conforms, exit 0', {
    timeout: queued(180_000),
  }, async ({ onTestFinished }) => {
    // As a fresh clone has it: no cache of vite's or of vitest's transforms.
    const clone = freshCopy()
    onTestFinished(() => rmSync(clone, { recursive: true, force: true }))
    expect(readdirSync(join(clone, 'node_modules')).filter((entry) => entry.startsWith('.'))).toEqual([])
    const run = await vitest(clone, ['run', '--project', 'conformance'], { SHOP_REPORT_DIR: join(clone, 'out-whole') })
    expect(run.status, run.stderr).toBe(0)
    const r = reportIn(join(clone, 'out-whole'))
    expect(r.certification.verdict).toBe('conforms')
    expect(r.certification.scope.whole).toBe(true)
    expect(r.certification.passed).toBe(PLAN.checks.length)
    expect(run.stdout).toContain('Verdict: conforms')
  })

  it('-t base-prices on catalog-prices sends only that slice\'s requests and reports "partial"', {
    timeout: queued(120_000),
  }, async () => {
    const t = await target()
    const log = join(copy, 'slice-requests.jsonl')
    const out = join(copy, 'out-slice')
    const run = await vitest(
      copy,
      ['run', '--project', 'conformance', 'suites/catalog-prices.conformance.ts', '-t', 'base-prices'],
      { ...ADMIN_ENV, SHOP_BASE_URL: t.url, SHOP_REPORT_DIR: out, ...REQUEST_LOG(log) },
    )
    expect(run.status, run.stderr).toBe(0)
    const r = reportIn(out)
    const judged = r.results.filter((x) => x.applicable !== false)
    expect(judged.map((x) => x.id).every((id) => id.includes('base-prices'))).toBe(true)
    expect(r.certification.verdict).toBe('partial')
    expect(r.certification.scope.text).toBe(
      `partial: ${judged.length} of ${PLAN.checks.length} checks selected (files suites/catalog-prices.conformance.ts; -t /base-prices/)`,
    )
    // The worker sent only the slice's calls (and the products they are made on, and the customer of the run's own
    // the access check sends as a customer); the main process the preflight and cleanup.
    const worker = readRequestLog(readFileSync(log, 'utf8')).filter((q) => q.thread === 'worker')
    expect(worker.length).toBeGreaterThan(0)
    expect(
      worker
        .filter(
          (q) =>
            !/^\/V1\/(products(\/base-prices(-information)?|\/[^/]+)?|customers|integration\/customer\/token)$/.test(
              q.path,
            ),
        )
        .map((q) => q.path),
    ).toEqual([])
  })

  it('vitest list --project conformance lists every planned check and sends nothing', {
    timeout: queued(120_000),
  }, async () => {
    const t = await target()
    const out = join(copy, 'out-list')
    const list = await vitest(copy, ['list', '--project', 'conformance'], {
      ...ADMIN_ENV,
      SHOP_BASE_URL: t.url,
      SHOP_REPORT_DIR: out,
    })
    expect(list.status, list.stderr).toBe(0)
    const names = list.stdout
      .trim()
      .split('\n')
      .map((line) => line.replace(/^.* > /, ''))
    // The extensions' file lists one placeholder: its operations are known only in a run.
    expect(new Set(names)).toEqual(
      new Set([
        ...PLAN.checks.map((p) => p.id),
        'no operations listed: a run registers one test per check of each operation',
      ]),
    )
    expect(t.stats().requests).toBe(0)
    expect(existsSync(out)).toBe(false)
  })

  it("the project's own tests do not load the suite's run, nor start one; the conformance project reads its settings", {
    timeout: queued(120_000),
  }, async () => {
    // A typo of a setting is refused by the run's settings: only where a suite file runs.
    const suite = await vitest(copy, ['run', '--project', 'conformance', 'suites/directory.conformance.ts'], {
      SHOP_READONLY: '1',
    })
    expect(suite.status).toBe(1)
    expect(suite.stderr).toMatch(/SHOP_READONLY \(in the environment\): not a setting; did you mean SHOP_READ_ONLY\?/)
    // One own test file with no project named: every project is in the run (npm test names only its own two),
    // but no suite file is, so no run starts — no setting of a run refused, no bundled target, no request — and
    // no report is written over the last one.
    const out = join(copy, 'out-own-file')
    const oneFile = await vitest(copy, ['run', 'lib/shop/secrets.test.ts'], {
      SHOP_REPORT_DIR: out,
      SHOP_READONLY: '1',
    })
    expect(oneFile.status, oneFile.stderr).toBe(0)
    expect(oneFile.stdout).not.toMatch(/Verdict:|reference target/)
    expect(existsSync(out)).toBe(false)
  })

  it('shards with blobs merged by --merge-reports equal report merge of their reports; no secret in a blob', {
    timeout: queued(240_000),
  }, async () => {
    const t = await target()
    const env = { ...ADMIN_ENV, SHOP_BASE_URL: t.url, SHOP_SEED: '7' }
    // The two shards side by side, as a CI matrix runs them.
    const shards = await Promise.all(
      [1, 2].map((i) =>
        vitest(
          copy,
          [
            'run',
            '--project',
            'conformance',
            `--shard=${i}/2`,
            '--reporter=blob',
            `--outputFile.blob=blobs/shard-${i}.json`,
          ],
          { ...env, SHOP_REPORT_DIR: join(copy, `out-shard-${i}`) },
        ),
      ),
    )
    for (const [n, shard] of shards.entries()) {
      const i = n + 1
      expect(shard.status, shard.stderr).toBe(0)
      expect(reportIn(join(copy, `out-shard-${i}`)).certification.scope.text).toMatch(
        new RegExp(`^partial: \\d+ of \\d+ checks selected \\(shard ${i}/2\\)$`),
      )
    }
    const blobs = readdirSync(join(copy, 'blobs'))
      .map((f) => readFileSync(join(copy, 'blobs', f), 'utf8'))
      .join('\n')
    for (const secret of [REFERENCE_ADMIN.password, ...t.issuedTokens()])
      expect(blobs.includes(secret), `a secret of ${secret.length} characters is in a blob`).toBe(false)
    const merged = await vitest(copy, ['--merge-reports=blobs', '--project', 'conformance'], {
      ...env,
      SHOP_REPORT_DIR: join(copy, 'out-merged'),
    })
    expect(merged.status, merged.stderr).toBe(0)
    const byCli = await cli([
      'report',
      'merge',
      '--out',
      join(copy, 'out-report-merge'),
      join(copy, 'out-shard-1/report.json'),
      join(copy, 'out-shard-2/report.json'),
    ])
    expect(byCli.status, byCli.stderr).toBe(0)
    const comparable = (r: Report) => ({
      ...r,
      startedAt: undefined,
      finishedAt: undefined,
      durationMs: undefined,
      signature: undefined,
    })
    const viaVitest = reportIn(join(copy, 'out-merged'))
    expect(viaVitest.certification.scope.whole).toBe(true)
    expect(viaVitest.results.length).toBeGreaterThan(PLAN.checks.length)
    expect(comparable(viaVitest)).toEqual(comparable(reportIn(join(copy, 'out-report-merge'))))
  })

  it('-t sliced shards merged from their blobs count only the slice: partial, with the slice named', {
    timeout: queued(240_000),
  }, async () => {
    const t = await target()
    const env = { ...ADMIN_ENV, SHOP_BASE_URL: t.url, SHOP_SEED: '8' }
    const selected: number[] = []
    const shards = await Promise.all(
      [1, 2].map((i) =>
        vitest(
          copy,
          [
            'run',
            '--project',
            'conformance',
            `--shard=${i}/2`,
            '-t',
            'route',
            '--reporter=blob',
            `--outputFile.blob=blobs-t/shard-${i}.json`,
          ],
          { ...env, SHOP_REPORT_DIR: join(copy, `out-t-shard-${i}`) },
        ),
      ),
    )
    for (const [n, shard] of shards.entries()) {
      const i = n + 1
      expect(shard.status, shard.stderr).toBe(0)
      // The spec's checks: `-t route` selects the extensions' `extension-route` too, which the certification does not
      // count.
      selected.push(reportIn(join(copy, `out-t-shard-${i}`)).plan.selected.filter((c) => c.origin === 'spec').length)
    }
    const merged = await vitest(copy, ['--merge-reports=blobs-t', '--project', 'conformance'], {
      ...env,
      SHOP_REPORT_DIR: join(copy, 'out-t-merged'),
    })
    expect(merged.status, merged.stderr).toBe(0)
    const r = reportIn(join(copy, 'out-t-merged'))
    const sliced = selected[0]! + selected[1]!
    expect(sliced).toBeGreaterThan(0)
    expect(sliced).toBeLessThan(PLAN.checks.length)
    expect(r.plan.selected.every((c) => c.id.includes('route'))).toBe(true)
    expect(r.plan.selected.some((c) => c.origin === 'extension')).toBe(true)
    expect(r.certification.verdict).toBe('partial')
    expect(r.certification.scope.text).toBe(`partial: ${sliced} of ${PLAN.checks.length} checks selected (-t /route/)`)
    expect(r.certification.passed).toBe(sliced)
  })

  // Alone: the suite files it adds to the copy would be part of any other run there.
  it.sequential('a module that fails to load and a beforeAll that throws are errors of the run, not "not run"', {
    timeout: queued(120_000),
  }, async () => {
    writeFileSync(
      join(copy, 'suites/zz-broken.conformance.ts'),
      "import { moduleSuite } from '../lib/vitest/module-suite.ts'\nmoduleSuite({ module: 'no-such-module', workflows: [] })\n",
    )
    writeFileSync(
      join(copy, 'suites/zz-hook.conformance.ts'),
      "import { beforeAll, describe, test } from 'vitest'\ndescribe('hooked', () => {\n  beforeAll(() => {\n    throw new Error('the hook broke')\n  })\n  test('t', () => {})\n})\n",
    )
    try {
      const out = join(copy, 'out-broken')
      const run = await vitest(
        copy,
        ['run', '--project', 'conformance', 'suites/directory.conformance.ts', 'suites/zz-'],
        { SHOP_REPORT_DIR: out },
      )
      expect(run.status).toBe(1)
      const r = reportIn(out)
      expect(r.runErrors.some((e) => /^zz-broken: moduleSuite: unknown module "no-such-module"/.test(e))).toBe(true)
      expect(r.runErrors.some((e) => /^zz-hook › hooked: the hook broke/.test(e))).toBe(true)
      expect(r.certification.verdict).toBe('incomplete')
      expect(r.exit.status).toBe(1)
    } finally {
      rmSync(join(copy, 'suites/zz-broken.conformance.ts'))
      rmSync(join(copy, 'suites/zz-hook.conformance.ts'))
    }
  })

  // Alone, not beside another run: it is interrupted at a point of its progress, which another run would slow.
  it.sequential('SIGINT under plain vitest, SIGTERM under shop-conformance run: cleaned up, every finished result in a partial report', {
    timeout: queued(180_000),
  }, async () => {
    for (const [name, status, how] of [
      ['SIGINT', 130, 'vitest'],
      ['SIGTERM', 143, 'run'],
    ] as const) {
      const t = await target({ latencyMs: 5 })
      const env = { ...ADMIN_ENV, SHOP_BASE_URL: t.url, SHOP_CONCURRENCY: '2' }
      const when = () => t.stats().requests >= 900
      let r: Report
      let stderr: string
      if (how === 'vitest') {
        const out = join(copy, `out-${name}`)
        const run = await vitest(
          copy,
          ['run', '--project', 'conformance'],
          { ...env, SHOP_REPORT_DIR: out },
          { name, when },
        )
        expect(run.status, run.stderr).toBe(status)
        r = reportIn(out)
        stderr = run.stderr
      } else {
        const run = await cli(['run'], env, { signal: { name, when } })
        expect(run.status, run.stderr).toBe(status)
        r = run.report!
        stderr = run.stderr
      }
      expect(stderr).toContain(`${name} received: stopping, cleaning up and writing a partial report`)
      expect(r.partial).toEqual({ reason: name })
      expect(r.exit.status).toBe(status)
      const applicable = r.results.filter((x) => x.applicable !== false)
      expect(applicable.length).toBeGreaterThan(50)
      expect(new Set(applicable.map((x) => x.module)).size).toBeGreaterThan(1)
      expect(
        applicable.filter((x) => x.exchanges.some((e) => /the run was being stopped/.test(e.error ?? ''))),
      ).toEqual([])
      expect(r.cleanup.removed).toBeGreaterThan(0)
    }
  })
})
