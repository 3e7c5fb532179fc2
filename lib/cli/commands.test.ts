import { generateKeyPairSync } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { CHECK_KINDS, CHECKS } from '../checks/index.ts'
import { dryRunPlan } from './dry-run.ts'
import { PLAN, selectPlan } from '../plan/plan.ts'
import { readBaseline } from '../report/baseline.ts'
import type { Report } from '../report/model.ts'
import { headline } from '../report/certify.ts'
import { reportDigest } from '../report/sign.ts'
import { reportOf, reportOfStatuses, resultOf, writtenReport } from '../report/testing.ts'
import { CATALOG } from '../spec/catalog/index.ts'
import { MODULES } from '../spec/modules.ts'
import { UsageError } from '../base/usage-error.ts'
import { loadConfig } from '../settings/config.ts'
import { WORKFLOWS } from '../workflows/index.ts'
import { baselineCommand } from './baseline-commands.ts'
import {
  catalogListing,
  diffCommand,
  listCommand,
  signCommand,
  verifyCommand,
  type ListedEndpoint,
} from './commands.ts'
import { readReport, type CommandIo } from './command-io.ts'
import { endpointText } from '../spec/endpoint-id.ts'

const dir = mkdtempSync(join(tmpdir(), 'shop-conformance-commands-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function io(): CommandIo & { stdout: () => string } {
  let out = ''
  return { out: (t) => (out += t), err: (t) => (out += t), stdout: () => out }
}

const written = (name: string, r: Report): string => writtenReport(dir, name, r)

const good = written('good', reportOfStatuses('good', ['passed', 'passed', 'failed', 'skipped']))
const worse = written('worse', reportOfStatuses('worse', ['passed', 'failed', 'failed', 'skipped']))

function keys() {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519')
  const priv = join(dir, `k${Math.random().toString(36).slice(2)}.pem`)
  const pub = `${priv}.pub`
  writeFileSync(priv, privateKey.export({ type: 'pkcs8', format: 'pem' }))
  writeFileSync(pub, publicKey.export({ type: 'spki', format: 'pem' }))
  return { priv, pub }
}

describe('shop-conformance list', () => {
  const listing = catalogListing()

  it('every catalog endpoint has an applicable check, or a written reason why not', () => {
    expect(listing).toHaveLength(CATALOG.length)
    const unchecked = listing.filter((e) => e.checks.length === 0 && e.workflows.length === 0)
    for (const e of unchecked) expect(e.reason, endpointText(e)).toMatch(/\S{3}/)
    for (const e of listing) {
      expect(e.checks.length + e.notApplicable.length, endpointText(e)).toBe(CHECKS.length)
      for (const n of e.notApplicable) expect(n.reason.trim(), `${endpointText(e)} › ${n.check}`).not.toBe('')
    }
  })

  it('lists the workflow steps at the endpoints they exercise', () => {
    const at = (id: string): ListedEndpoint => listing.find((e) => endpointText(e) === id)!
    const w = WORKFLOWS.find((x) => x.name === 'attribute-set')!
    expect(at(w.steps[0]!.endpoint!).workflows).toContain(`workflow attribute-set › 01 ${w.steps[0]!.title}`)
    const named = WORKFLOWS.flatMap((x) => x.steps.filter((s) => s.endpoint !== undefined).map((s) => s.endpoint!))
    // Every endpoint a step names is a catalog endpoint, and listed with the step.
    for (const e of named) expect(at(e)?.workflows.length, e).toBeGreaterThan(0)
  })

  it('counts the checks of the suite as the run and --dry-run do: one plan (lib/plan/)', async () => {
    const suite = PLAN.checks
    const listed = listing.flatMap((e) => [...e.checks, ...e.workflows])
    const onSetup = suite.filter((p) => p.kind === 'workflow' && p.endpoint === undefined)
    expect(listed.length + onSetup.length).toBe(suite.length)
    const t = io()
    await listCommand([], t)
    expect(t.stdout()).toContain(
      `${suite.length} checks: ${suite.length - suite.filter((p) => p.kind === 'workflow').length} endpoint checks on ${CATALOG.length} endpoints, `,
    )
    const quote = io()
    await listCommand(['--module', 'quote'], quote)
    expect(quote.stdout()).toContain(
      `${selectPlan(PLAN, { modules: ['quote'] }).checks.length} checks of the suite's ${suite.length}: `,
    )
    const dry = await dryRunPlan(loadConfig(['--module', 'quote'], {}, {}, CHECK_KINDS, []))
    expect(dry).toContain(
      `# partial: ${selectPlan(PLAN, { modules: ['quote'] }).checks.length} of ${suite.length} checks selected\n`,
    )
    expect(await dryRunPlan(loadConfig([], {}, {}, CHECK_KINDS, []))).toContain(
      `# the whole suite: ${suite.length} checks\n`,
    )
    // A --check slice too: list said 117 (the module's every kind) where the run and --dry-run count 31.
    const slice = selectPlan(PLAN, { modules: ['quote'], kinds: ['access'] }).checks
    expect(slice.length).toBe(31)
    const access = io()
    await listCommand(['--module', 'quote', '--check', 'access'], access)
    expect(access.stdout()).toContain(
      `\n${slice.length} checks of the suite's ${suite.length}: ${slice.length} endpoint checks on 31 endpoints, 0 workflow steps\n`,
    )
    expect(await dryRunPlan(loadConfig(['--module', 'quote', '--check', 'access'], {}, {}, CHECK_KINDS, []))).toContain(
      `# partial: ${slice.length} of ${suite.length} checks selected\n`,
    )
  })

  it('prints a table, or JSON, for all modules or one', async () => {
    const t = io()
    expect(await listCommand(['--module', 'directory'], t)).toBe(0)
    expect(t.stdout()).toMatch(
      /^directory — Directory \(3 endpoints\)\n {2}GET {4}\/V1\/directory\/countries +anon {3}route, store-code, access\n/,
    )
    expect(t.stdout()).toContain(
      'Checks not listed at an endpoint do not apply to it:\n  acl: the spec names no ACL resource for this endpoint',
    )
    expect(t.stdout()).toContain('\n  body-keys: not shown')
    const j = io()
    expect(await listCommand(['--format', 'json', '--module', 'Catalog: prices and costs'], j)).toBe(0)
    const rows = JSON.parse(j.stdout()) as ListedEndpoint[]
    expect(rows.length).toBe(CATALOG.filter((r) => r.module === 'catalog-prices').length)
    expect(rows.some((r) => r.checks.includes('batch-partial'))).toBe(true)
    const all = io()
    await listCommand([], all)
    for (const m of MODULES) expect(all.stdout()).toContain(`${m.id} — ${m.title}`)
  })

  it('selects check kinds as run --check does', async () => {
    const j = io()
    expect(await listCommand(['--format', 'json', '--check', 'access,workflow'], j)).toBe(0)
    const rows = JSON.parse(j.stdout()) as ListedEndpoint[]
    expect(rows).toHaveLength(CATALOG.length)
    for (const r of rows) expect([...r.checks, ...r.notApplicable.map((n) => n.check)]).toEqual(['access'])
    expect(rows.some((r) => r.workflows.length > 0)).toBe(true)
    const noWorkflows = catalogListing([], ['batch-partial'])
    expect(noWorkflows.every((r) => r.workflows.length === 0)).toBe(true)
    expect(noWorkflows.filter((r) => r.checks.length > 0).length).toBe(12)
  })

  it('refuses an unknown module or format', async () => {
    await expect(listCommand(['--module', 'nope'], io())).rejects.toThrow(
      /^list: --module: unknown module "nope" \(known: payment-partner-core, /,
    )
    await expect(listCommand(['--format', 'xml'], io())).rejects.toThrow(
      new UsageError('list: --format must be table or json, not "xml"'),
    )
    await expect(listCommand(['--frob'], io())).rejects.toThrow(new UsageError("list: Unknown option '--frob'"))
    await expect(listCommand(['--check', 'nope'], io())).rejects.toThrow(
      /^list: --check: unknown check "nope" \(known: route, /,
    )
    await expect(listCommand(['--module', ''], io())).rejects.toThrow(/^list: --module: names nothing/)
  })
})

describe('shop-conformance baseline', () => {
  it("writes a baseline of the report's failures", async () => {
    const out = join(dir, 'baselines', 'b.json')
    const t = io()
    expect(await baselineCommand(['--from', worse, '--out', out], t)).toBe(0)
    expect(t.stdout()).toBe(`baseline ${out}: 2 failures of ${worse} listed\n`)
    const b = readBaseline(out)
    expect(b.entries.map((e) => e.id)).toEqual(
      readReport(worse)
        .results.filter((r) => r.status === 'failed')
        .map((r) => r.id),
    )
    expect(b.entries[0]!.reason).toMatch(/^failed 1 \(baselined \d{4}-\d\d-\d\d\)$/)
    // A report directory works as well as its report.json; --reason replaces the message.
    expect(await baselineCommand(['--from', join(dir, 'worse'), '--out', out, '--reason', 'SHOP-7'], io())).toBe(0)
    expect(readBaseline(out).entries[0]!.reason).toMatch(/^SHOP-7 \(baselined /)
  })

  it('refuses unusable input in one line', async () => {
    await expect(baselineCommand(['--out', 'x'], io())).rejects.toThrow(
      new UsageError('baseline: --from REPORT is required'),
    )
    await expect(baselineCommand(['--from', good], io())).rejects.toThrow(
      new UsageError('baseline: --out FILE is required'),
    )
    await expect(baselineCommand(['--from', join(dir, 'none.json'), '--out', 'x'], io())).rejects.toThrow(
      new UsageError(`report ${join(dir, 'none.json')}: cannot read it (ENOENT)`),
    )
    const notReport = join(dir, 'not-report.json')
    writeFileSync(notReport, '{"version":1,"entries":[]}')
    await expect(baselineCommand(['--from', notReport, '--out', 'x'], io())).rejects.toThrow(
      new UsageError(`report ${notReport}: not a shop-conformance report (no "results" list)`),
    )
    const notJson = join(dir, 'not-json.json')
    writeFileSync(notJson, '<html>')
    await expect(baselineCommand(['--from', notJson, '--out', 'x'], io())).rejects.toThrow(
      /^report .*not-json\.json: not JSON \(/,
    )
  })
})

/** The report of a run that never started: the target was unreachable (exit 2, no result). */
const neverStarted = written(
  'never',
  reportOf(
    [],
    { run: { id: 'never' }, runErrors: ['target unreachable: admin token request to http://127.0.0.1:9 failed'] },
    { made: false },
  ),
)

describe('a report of a run that never started', () => {
  const why =
    'it is the report of a run that never started (exit 2: the run could not be made: target unreachable: admin token request to http://127.0.0.1:9 failed)'
  it('is no baseline: it has no failure because nothing was judged', async () => {
    await expect(
      baselineCommand(['--from', neverStarted, '--out', join(dir, 'never-baseline.json')], io()),
    ).rejects.toThrow(new UsageError(`baseline: ${neverStarted}: ${why}; baseline the report of a run that was made`))
  })
  it('is not signed: it states nothing about the target', async () => {
    await expect(
      signCommand(['--report', neverStarted, '--key', keys().priv, '--allow-partial'], io()),
    ).rejects.toThrow(new UsageError(`sign: ${neverStarted}: ${why}; it states nothing about the target to sign`))
  })
})

describe('shop-conformance sign / verify', () => {
  it('signs REPORT into REPORT.sig; verify passes untouched, fails changed', async () => {
    const { priv, pub } = keys()
    const path = written('signed', reportOfStatuses('signed', ['passed', 'failed']))
    const t = io()
    expect(await signCommand(['--report', path, '--key', priv], t)).toBe(0)
    const sig = JSON.parse(readFileSync(`${path}.sig`, 'utf8')) as Record<string, string>
    expect(Object.keys(sig).sort()).toEqual(['algorithm', 'digest', 'publicKey', 'signature', 'signedAt', 'statement'])
    const statement = `${readReport(path).target.baseUrl}: ${headline(readReport(path).certification)}`
    expect(sig).toMatchObject({
      algorithm: 'Ed25519',
      digest: reportDigest(readReport(path)),
      publicKey: readFileSync(pub, 'utf8'),
      statement,
    })
    // The target first (issue 23: what it runs, when the report names it, at its URL), then the verdict.
    expect(statement).toMatch(/^http:\/\/127\.0\.0\.1:1: does not conform · [\d.]+% of \d+ required checks passed$/)
    expect(t.stdout()).toBe(`signed ${path}: sha256 ${sig.digest} → ${path}.sig; it states: ${statement}\n`)

    const v = io()
    expect(await verifyCommand(['--report', path, '--pub', pub], v)).toBe(0)
    expect(v.stdout()).toMatch(
      /: signature valid \(Ed25519, sha256 [0-9a-f]{64}, signed \d{4}-.*\); it states: http:\/\/127\.0\.0\.1:1: does not conform · /,
    )
    // Re-indenting the file changes no value: still valid.
    writeFileSync(path, JSON.stringify(readReport(path)))
    expect(await verifyCommand(['--report', join(dir, 'signed'), '--pub', pub, '--sig', `${path}.sig`], io())).toBe(0)

    const r = readReport(path)
    r.results[1]!.status = 'passed'
    writeFileSync(path, JSON.stringify(r, null, 2))
    const changed = io()
    expect(await verifyCommand(['--report', path, '--pub', pub], changed)).toBe(1)
    expect(changed.stdout()).toMatch(
      /^verify .*: report changed since it was signed \(digest [0-9a-f]{64}, signed [0-9a-f]{64}\)\n$/,
    )

    const other = keys()
    expect(await signCommand(['--report', path, '--key', priv, '--out', join(dir, 'other.sig')], io())).toBe(0)
    const wrongKey = io()
    expect(await verifyCommand(['--report', path, '--pub', other.pub, '--sig', join(dir, 'other.sig')], wrongKey)).toBe(
      1,
    )
    expect(wrongKey.stdout()).toContain('signature does not verify with the given public key (signed with another key)')
  })

  it('refuses unusable inputs in one line', async () => {
    const { priv, pub } = keys()
    const path = written('unsigned', reportOfStatuses('unsigned', ['passed']))
    await expect(signCommand(['--report', path], io())).rejects.toThrow(
      new UsageError('sign: --key PRIVATE.pem is required'),
    )
    await expect(signCommand(['--report', path, '--key', pub], io())).rejects.toThrow(/^key .*\.pub: not a private key/)
    await expect(signCommand(['--report', path, '--key', join(dir, 'missing.pem')], io())).rejects.toThrow(
      /^key .*missing\.pem: cannot read it \(ENOENT\)$/,
    )
    await expect(verifyCommand(['--report', path, '--pub', pub], io())).rejects.toThrow(
      new UsageError(`signature ${path}.sig: cannot read it (ENOENT)`),
    )
    await expect(verifyCommand(['--report', path], io())).rejects.toThrow(
      new UsageError('verify: --pub PUBLIC.pem is required'),
    )
    writeFileSync(`${path}.sig`, '{"algorithm":"Ed25519"}')
    await expect(verifyCommand(['--report', path, '--pub', pub], io())).rejects.toThrow(
      new UsageError(`signature ${path}.sig: "digest" is not a SHA-256 hex digest`),
    )
    await expect(verifyCommand(['--report', path, '--pub', join(dir, 'nope.pem')], io())).rejects.toThrow(
      /^public key .*nope\.pem: cannot read it/,
    )
    expect(await signCommand(['--report', path, '--key', priv], io())).toBe(0)
  })

  it('refuses to sign a partial report unless told it is meant, and then says so in the signature', async () => {
    const { priv, pub } = keys()
    const slice = reportOf([resultOf(CATALOG.find((r) => r.module === 'directory')!, 'passed', 'ok')], {
      run: { id: 'slice', modules: ['directory'] },
    })
    const path = written('slice', slice)
    await expect(signCommand(['--report', path, '--key', priv], io())).rejects.toThrow(
      new UsageError(
        `sign: ${path} is ${slice.certification.scope.text}; a signature reads as a statement on the whole suite: pass --allow-partial to sign it as partial`,
      ),
    )
    expect(await signCommand(['--report', path, '--key', priv, '--allow-partial'], io())).toBe(0)
    const sig = JSON.parse(readFileSync(`${path}.sig`, 'utf8')) as { statement: string }
    expect(sig.statement).toContain(
      `partial: 9 of ${slice.certification.scope.suite} checks selected (--module directory)`,
    )
    const v = io()
    expect(await verifyCommand(['--report', path, '--pub', pub], v)).toBe(0)
    expect(v.stdout()).toContain('; it states: ')
    expect(v.stdout()).toContain('partial: 9 of')
  })
})

describe('shop-conformance diff', () => {
  it('exits 1 when something newly fails, 0 otherwise', async () => {
    const t = io()
    expect(await diffCommand([good, worse], t)).toBe(1)
    expect(t.stdout()).toContain('1 newly failing, 0 newly passing')
    expect(t.stdout()).toContain(
      `Newly failing:\n  ✗ ${CATALOG[1]!.method} ${CATALOG[1]!.path} › route (was passed) — failed 1`,
    )
    const back = io()
    expect(await diffCommand([join(dir, 'worse'), join(dir, 'good'), '--format', 'json'], back)).toBe(0)
    const d = JSON.parse(back.stdout()) as { newlyPassing: { id: string }[]; newlyFailing: unknown[] }
    expect(d.newlyFailing).toEqual([])
    expect(d.newlyPassing.map((e) => e.id)).toEqual([`${CATALOG[1]!.method} ${CATALOG[1]!.path} › route`])
  })

  it('refuses unusable input', async () => {
    await expect(diffCommand([good], io())).rejects.toThrow(
      new UsageError('diff: two reports expected (diff A.json B.json), got 1'),
    )
    await expect(diffCommand([good, worse, '--format', 'html'], io())).rejects.toThrow(
      new UsageError('diff: --format must be text or json, not "html"'),
    )
  })
})
