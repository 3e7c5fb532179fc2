/**
 * The GitHub Action run locally: action/run.mjs as action.yml starts it (inputs as `INPUT_*`, a fake
 * `GITHUB_STEP_SUMMARY`, `GITHUB_OUTPUT` and workspace), against reference targets started here; and
 * action.yml read as GitHub reads it, so an input cannot be declared and then go nowhere.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { parseFaultSwitch, REFERENCE_ADMIN, startReferenceTarget, type ReferenceTarget } from '../../reference-target/index.ts'
import type { Report } from '../report/model.ts'
import { spawnInTest } from '../../test-setup/child-processes.ts'
// @ts-expect-error: plain JavaScript without types (it runs before anything is installed)
import { inputName, planRun, redactorOf, SCRIPT_INPUTS, SECRET_INPUTS } from '../../action/run.mjs'

const ROOT = resolve(import.meta.dirname, '../..')
const SCRIPT = join(ROOT, 'action/run.mjs')
const CUSTOMER = { email: 'action.customer@example.com', password: 'Action-Customer-Pw-31' }

interface ActionRun {
  status: number | null
  /** stdout and stderr as the job log shows them. */
  log: string
  summary: string
  outputs: Record<string, string>
  workspace: string
}

const workspaces: string[] = []
afterAll(() => {
  for (const dir of workspaces.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** Runs the action's script as its step does, in a workspace of its own whose job summary already holds a line. */
function runAction(inputs: Record<string, string>): Promise<ActionRun> {
  const workspace = mkdtempSync(join(tmpdir(), 'shop-conformance-action-'))
  workspaces.push(workspace)
  const summaryFile = join(workspace, 'step-summary.md')
  const outputFile = join(workspace, 'github-output')
  writeFileSync(summaryFile, 'an earlier step\n')
  writeFileSync(outputFile, '')
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: workspace,
    GITHUB_STEP_SUMMARY: summaryFile,
    GITHUB_OUTPUT: outputFile,
    GITHUB_ACTION_PATH: ROOT,
    GITHUB_WORKSPACE: workspace,
    GITHUB_RUN_ID: '4242',
    ...Object.fromEntries(Object.entries(inputs).map(([name, value]) => [inputName(name), value])),
  }
  return new Promise((done) => {
    const child = spawnInTest(process.execPath, [SCRIPT], { cwd: workspace, env })
    let log = ''
    child.stdout!.on('data', (d) => (log += d))
    child.stderr!.on('data', (d) => (log += d))
    child.on('close', (status) => {
      const outputs = Object.fromEntries(readFileSync(outputFile, 'utf8').split('\n').filter(Boolean).map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]))
      done({ status, log, summary: readFileSync(summaryFile, 'utf8'), outputs, workspace })
    })
  })
}

describe('the action script, run locally', () => {
  let clean: ReferenceTarget
  let broken: ReferenceTarget
  beforeAll(async () => {
    ;[clean, broken] = await Promise.all([startReferenceTarget(), startReferenceTarget({ faults: [parseFaultSwitch('anon-requires-token')] })])
    const registered = await fetch(`${clean.url}/rest/default/V1/customers`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ customer: { email: CUSTOMER.email, firstname: 'Action', lastname: 'Customer' }, password: CUSTOMER.password }),
    })
    expect(registered.status).toBe(200)
  })
  afterAll(async () => {
    await Promise.all([clean?.close(), broken?.close()])
  })
  const credentials = () => ({ 'admin-username': REFERENCE_ADMIN.username, 'admin-password': REFERENCE_ADMIN.password, 'customer-username': CUSTOMER.email, 'customer-password': CUSTOMER.password })

  it('runs the suite, appends summary.md to the job summary, sets the outputs, and never shows a password', { timeout: 120_000 }, async () => {
    const run = await runAction({ 'base-url': clean.url, ...credentials(), shard: '1/1', 'extra-args': '--module directory' })
    expect(run.status, run.log).toBe(0)
    const reportDir = join(run.workspace, 'shop-conformance-report-shard-1-of-1')
    const report = JSON.parse(readFileSync(join(reportDir, 'report.json'), 'utf8')) as Report
    // The shard's seed is the workflow run's, so the matrix's shards can be merged.
    expect(report.run).toMatchObject({ seed: 4242, shard: '1/1', modules: ['directory'] })
    expect(report.target.baseUrl).toBe(clean.url)
    expect(run.outputs).toEqual({
      'exit-status': '0',
      verdict: report.certification.verdict,
      'report-dir': reportDir,
      'artifact-name': 'shop-conformance-report-shard-1-of-1',
      'sarif-file': join(reportDir, 'report.sarif'),
    })
    expect(report.certification.verdict).toBe('partial')
    expect(run.summary).toBe(`an earlier step\n${readFileSync(join(reportDir, 'summary.md'), 'utf8').trimEnd()}\n\n`)
    // The configured customer was used (not one the suite registered; a customer of the run's own sends the writes,
    // which the user's account never does), and neither password shows anywhere.
    expect(report.created.map((c) => c.label).sort()).toEqual(['disposable customer', 'own customer'])
    expect(run.log).toContain('Exit 0: no check failed')
    for (const secret of [REFERENCE_ADMIN.password, CUSTOMER.password]) {
      expect(run.log.includes(secret) || run.summary.includes(secret), 'a password in the log or the summary').toBe(false)
    }
  })

  it("fails the step with the run's exit status when a check fails", { timeout: 120_000 }, async () => {
    const run = await runAction({ 'base-url': broken.url, 'admin-username': REFERENCE_ADMIN.username, 'admin-password': REFERENCE_ADMIN.password, 'extra-args': '--module directory --check access' })
    expect(run.status, run.log).toBe(1)
    expect(run.outputs).toMatchObject({ 'exit-status': '1', verdict: 'does not conform', 'artifact-name': 'shop-conformance-report' })
    expect(run.summary).toMatch(/^an earlier step\n# Shop conformance: does not conform · [\d.]+% · exit 1: 1 check failed\n/)
  })

  it('says a bad setting in one line of the log (and as an annotation), exits 2 and says "not run" in the summary', { timeout: 60_000 }, async () => {
    const run = await runAction({ 'base-url': 'not a url', 'admin-username': 'qa', 'admin-password': 'Never-Shown-Pw-5' })
    expect(run.status).toBe(2)
    const refusal = 'shop-conformance: --base-url / SHOP_BASE_URL: "not a url" is not a URL'
    expect(run.log.split('\n').filter((l) => l.includes('is not a URL'))).toEqual([refusal, `::error title=shop-conformance: exit 2::${refusal}`])
    expect(run.outputs).toMatchObject({ 'exit-status': '2', verdict: 'not run', 'sarif-file': '' })
    expect(run.summary).toBe(`an earlier step\n# Shop conformance: not run · exit 2\n\n${refusal}\n\n`)
    expect(run.log + run.summary).not.toContain('Never-Shown-Pw-5')
  })

  it("never prints a base URL's user and password, though the suite refuses them", { timeout: 60_000 }, async () => {
    const withUserInfo = clean.url.replace('://', '://url-user:Url-Pw-77@')
    const run = await runAction({ 'base-url': withUserInfo, 'admin-username': 'qa', 'admin-password': 'Never-Shown-Pw-6' })
    expect(run.status).toBe(2)
    const shown = run.log + run.summary + JSON.stringify(run.outputs)
    for (const secret of ['url-user', 'Url-Pw-77', 'Never-Shown-Pw-6']) expect(shown).not.toContain(secret)
    // The command line is still shown, with the user info replaced as the suite's own refusal replaces it.
    expect(run.log).toContain(`shop-conformance run --base-url ${clean.url.replace('://', '://[redacted]@')} --report-dir `)
  })

  it("refuses a bad input of the action's own in one line, before anything runs", { timeout: 60_000 }, async () => {
    const run = await runAction({ 'read-only': 'yes' })
    expect(run.status).toBe(2)
    expect(run.log).toBe('shop-conformance action: read-only: "yes" is neither true nor false\n::error title=shop-conformance: exit 2::shop-conformance action: read-only: "yes" is neither true nor false\n')
    expect(run.outputs).toMatchObject({ 'exit-status': '2', 'report-dir': '' })
  })
})

describe('what the action starts', () => {
  const env = (inputs: Record<string, string>) => Object.fromEntries(Object.entries(inputs).map(([name, value]) => [inputName(name), value]))

  it('passes credentials as the suite\'s environment, never as arguments, and the inputs not at all', () => {
    const plan = planRun(env({ 'base-url': 'https://shop.example', 'admin-username': 'qa', 'admin-password': 'Pw-1', 'customer-username': 'c@example.com', 'customer-password': 'Pw-2', 'read-only': 'true', baseline: 'known.json', 'store-code': 'eu', 'target-name': 'Acme Commerce', 'target-version': '3.1' }))
    expect(plan.args).toEqual(['run', '--base-url', 'https://shop.example', '--store', 'eu', '--read-only', '--baseline', 'known.json', '--report-dir', resolve('shop-conformance-report')])
    expect(plan.env).toMatchObject({ SHOP_ADMIN_USERNAME: 'qa', SHOP_ADMIN_PASSWORD: 'Pw-1', SHOP_CUSTOMER_EMAIL: 'c@example.com', SHOP_CUSTOMER_PASSWORD: 'Pw-2', CI: 'true' })
    // The target's name as one value, spaces and all: a setting, not split as extra-args are.
    expect(plan.env).toMatchObject({ SHOP_TARGET_NAME: 'Acme Commerce', SHOP_TARGET_VERSION: '3.1' })
    expect(Object.keys(plan.env).filter((k) => k.startsWith('INPUT_'))).toEqual([])
    // A shop with two-factor admin login: the tokens given instead, as secrets.
    const tokens = planRun(env({ 'base-url': 'https://shop.example', 'admin-token': 'Adm-T0ken', 'customer-token': 'Cust-T0ken' }))
    expect(tokens.env).toMatchObject({ SHOP_ADMIN_TOKEN: 'Adm-T0ken', SHOP_CUSTOMER_TOKEN: 'Cust-T0ken' })
    expect(redactorOf(env({ 'admin-token': 'Adm-T0ken', 'customer-token': 'Cust-T0ken' }))('Adm-T0ken Cust-T0ken')).toBe('*** ***')
  })

  it('hides every secret input and every URL\'s user info in what it prints, the suite\'s output included', () => {
    const redact = redactorOf(env({ 'base-url': 'bare-user:Bare%2DPw@shop.example', 'admin-username': 'qa-admin-7', 'admin-password': 'Admin-Pw-1', 'customer-username': 'c@example.com', 'customer-password': 'Cust-Pw-2' }))
    const printed = redact('Admin-Pw-1 Cust-Pw-2 Bare-Pw Bare%2DPw bare-user --target-schema=https://s-user:S-Pw@schema.example/x ftp://a@b qa-admin-7 c@example.com')
    expect(printed).toBe('*** *** *** *** *** --target-schema=https://[redacted]@schema.example/x ftp://[redacted]@b qa-admin-7 c@example.com')
    // No input, nothing to hide: text passes unchanged.
    expect(redactorOf({})('run --base-url https://shop.example')).toBe('run --base-url https://shop.example')
  })

  it('runs the action\'s own checkout, or the published version asked for', () => {
    expect(planRun({ GITHUB_ACTION_PATH: '/a' })).toMatchObject({ command: process.execPath, prefix: ['/a/lib/cli/bin.mjs'] })
    expect(planRun(env({ version: '0.2.0' }))).toMatchObject({ command: 'npx', prefix: ['--yes', 'shop-conformance@0.2.0'] })
  })

  it('keeps a seed given for the shards, and refuses quotes it would not interpret', () => {
    expect(planRun({ ...env({ shard: '2/3', 'extra-args': '--seed 7' }), GITHUB_RUN_ID: '99' }).args).toEqual(['run', '--shard', '2/3', '--report-dir', resolve('shop-conformance-report-shard-2-of-3'), '--seed', '7'])
    expect(planRun({ ...env({ shard: '2/3' }), GITHUB_RUN_ID: '99' }).args).toContain('99')
    expect(() => planRun(env({ 'extra-args': '--module "quote"' }))).toThrow(/^extra-args: quotes/)
  })
})

describe('action.yml', () => {
  const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as {
    inputs: Record<string, { description: string; default?: string }>
    outputs: Record<string, { value: string }>
    runs: { using: string; steps: { id?: string; if?: string; uses?: string; run?: string; with?: Record<string, string>; env?: Record<string, string> }[] }
  }
  const steps = action.runs.steps
  const runStep = steps.find((s) => s.id === 'run')!
  const inputs = Object.keys(action.inputs)

  it('is a composite action whose script gets exactly the inputs it reads, through the environment', () => {
    expect(action.runs.using).toBe('composite')
    expect(runStep.run).toBe('node "$GITHUB_ACTION_PATH/action/run.mjs"')
    expect(runStep.env).toEqual(Object.fromEntries(SCRIPT_INPUTS.map((name: string) => [inputName(name), `\${{ inputs.${name} }}`])))
    // No input is ever spliced into a shell command: its value could be a password or a `$(…)`.
    for (const step of steps) expect(step.run ?? '').not.toMatch(/\$\{\{/)
  })

  it('uses every input, and declares every one the script reads', () => {
    const elsewhere = JSON.stringify(steps.filter((s) => s !== runStep))
    for (const name of inputs) expect(SCRIPT_INPUTS.includes(name) || elsewhere.includes(`inputs.${name}`), `input ${name} goes nowhere`).toBe(true)
    for (const name of SCRIPT_INPUTS) expect(inputs).toContain(name)
  })

  it('uploads the reports and the SARIF after a failed run too, with the outputs the script writes', () => {
    const uploads = steps.filter((s) => /^(actions\/upload-artifact|github\/codeql-action\/upload-sarif)@/.test(s.uses ?? ''))
    expect(uploads.map((s) => s.uses)).toEqual(['actions/upload-artifact@v4', 'github/codeql-action/upload-sarif@v3'])
    for (const step of uploads) expect(step.if).toMatch(/^always\(\) && /)
    const written = ['exit-status', 'verdict', 'report-dir', 'artifact-name', 'sarif-file']
    const read = [...JSON.stringify(action).matchAll(/steps\.run\.outputs\.([\w-]+)/g)].map((m) => m[1]!)
    expect(read.filter((name) => !written.includes(name))).toEqual([])
  })

  it('says of each secret input that the action never prints it', () => {
    for (const name of SECRET_INPUTS as string[]) expect(action.inputs[name]?.description, name).toMatch(/A secret: the action never prints it/)
  })

  it('has every input documented in docs/ci.md', () => {
    const doc = readFileSync(join(ROOT, 'docs/ci.md'), 'utf8')
    const documented = [...doc.matchAll(/^\| `([a-z-]+)` \|/gm)].map((m) => m[1])
    expect(inputs.filter((name) => !documented.includes(name))).toEqual([])
  })
})
