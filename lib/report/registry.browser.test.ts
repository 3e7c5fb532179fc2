/**
 * A registry of two certified implementations (issue 32.3): the bundled reference target clean (the run cli.test.ts
 * shares) and with the admin-open fault (a whole run, named as another implementation), each certified with its own
 * key from `keygen`, added with `registry add`, checked with `registry verify`; a package of a listed implementation
 * signed by another key is refused; then index.html in a real browser (the Chromium of test-setup/chromium.ts): each
 * implementation's verdict, its links to a package and a rendered report that exist, no console error.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { chromium, type BrowserContext, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { startReferenceTarget, type ReferenceTarget } from '../../reference-target/index.ts'
import { limitedAdminEnv } from '../checks/testing.ts'
import { cli, sharedCli } from '../cli/testing.ts'
import { SUITE } from '../spec/version.ts'
import { registryProblems, type Registry } from './registry.ts'

const CHROMIUM = inject('chromium')
const FAULTY = 'reference target: admin-open'

describe('a registry of certified implementations', () => {
  const dir = mkdtempSync(join(tmpdir(), 'shop-registry-'))
  const registry = join(dir, 'registry')
  let target: ReferenceTarget
  let context: BrowserContext
  let page: Page
  let outputs: {
    add: string[]
    verify: string
    refused: string
    refusedStatus: number | null
    verifyStatus: number | null
  }
  const errors: string[] = []

  beforeAll(async () => {
    target = await startReferenceTarget({ faults: [{ name: 'admin-open' }] })
    const faulty = cli(['run', '--base-url', target.url, '--target-name', FAULTY, '--target-version', SUITE.version], {
      SHOP_ADMIN_USERNAME: target.admin.username,
      SHOP_ADMIN_PASSWORD: target.admin.password,
      ...limitedAdminEnv(target),
    })
    const [clean, fault] = await Promise.all([sharedCli(['run']), faulty])
    expect(fault.report!.certification.verdict).toBe('does not conform')
    for (const k of ['a', 'b']) expect((await cli(['keygen', '--out', join(dir, k)])).status).toBe(0)
    const certify = async (run: typeof clean, key: string, out: string) => {
      const made = await cli([
        'certify',
        '--report',
        join(run.dir, 'reports'),
        '--key',
        join(dir, key, 'private.pem'),
        '--out',
        join(dir, out),
      ])
      expect(made.status, made.stderr).toBe(0)
    }
    await certify(clean, 'a', 'clean.tar.gz')
    await certify(fault, 'b', 'fault.tar.gz')
    // The faulty implementation's run packed again with the clean one's key: another signer for a listed name.
    await certify(fault, 'a', 'fault-other-key.tar.gz')
    const add: string[] = []
    for (const p of ['clean.tar.gz', 'fault.tar.gz']) {
      const added = await cli(['registry', 'add', join(dir, p), '--registry', registry])
      expect(added.status, added.stdout + added.stderr).toBe(0)
      add.push(added.stdout)
    }
    const refused = await cli(['registry', 'add', join(dir, 'fault-other-key.tar.gz'), '--registry', registry])
    const verified = await cli(['registry', 'verify', registry])
    outputs = {
      add,
      verify: verified.stdout,
      verifyStatus: verified.status,
      refused: refused.stdout,
      refusedStatus: refused.status,
    }

    context = await chromium.launchPersistentContext(join(dir, 'profile'), {
      executablePath: CHROMIUM.executablePath,
      env: { ...process.env, ...CHROMIUM.env },
      args: [
        '--no-sandbox',
        '--headless',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
      viewport: { width: 1400, height: 1000 },
    })
    page = context.pages()[0] ?? (await context.newPage())
    page.on(
      'console',
      (m) =>
        void (m.type() === 'error' || m.type() === 'warning' ? errors.push(`${m.type()}: ${m.text()}`) : undefined),
    )
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`))
    await page.goto(pathToFileURL(join(registry, 'index.html')).href)
  }, 600_000)

  afterAll(async () => {
    await context?.close()
    await target?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('lists both implementations in registry.json, valid against its schema, each signed for by its own key', () => {
    const data = JSON.parse(readFileSync(join(registry, 'registry.json'), 'utf8')) as Registry
    expect(registryProblems(data)).toEqual([])
    expect(
      data.implementations.map((i) => [i.name, i.certifications.map((c) => [c.version, c.suite.version, c.verdict])]),
    ).toEqual([
      [FAULTY, [[SUITE.version, SUITE.version, 'does not conform']]],
      ['shop-conformance reference target', [[SUITE.version, SUITE.version, 'conforms']]],
    ])
    const keyOf = (k: string) => readFileSync(join(dir, k, 'key-id'), 'utf8').trim()
    expect(data.signers).toEqual({ [FAULTY]: [keyOf('b')], 'shop-conformance reference target': [keyOf('a')] })
    for (const k of ['a', 'b']) expect(existsSync(join(registry, 'keys', `${keyOf(k)}.pem`))).toBe(true)
    for (const c of data.implementations.flatMap((i) => i.certifications)) {
      expect(existsSync(join(registry, c.package.file)), c.package.file).toBe(true)
      expect(existsSync(join(registry, c.report)), c.report).toBe(true)
    }
    expect(outputs.add[1]).toMatch(
      new RegExp(
        `^registry add: ${FAULTY} \\S+ does not conform \\(suite \\S+\\) → .*; key ${keyOf('b')} now signs for ${FAULTY}\\n$`,
      ),
    )
  })

  it('refuses a package of a listed implementation signed by another key; registry verify holds for every package', async () => {
    expect(outputs.refusedStatus).toBe(1)
    expect(outputs.refused).toMatch(
      new RegExp(
        `^registry add: refused .*fault-other-key\\.tar\\.gz: ${FAULTY} is signed for by key [0-9a-f]{64}; this package by [0-9a-f]{64}\\n$`,
      ),
    )
    // verify --registry trusts a key for the implementations the registry lists it for only.
    const trusted = await cli(['verify', '--package', join(dir, 'fault.tar.gz'), '--registry', registry])
    expect(trusted.status, trusted.stdout).toBe(0)
    const otherKey = await cli(['verify', '--package', join(dir, 'fault-other-key.tar.gz'), '--registry', registry])
    expect(otherKey.status).toBe(1)
    expect(otherKey.stdout).toMatch(
      /^✗ signature failed: key [0-9a-f]{64} is not among the keys registry .* lists for the package's implementation$/m,
    )
    expect(outputs.verifyStatus).toBe(0)
    expect(outputs.verify).toMatch(
      /^✓ reference target: admin-open \S+ \(suite \S+, run \S+\): does not conform\n✓ shop-conformance reference target \S+ \(suite \S+, run \S+\): conforms\nregistry verify .*: all 2 packages hold\n$/,
    )
  })

  it("index.html shows each implementation's verdict under its suite version, linking its package and report; no console error", async () => {
    const rows = await page.$$eval('#registry tbody tr', (trs) =>
      trs.map((tr) => [
        tr.querySelector('.colname')?.textContent,
        tr.querySelector('.ctext')?.textContent,
        tr.querySelector('.cpct')?.textContent,
      ]),
    )
    expect(rows).toEqual([
      [FAULTY, 'does not conform', expect.stringMatching(/^\d+(\.\d+)?%$/)],
      ['shop-conformance reference target', 'conforms', '100%'],
    ])
    expect(await page.$$eval('#registry thead th.col', (ths) => ths.map((th) => th.textContent))).toEqual([
      `suite ${SUITE.version}`,
    ])
    const links = await page.$$eval('#registry a', (as) =>
      as.map((a) => [a.textContent, (a as unknown as { href: string }).href]),
    )
    expect(links.map((l) => l[0])).toEqual(['package', 'report', 'package', 'report'])
    for (const [, href] of links) expect(existsSync(new URL(href)), href).toBe(true)
    // A rendered report opens from its link, as report.html does.
    await page.click('#registry tbody tr:last-child a:text("report")')
    await page.waitForSelector('html[data-ready="true"]', { timeout: 30_000 })
    expect(await page.title()).toMatch(/^Shop conformance: conforms \(100%\)/)
    expect(errors).toEqual([])
  })
})
