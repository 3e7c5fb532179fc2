#!/usr/bin/env node
/**
 * The GitHub Action's logic (action.yml runs this one script; lib/package/action.test.ts runs it locally):
 * inputs → `shop-conformance run`, its output in the job log, summary.md appended to the job's summary, the
 * step's outputs, and the run's exit status as the step's own — so the job fails exactly when the run does.
 *
 * Credentials reach the suite as environment variables, never as arguments: a command line is printed here,
 * shown by `ps` to anyone on the runner, and kept in shell traces. Whatever it prints (the command line, the
 * suite's output, the summary, the annotation) passes redactorOf first: a URL's user info is shown by no line,
 * even one the suite prints before refusing it, nor is a credential input's value.
 * Plain JavaScript, no dependency: it runs before anything is installed when `version` names a published one.
 */
import { spawn } from 'node:child_process'
import { appendFileSync, existsSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { textWithoutUserInfo, userInfoOf, withoutUserInfo } from '../lib/settings/user-info.mjs'

/** The inputs this script reads, each as `INPUT_<NAME>` (upper case, `_` for `-`) from its step's env. */
export const SCRIPT_INPUTS = [
  'base-url',
  'store-code',
  'target-name',
  'target-version',
  'admin-username',
  'admin-password',
  'admin-token',
  'customer-username',
  'customer-password',
  'customer-token',
  'read-only',
  'baseline',
  'shard',
  'report-dir',
  'extra-args',
  'version',
]

/**
 * Where a credential input goes, and the target's name and version (free text, spaces included: never split as
 * extra-args are): the suite's own settings (README, "Running against a shop").
 */
const AS_SETTINGS = {
  'admin-username': 'SHOP_ADMIN_USERNAME',
  'admin-password': 'SHOP_ADMIN_PASSWORD',
  'admin-token': 'SHOP_ADMIN_TOKEN',
  'customer-username': 'SHOP_CUSTOMER_EMAIL',
  'customer-password': 'SHOP_CUSTOMER_PASSWORD',
  'customer-token': 'SHOP_CUSTOMER_TOKEN',
  'target-name': 'SHOP_TARGET_NAME',
  'target-version': 'SHOP_TARGET_VERSION',
}

/**
 * The inputs that are secrets: never printed (the usernames are not: the suite's reports name them too, and
 * hiding a name such as `admin` would blank that word in every line).
 */
export const SECRET_INPUTS = ['admin-password', 'admin-token', 'customer-password', 'customer-token']

/**
 * What hides, in a text the action prints, the secret inputs' values, the base URL's user and password (also
 * when the base URL is no URL) and any URL's user info.
 */
export function redactorOf(env) {
  const input = (name) => (env[inputName(name)] ?? '').trim()
  const userInfo = userInfoOf(input('base-url')) ?? ''
  const secrets = [
    ...SECRET_INPUTS.map(input),
    userInfo,
    ...userInfo.split(':').flatMap((part) => [part, safeDecode(part)]),
  ]
    .filter((s) => s !== '')
    // The longest first: a secret that holds another is hidden whole.
    .sort((a, b) => b.length - a.length)
  return (text) => textWithoutUserInfo(secrets.reduce((shown, secret) => shown.split(secret).join('***'), text))
}

function safeDecode(part) {
  try {
    return decodeURIComponent(part)
  } catch {
    return part
  }
}

/** A mistake in the action's inputs: one line, exit status 2, as the suite says a bad setting. */
export class InputError extends Error {}

export function inputName(input) {
  return `INPUT_${input.toUpperCase().replace(/-/g, '_')}`
}

/**
 * What to start, from the inputs in `env`: the command and its arguments, the suite's environment, the report
 * directory and the artifact's name (the shard in both, so a matrix's shards never overwrite each other).
 */
export function planRun(env) {
  const input = (name) => (env[inputName(name)] ?? '').trim()
  const args = ['run']
  if (input('base-url') !== '') args.push('--base-url', input('base-url'))
  if (input('store-code') !== '') args.push('--store', input('store-code'))
  const readOnly = input('read-only')
  if (!['', 'true', 'false'].includes(readOnly))
    throw new InputError(`read-only: "${readOnly}" is neither true nor false`)
  if (readOnly === 'true') args.push('--read-only')
  if (input('baseline') !== '') args.push('--baseline', input('baseline'))
  const extra = input('extra-args')
  if (/["'\\]/.test(extra))
    throw new InputError(
      'extra-args: quotes and backslashes are not interpreted (the flags are split at spaces); give each value without them',
    )
  const extraArgs = extra === '' ? [] : extra.split(/\s+/)
  const shard = input('shard')
  // Shards are merged only when they share a seed: the workflow run's id is shared by all its jobs (and kept on a
  // re-run).
  const seeded = extraArgs.some((a) => a === '--seed' || a.startsWith('--seed=')) || (env.SHOP_SEED ?? '') !== ''
  const suffix = shard === '' ? '' : `-shard-${shard.replace(/\//g, '-of-')}`
  if (shard !== '')
    args.push('--shard', shard, ...(seeded || env.GITHUB_RUN_ID === undefined ? [] : ['--seed', env.GITHUB_RUN_ID]))
  // Absolute, as the upload steps need it; relative to where the suite runs, as the suite reads it.
  const reportDir = resolve(input('report-dir') !== '' ? input('report-dir') : `shop-conformance-report${suffix}`)
  args.push('--report-dir', reportDir, ...extraArgs)

  const suiteEnv = { ...env, CI: 'true' }
  // The inputs stay with this script: the suite gets its own settings, and no copy of a password more.
  for (const name of SCRIPT_INPUTS) delete suiteEnv[inputName(name)]
  for (const [name, variable] of Object.entries(AS_SETTINGS))
    if (input(name) !== '') suiteEnv[variable] = env[inputName(name)]
  const version = input('version')
  const actionPath = env.GITHUB_ACTION_PATH ?? join(dirname(fileURLToPath(import.meta.url)), '..')
  const [command, prefix] =
    version === ''
      ? [process.execPath, [join(actionPath, 'lib/cli/bin.mjs')]]
      : ['npx', ['--yes', `shop-conformance@${version}`]]
  return { command, prefix, args, env: suiteEnv, reportDir, artifactName: `shop-conformance-report${suffix}` }
}

/**
 * Runs the suite with its stdout and stderr in the job log, each line redacted; resolves to its exit status
 * and its last line on stderr.
 */
function runSuite(plan, redact) {
  return new Promise((done) => {
    const child = spawn(plan.command, [...plan.prefix, ...plan.args], {
      env: plan.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let tail = ''
    const stdout = redactedLines(child.stdout, redact, (text) => process.stdout.write(text))
    const stderr = redactedLines(child.stderr, redact, (text) => {
      process.stderr.write(text)
      tail = (tail + text).slice(-4096)
    })
    const lastLine = () =>
      tail
        .split('\n')
        .filter((l) => l.trim() !== '')
        .at(-1) ?? ''
    child.on('error', (err) => done({ status: 2, lastLine: redact(`cannot start ${plan.command}: ${err.message}`) }))
    child.on('close', (code, signal) => {
      stdout.flush()
      stderr.flush()
      // A signal is said as a shell says it: 128 + its number (SIGTERM 143), never as a pass.
      done({ status: code ?? 128 + (signal === 'SIGINT' ? 2 : signal === 'SIGKILL' ? 9 : 15), lastLine: lastLine() })
    })
  })
}

/** A stream passed on line by line through `redact`: a secret split across two chunks is still one line. */
function redactedLines(stream, redact, write) {
  let partial = ''
  stream.setEncoding('utf8')
  stream.on('data', (chunk) => {
    const end = (partial + chunk).lastIndexOf('\n') + 1
    const text = partial + chunk
    partial = text.slice(end)
    if (end > 0) write(redact(text.slice(0, end)))
  })
  return {
    flush() {
      if (partial !== '') write(redact(partial))
      partial = ''
    },
  }
}

/** A file of this run (not one a reused directory kept from an earlier run), or undefined. */
function freshFile(path, since) {
  return existsSync(path) && statSync(path).mtimeMs >= since ? path : undefined
}

export async function main(env = process.env) {
  let plan
  try {
    plan = planRun(env)
  } catch (err) {
    if (!(err instanceof InputError)) throw err
    return finish(
      env,
      { status: 2, lastLine: `shop-conformance action: ${err.message}`, reportDir: '', artifactName: '' },
      true,
      redactorOf(env),
    )
  }
  // Seconds are enough: the check is only against files older than this run.
  const started = Math.floor(Date.now() / 1000) * 1000
  const redact = redactorOf(env)
  const shownArgs = plan.args.map((a, i) => (plan.args[i - 1] === '--base-url' ? withoutUserInfo(a) : a))
  console.log(
    redact(
      `shop-conformance ${shownArgs.map((a) => (/^[\w./:=@,+\[\]-]+$/.test(a) ? a : JSON.stringify(a))).join(' ')}`,
    ),
  )
  const { status, lastLine } = await runSuite(plan, redact)
  return finish(
    env,
    { status, lastLine, reportDir: plan.reportDir, artifactName: plan.artifactName, started },
    false,
    redact,
  )
}

/**
 * The job page's annotation of an exit 2: the run's reason as its report states it (a target gone mid-run is "the run
 * was cut short: …", where the log's last line is the report's path), else the one line it printed (a refusal).
 */
export function exitAnnotation(status, lastLine, report) {
  if (status !== 2) return undefined
  const line = typeof report?.exit?.reason === 'string' ? `exit 2: ${report.exit.reason}` : lastLine
  return `::error title=shop-conformance: exit 2::${line.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A')}`
}

function finish(env, { status, lastLine: unredacted, reportDir, artifactName, started = 0 }, lineNotShown, redact) {
  const lastLine = redact(unredacted)
  if (lineNotShown) console.error(lastLine)
  const report = reportDir === '' ? undefined : freshFile(join(reportDir, 'report.json'), started)
  // Also an annotation: the run's one-line refusal shown on the job's page, not only deep in its log.
  const annotation = exitAnnotation(
    status,
    lastLine,
    report !== undefined ? JSON.parse(readFileSync(report, 'utf8')) : undefined,
  )
  if (annotation !== undefined) console.log(redact(annotation))
  const summary = reportDir === '' ? undefined : freshFile(join(reportDir, 'summary.md'), started)
  const sarif = reportDir === '' ? undefined : freshFile(join(reportDir, 'report.sarif'), started)
  const verdict =
    report !== undefined ? (JSON.parse(readFileSync(report, 'utf8')).certification?.verdict ?? 'not run') : 'not run'
  if (env.GITHUB_STEP_SUMMARY) {
    appendFileSync(
      env.GITHUB_STEP_SUMMARY,
      summary !== undefined
        ? `${redact(readFileSync(summary, 'utf8').trimEnd())}\n\n`
        : `# Shop conformance: not run · exit ${status}\n\n${lastLine}\n\n`,
    )
  }
  if (env.GITHUB_OUTPUT) {
    const outputs = {
      'exit-status': status,
      verdict,
      'report-dir': reportDir,
      'artifact-name': artifactName,
      'sarif-file': sarif ?? '',
    }
    appendFileSync(
      env.GITHUB_OUTPUT,
      Object.entries(outputs)
        .map(([k, v]) => `${k}=${v}\n`)
        .join(''),
    )
  }
  return status
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main()
}
