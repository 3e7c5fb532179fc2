/**
 * The GitHub Action's inputs: what action/run.mjs starts from them (planRun: credentials as the suite's
 * environment, secrets hidden, the checkout or version, shards' seeds), and action.yml read as GitHub reads it, so
 * an input cannot be declared and then go nowhere, nor go undocumented in docs/ci.md. Run locally: action.test.ts.
 */
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
// @ts-expect-error: plain JavaScript without types (it runs before anything is installed)
import { exitAnnotation, inputName, planRun, redactorOf, SCRIPT_INPUTS, SECRET_INPUTS } from '../../action/run.mjs'

const ROOT = resolve(import.meta.dirname, '../..')

describe('what the action starts', () => {
  const env = (inputs: Record<string, string>) =>
    Object.fromEntries(Object.entries(inputs).map(([name, value]) => [inputName(name), value]))

  it("passes credentials as the suite's environment, never as arguments, and the inputs not at all", () => {
    const plan = planRun(
      env({
        'base-url': 'https://shop.example',
        'admin-username': 'qa',
        'admin-password': 'Pw-1',
        'customer-username': 'c@example.com',
        'customer-password': 'Pw-2',
        'read-only': 'true',
        baseline: 'known.json',
        'store-code': 'eu',
        'target-name': 'Acme Commerce',
        'target-version': '3.1',
      }),
    )
    expect(plan.args).toEqual([
      'run',
      '--base-url',
      'https://shop.example',
      '--store',
      'eu',
      '--read-only',
      '--baseline',
      'known.json',
      '--report-dir',
      resolve('shop-conformance-report'),
    ])
    expect(plan.env).toMatchObject({
      SHOP_ADMIN_USERNAME: 'qa',
      SHOP_ADMIN_PASSWORD: 'Pw-1',
      SHOP_CUSTOMER_EMAIL: 'c@example.com',
      SHOP_CUSTOMER_PASSWORD: 'Pw-2',
      CI: 'true',
    })
    // The target's name as one value, spaces and all: a setting, not split as extra-args are.
    expect(plan.env).toMatchObject({ SHOP_TARGET_NAME: 'Acme Commerce', SHOP_TARGET_VERSION: '3.1' })
    expect(Object.keys(plan.env).filter((k) => k.startsWith('INPUT_'))).toEqual([])
    // A shop with two-factor admin login: the tokens given instead, as secrets.
    const tokens = planRun(
      env({ 'base-url': 'https://shop.example', 'admin-token': 'Adm-T0ken', 'customer-token': 'Cust-T0ken' }),
    )
    expect(tokens.env).toMatchObject({ SHOP_ADMIN_TOKEN: 'Adm-T0ken', SHOP_CUSTOMER_TOKEN: 'Cust-T0ken' })
    expect(
      redactorOf(env({ 'admin-token': 'Adm-T0ken', 'customer-token': 'Cust-T0ken' }))('Adm-T0ken Cust-T0ken'),
    ).toBe('*** ***')
  })

  // Issue 31.12: docs/ci.md says the settings without an input (the limited admin's) go in the step's `env:`.
  it("hands the step's own SHOP_ variables to the suite as they are: the limited admin, which has no input", () => {
    const limited = {
      SHOP_LIMITED_ADMIN_USERNAME: 'catalog-only',
      SHOP_LIMITED_ADMIN_PASSWORD: 'Ltd-Pw-1',
      SHOP_LIMITED_ADMIN_RESOURCES: 'Shop_Catalog::categories',
    }
    const plan = planRun({
      ...env({ 'base-url': 'https://shop.example', 'admin-username': 'qa', 'admin-password': 'Pw-1' }),
      ...limited,
    })
    expect(plan.env).toMatchObject(limited)
    expect(readFileSync(join(ROOT, 'docs/ci.md'), 'utf8')).toMatch(
      /\n {10}SHOP_LIMITED_ADMIN_USERNAME: \$\{\{ secrets\.SHOP_LIMITED_ADMIN_USERNAME \}\}\n/,
    )
  })

  it("hides every secret input and every URL's user info in what it prints, the suite's output included", () => {
    const redact = redactorOf(
      env({
        'base-url': 'bare-user:Bare%2DPw@shop.example',
        'admin-username': 'qa-admin-7',
        'admin-password': 'Admin-Pw-1',
        'customer-username': 'c@example.com',
        'customer-password': 'Cust-Pw-2',
      }),
    )
    const printed = redact(
      'Admin-Pw-1 Cust-Pw-2 Bare-Pw Bare%2DPw bare-user --target-schema=https://s-user:S-Pw@schema.example/x ftp://a@b qa-admin-7 c@example.com',
    )
    expect(printed).toBe(
      '*** *** *** *** *** --target-schema=https://[redacted]@schema.example/x ftp://[redacted]@b qa-admin-7 c@example.com',
    )
    // No input, nothing to hide: text passes unchanged.
    expect(redactorOf({})('run --base-url https://shop.example')).toBe('run --base-url https://shop.example')
  })

  it("runs the action's own checkout, or the published version asked for", () => {
    expect(planRun({ GITHUB_ACTION_PATH: '/a' })).toMatchObject({
      command: process.execPath,
      prefix: ['/a/lib/cli/bin.mjs'],
    })
    expect(planRun(env({ version: '0.2.0' }))).toMatchObject({
      command: 'npx',
      prefix: ['--yes', 'shop-conformance@0.2.0'],
    })
  })

  it('keeps a seed given for the shards, and refuses quotes it would not interpret', () => {
    expect(planRun({ ...env({ shard: '2/3', 'extra-args': '--seed 7' }), GITHUB_RUN_ID: '99' }).args).toEqual([
      'run',
      '--shard',
      '2/3',
      '--report-dir',
      resolve('shop-conformance-report-shard-2-of-3'),
      '--seed',
      '7',
    ])
    expect(planRun({ ...env({ shard: '2/3' }), GITHUB_RUN_ID: '99' }).args).toContain('99')
    expect(() => planRun(env({ 'extra-args': '--module "quote"' }))).toThrow(/^extra-args: quotes/)
  })
})

describe('action.yml', () => {
  const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as {
    inputs: Record<string, { description: string; default?: string }>
    outputs: Record<string, { value: string }>
    runs: {
      using: string
      steps: {
        id?: string
        if?: string
        uses?: string
        run?: string
        with?: Record<string, string>
        env?: Record<string, string>
      }[]
    }
  }
  const steps = action.runs.steps
  const runStep = steps.find((s) => s.id === 'run')!
  const inputs = Object.keys(action.inputs)

  it('is a composite action whose script gets exactly the inputs it reads, through the environment', () => {
    expect(action.runs.using).toBe('composite')
    expect(runStep.run).toBe('node "$GITHUB_ACTION_PATH/action/run.mjs"')
    expect(runStep.env).toEqual(
      Object.fromEntries(SCRIPT_INPUTS.map((name: string) => [inputName(name), `\${{ inputs.${name} }}`])),
    )
    // No input is ever spliced into a shell command: its value could be a password or a `$(…)`.
    for (const step of steps) expect(step.run ?? '').not.toMatch(/\$\{\{/)
  })

  it('uses every input, and declares every one the script reads', () => {
    const elsewhere = JSON.stringify(steps.filter((s) => s !== runStep))
    for (const name of inputs)
      expect(SCRIPT_INPUTS.includes(name) || elsewhere.includes(`inputs.${name}`), `input ${name} goes nowhere`).toBe(
        true,
      )
    for (const name of SCRIPT_INPUTS) expect(inputs).toContain(name)
  })

  it('uploads the reports and the SARIF after a failed run too, with the outputs the script writes', () => {
    const uploads = steps.filter((s) =>
      /^(actions\/upload-artifact|github\/codeql-action\/upload-sarif)@/.test(s.uses ?? ''),
    )
    expect(uploads.map((s) => s.uses)).toEqual(['actions/upload-artifact@v4', 'github/codeql-action/upload-sarif@v3'])
    for (const step of uploads) expect(step.if).toMatch(/^always\(\) && /)
    const written = ['exit-status', 'verdict', 'report-dir', 'artifact-name', 'sarif-file']
    const read = [...JSON.stringify(action).matchAll(/steps\.run\.outputs\.([\w-]+)/g)].map((m) => m[1]!)
    expect(read.filter((name) => !written.includes(name))).toEqual([])
  })

  it('says of each secret input that the action never prints it', () => {
    for (const name of SECRET_INPUTS as string[])
      expect(action.inputs[name]?.description, name).toMatch(/A secret: the action never prints it/)
  })

  it('has every input documented in docs/ci.md', () => {
    const doc = readFileSync(join(ROOT, 'docs/ci.md'), 'utf8')
    const documented = [...doc.matchAll(/^\| `([a-z-]+)` \|/gm)].map((m) => m[1])
    expect(inputs.filter((name) => !documented.includes(name))).toEqual([])
  })

  // Issue 31.4: a target gone mid-run exits 2 too; its annotation said the log's last line, the report's path.
  it('annotates an exit 2 with the reason its report states, else the line the run printed', () => {
    const gone = {
      exit: {
        status: 2,
        reason: 'the run was cut short: the target stopped answering at 12:00, after 412 requests: …',
      },
    }
    expect(exitAnnotation(2, 'Report: reports/report.json (also report.html, …)', gone)).toBe(
      '::error title=shop-conformance: exit 2::exit 2: the run was cut short: the target stopped answering at 12:00, after 412 requests: …',
    )
    expect(exitAnnotation(2, 'shop-conformance: --base-url: "x" is not a URL', undefined)).toBe(
      '::error title=shop-conformance: exit 2::shop-conformance: --base-url: "x" is not a URL',
    )
    expect(exitAnnotation(1, 'Exit 1: 3 checks failed', gone)).toBeUndefined()
  })
})
