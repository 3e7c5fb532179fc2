import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { afterAll, describe, expect, test } from 'vitest'
import { startReferenceTarget } from '../../reference-target/index.ts'
import { REQUEST_CHANNEL } from '../shop/request-channel.ts'
import { runSuite } from './measure.ts'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const dir = mkdtempSync(join(tmpdir(), 'bench-preload-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('the bench hooks, injected by the preload (nothing of the run knows them)', () => {
  test("a benchmarked run logs the requests of its main thread and of vitest's worker, labelled, without a secret, and writes its stats", {
    timeout: 120_000,
  }, async () => {
    const target = await startReferenceTarget({ host: '127.0.0.1', port: 0 })
    try {
      // One module whose checks call as every caller: the hooks are what is tested, not the whole suite.
      const run = await runSuite(ROOT, {
        baseUrl: target.url,
        concurrency: 16,
        admin: target.admin,
        dir,
        runArgs: ['--module', 'customer'],
      })
      expect(run.exitCode).toBe(0)
      const threads = new Set(run.log.map((r) => r.thread))
      expect(threads).toEqual(new Set(['main', 'worker']))
      // The preflight's token call in the main thread; the checks' calls as the session's own callers in the worker.
      expect(run.log.find((r) => r.thread === 'main' && r.path === '/V1/integration/admin/token')?.body).toEqual({
        username: target.admin.username,
        password: '[password admin]',
      })
      const workerCallers = new Set(run.log.filter((r) => r.thread === 'worker').map((r) => r.caller))
      for (const caller of ['admin', 'customer', 'malformed', 'none']) expect(workerCallers).toContain(caller)
      expect(readFileSync(join(dir, 'requests.jsonl'), 'utf8')).not.toContain(target.admin.password)
      expect(run.stats.maxRssMb).toBeGreaterThan(0)
      expect(run.stats.firstRequestMs).toBeGreaterThan(0)
      expect(run.stats.lastRequestMs).toBeGreaterThan(run.stats.firstRequestMs!)
    } finally {
      await target.close()
    }
  })
})

test('the preload listens on the channel the shop publishes on', () => {
  expect(readFileSync(join(ROOT, 'lib/bench/preload.mjs'), 'utf8')).toContain(
    `const REQUEST_CHANNEL = '${REQUEST_CHANNEL}'`,
  )
})

test('a process without a TypeScript loader of its own (vitest started directly) still gets its log and stats', () => {
  const log = join(dir, 'plain.jsonl')
  const stats = join(dir, 'plain-stats.json')
  const script = [
    "import diagnostics_channel from 'node:diagnostics_channel'",
    `diagnostics_channel.channel('${REQUEST_CHANNEL}').publish({ spec: { method: 'GET', path: '/V1/x', store: 'default' }, outcome: { answer: { status: 200 } }, startMs: 1, endMs: 2, caller: 'none' })`,
    'await new Promise((r) => setTimeout(r, 1000))',
  ].join('\n')
  const env = { PATH: process.env.PATH ?? '', SHOP_REQUEST_LOG: log, SHOP_BENCH_STATS: stats }
  execFileSync(
    process.execPath,
    [`--import=${pathToFileURL(join(ROOT, 'lib/bench/preload.mjs')).href}`, '--input-type=module', '-e', script],
    { cwd: ROOT, env },
  )
  expect(readFileSync(log, 'utf8')).toBe(
    '{"startMs":1,"endMs":2,"thread":"main","method":"GET","path":"/V1/x","store":"default","caller":"none","status":200}\n',
  )
  expect(JSON.parse(readFileSync(stats, 'utf8'))).toMatchObject({ firstRequestMs: 1, lastRequestMs: 2 })
})
