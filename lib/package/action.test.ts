/**
 * The GitHub Action run locally: action/run.mjs as action.yml starts it (inputs as `INPUT_*`, a fake
 * `GITHUB_STEP_SUMMARY`, `GITHUB_OUTPUT` and workspace), against reference targets started here. What it starts
 * from its inputs, and action.yml read as GitHub reads it: action-inputs.test.ts.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  parseFaultSwitch,
  REFERENCE_ADMIN,
  startReferenceTarget,
  type ReferenceTarget,
} from '../../reference-target/index.ts'
import type { Report } from '../report/model.ts'
import { spawnInTest } from '../../test-setup/child-processes.ts'
import { inRunSlot } from '../cli/testing.ts'
// @ts-expect-error: plain JavaScript without types (it runs before anything is installed)
import { inputName } from '../../action/run.mjs'

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
  // The script starts a run: in a run slot, as the tests' other runs (lib/cli/testing.ts).
  return inRunSlot(
    () =>
      new Promise<ActionRun>((done) => {
        const child = spawnInTest(process.execPath, [SCRIPT], { cwd: workspace, env })
        let log = ''
        child.stdout!.on('data', (d) => (log += d))
        child.stderr!.on('data', (d) => (log += d))
        child.on('close', (status) => {
          const outputs = Object.fromEntries(
            readFileSync(outputFile, 'utf8')
              .split('\n')
              .filter(Boolean)
              .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
          )
          done({ status, log, summary: readFileSync(summaryFile, 'utf8'), outputs, workspace })
        })
      }),
  )
}

// Concurrent: each test's run is a child process of its own, waited for in a run slot.
describe.concurrent('the action script, run locally', () => {
  let clean: ReferenceTarget
  let broken: ReferenceTarget
  beforeAll(async () => {
    ;[clean, broken] = await Promise.all([
      startReferenceTarget(),
      startReferenceTarget({ faults: [parseFaultSwitch('anon-requires-token')] }),
    ])
    const registered = await fetch(`${clean.url}/rest/default/V1/customers`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({
        customer: { email: CUSTOMER.email, firstname: 'Action', lastname: 'Customer' },
        password: CUSTOMER.password,
      }),
    })
    expect(registered.status).toBe(200)
  })
  afterAll(async () => {
    await Promise.all([clean?.close(), broken?.close()])
  })
  const credentials = () => ({
    'admin-username': REFERENCE_ADMIN.username,
    'admin-password': REFERENCE_ADMIN.password,
    'customer-username': CUSTOMER.email,
    'customer-password': CUSTOMER.password,
  })

  it('runs the suite, appends summary.md to the job summary, sets the outputs, and never shows a password', {
    timeout: 120_000,
  }, async () => {
    const run = await runAction({
      'base-url': clean.url,
      ...credentials(),
      shard: '1/1',
      'extra-args': '--module directory',
    })
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
      expect(run.log.includes(secret) || run.summary.includes(secret), 'a password in the log or the summary').toBe(
        false,
      )
    }
  })

  it('passes the step of an empty shard (a slice of fewer suite files than shards), saying so, having made nothing on the shop', {
    timeout: 120_000,
  }, async () => {
    // Before issue 31 this job went red on vitest's own error, after the shard had signed in and registered customers.
    const run = await runAction({
      'base-url': clean.url,
      ...credentials(),
      shard: '2/3',
      'extra-args': '--module directory',
    })
    expect(run.status, run.log).toBe(0)
    const reportDir = join(run.workspace, 'shop-conformance-report-shard-2-of-3')
    const report = JSON.parse(readFileSync(join(reportDir, 'report.json'), 'utf8')) as Report
    expect(report.run).toMatchObject({ seed: 4242, shard: '2/3', emptyShard: { suiteFiles: 1 } })
    expect(report.created).toEqual([])
    expect(run.outputs).toMatchObject({
      'exit-status': '0',
      verdict: 'not run',
      'artifact-name': 'shop-conformance-report-shard-2-of-3',
    })
    expect(run.summary).toMatch(
      /^an earlier step\n# Shop conformance: not run · exit 0: empty shard: shard 2\/3 got none of the selection's 1 suite file /,
    )
  })

  it("fails the step with the run's exit status when a check fails", { timeout: 120_000 }, async () => {
    const run = await runAction({
      'base-url': broken.url,
      'admin-username': REFERENCE_ADMIN.username,
      'admin-password': REFERENCE_ADMIN.password,
      'extra-args': '--module directory --check access',
    })
    expect(run.status, run.log).toBe(1)
    expect(run.outputs).toMatchObject({
      'exit-status': '1',
      verdict: 'does not conform',
      'artifact-name': 'shop-conformance-report',
    })
    expect(run.summary).toMatch(
      /^an earlier step\n# Shop conformance: does not conform · [\d.]+% · exit 1: 1 check failed\n/,
    )
  })

  it('says a bad setting in one line of the log (and as an annotation), exits 2 and says "not run" in the summary', {
    timeout: 60_000,
  }, async () => {
    const run = await runAction({
      'base-url': 'not a url',
      'admin-username': 'qa',
      'admin-password': 'Never-Shown-Pw-5',
    })
    expect(run.status).toBe(2)
    const refusal = 'shop-conformance: --base-url / SHOP_BASE_URL: "not a url" is not a URL'
    expect(run.log.split('\n').filter((l) => l.includes('is not a URL'))).toEqual([
      refusal,
      `::error title=shop-conformance: exit 2::${refusal}`,
    ])
    expect(run.outputs).toMatchObject({ 'exit-status': '2', verdict: 'not run', 'sarif-file': '' })
    expect(run.summary).toBe(`an earlier step\n# Shop conformance: not run · exit 2\n\n${refusal}\n\n`)
    expect(run.log + run.summary).not.toContain('Never-Shown-Pw-5')
  })

  it("never prints a base URL's user and password, though the suite refuses them", { timeout: 60_000 }, async () => {
    const withUserInfo = clean.url.replace('://', '://url-user:Url-Pw-77@')
    const run = await runAction({
      'base-url': withUserInfo,
      'admin-username': 'qa',
      'admin-password': 'Never-Shown-Pw-6',
    })
    expect(run.status).toBe(2)
    const shown = run.log + run.summary + JSON.stringify(run.outputs)
    for (const secret of ['url-user', 'Url-Pw-77', 'Never-Shown-Pw-6']) expect(shown).not.toContain(secret)
    // The command line is still shown, with the user info replaced as the suite's own refusal replaces it.
    expect(run.log).toContain(
      `shop-conformance run --base-url ${clean.url.replace('://', '://[redacted]@')} --report-dir `,
    )
  })

  it("refuses a bad input of the action's own in one line, before anything runs", { timeout: 60_000 }, async () => {
    const run = await runAction({ 'read-only': 'yes' })
    expect(run.status).toBe(2)
    expect(run.log).toBe(
      'shop-conformance action: read-only: "yes" is neither true nor false\n::error title=shop-conformance: exit 2::shop-conformance action: read-only: "yes" is neither true nor false\n',
    )
    expect(run.outputs).toMatchObject({ 'exit-status': '2', 'report-dir': '' })
  })
})
