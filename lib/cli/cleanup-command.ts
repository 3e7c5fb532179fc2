/**
 * `cleanup --ledger FILE`: removes what a run left on the shop when it ended without its own cleanup (a `kill -9`,
 * a machine that went down) — by its ledger, with the rules of a run's cleanup (lib/setup/cleanup.ts): only what the
 * ledger names as made and what carries the run's mark is touched, each removal and each leftover is named.
 * It signs in as the admin the way `run` does (SHOP_ADMIN_USERNAME and SHOP_ADMIN_PASSWORD, or SHOP_ADMIN_TOKEN).
 */
import { existsSync } from 'node:fs'
import { basename, dirname } from 'node:path'
import { UsageError } from '../base/usage-error.ts'
import { lockReportDir, type ReportDirLock } from '../run/report-dir-lock.ts'
import { LEDGER_FILE } from '../run/stale-ledger.ts'
import { isGivenToken, loadConfig, readDotenv, type RunConfig } from '../settings/config.ts'
import type { SignIn } from '../settings/run-config.ts'
import { cleanUp, type CleanupOutcome } from '../setup/cleanup.ts'
import { Ledger, ledgerEntities, ledgerHead, ledgerRunId } from '../setup/ledger.ts'
import { TargetClient } from '../shop/client.ts'
import { rateShare } from '../shop/pace.ts'
import { Secrets } from '../shop/secrets.ts'
import { requestToken, TokenError } from '../shop/tokens.ts'
import { ACL_RESOURCES } from '../spec/catalog/index.ts'
import { args, required, type CommandIo } from './command-io.ts'

/** A ledger's head line (its run, store and shop), if it has one. */
type Head = ReturnType<typeof ledgerHead>

/**
 * The run's settings this command takes as flags (the rest — the admin — from the environment and `.env`, as `run`).
 */
const FLAGS = {
  ledger: { type: 'string' },
  'base-url': { type: 'string' },
  store: { type: 'string' },
  concurrency: { type: 'string' },
  'max-rps': { type: 'string' },
  'timeout-ms': { type: 'string' },
  'max-timeout-ms': { type: 'string' },
  insecure: { type: 'boolean' },
} as const

/**
 * 0: nothing of the run is left; 1: something is (or may be), each named; 2 (UsageError): the cleanup could not be
 * made.
 */
export async function cleanupCommand(
  argv: string[],
  io: CommandIo,
  where: { env: NodeJS.ProcessEnv; cwd: string },
): Promise<number> {
  const { values } = args('cleanup', argv, FLAGS)
  const { file, runId, head } = ledgerOf(required('cleanup', values.ledger, '--ledger FILE'))
  // The run's settings it takes, read as the run reads them (the admin from the environment and .env).
  const runFlags = Object.entries(values).flatMap(([flag, value]) => {
    if (flag === 'ledger') return []
    return value === true ? [`--${flag}`] : [`--${flag}`, String(value)]
  })
  const config = loadConfig(runFlags, where.env, readDotenv(where.cwd), [], ACL_RESOURCES)
  for (const warning of config.warnings) io.err(`shop-conformance: warning: ${warning}\n`)
  if (head !== undefined && head.baseUrl === undefined) {
    io.out(
      `cleanup: run ${runId} was against the bundled reference target, whose data ended with that run: nothing to remove\n`,
    )
    return 0
  }
  const baseUrl = shopOf(file, runId, head, config.baseUrl)
  if (config.admin === undefined) {
    throw new UsageError(
      'cleanup: SHOP_ADMIN_USERNAME and SHOP_ADMIN_PASSWORD (or SHOP_ADMIN_TOKEN) are required to remove what the run left',
    )
  }
  const lines = Ledger.read(file)
  if (!ledgerEntities(lines).some((e) => e.state !== 'refused')) {
    io.out(`cleanup: ${file} (run ${runId}) names nothing that may be on the shop: nothing to remove\n`)
    return 0
  }
  // A run's own ledger.jsonl while that run still writes it is its own to clean up: its directory's lock says so.
  let lock: ReportDirLock | undefined
  if (basename(file) === LEDGER_FILE)
    lock = lockReportDir(dirname(file), `cleanup: --ledger ${file}`, 'shop-conformance cleanup')
  const store = values.store ?? head?.store ?? config.storeCode
  const secrets = new Secrets()
  const client = clientFor(config, baseUrl, secrets)
  try {
    const token = await adminToken(client, secrets, config.admin, store)
    const outcome = await cleanUp(lines, client, token, store, { id: runId, ledger: new Ledger(file) })
    io.out(secrets.redactText(cleanupText(outcome, `cleanup of run ${runId} on ${baseUrl} (${file})`)))
    return outcome.leftovers.length === 0 ? 0 : 1
  } finally {
    await client.close()
    lock?.release()
  }
}

/** The ledger file named, with the run it is of and its head line; a file that names no run is refused. */
function ledgerOf(file: string): { file: string; runId: string; head: Head } {
  if (!existsSync(file)) throw new UsageError(`cleanup: --ledger ${file} does not exist`)
  const runId = ledgerRunId(file)
  const head = ledgerHead(file)
  if (runId === undefined) {
    throw new UsageError(
      `cleanup: --ledger ${file} names no run of shop-conformance (no head line, no run-marked entity)`,
    )
  }
  return { file, runId, head }
}

/**
 * The shop the run was on: the one its ledger names, which a base URL given must be; a ledger written before ledgers
 * named their shop needs it given.
 */
function shopOf(file: string, runId: string, head: Head, given: string | undefined): string {
  const baseUrl = given ?? head?.baseUrl
  if (baseUrl === undefined) {
    const why = `${file} (written before ledgers named their shop) does not say which shop run ${runId} was on`
    throw new UsageError(`cleanup: --base-url / SHOP_BASE_URL is required: ${why}`)
  }
  if (head?.baseUrl !== undefined && head.baseUrl !== baseUrl) {
    const elsewhere = `not on ${baseUrl} (--base-url / SHOP_BASE_URL)`
    throw new UsageError(
      `cleanup: ${file} is of run ${runId} on ${head.baseUrl}, ${elsewhere}: what a run made is removed on the shop it made it on`,
    )
  }
  return baseUrl
}

/** The client of the cleanup's calls, with the run's deadlines, concurrency and TLS. */
function clientFor(config: RunConfig, baseUrl: string, secrets: Secrets): TargetClient {
  // --max-rps caps its calls as a run's (one limiter in the client).
  const rate = rateShare(config.maxRps)
  return new TargetClient({
    baseUrl,
    timeoutMs: config.timeoutMs,
    maxTimeoutMs: config.maxTimeoutMs,
    concurrency: config.concurrency,
    ...(rate !== undefined ? { rate } : {}),
    secrets,
    insecure: config.insecure,
  })
}

/** The admin's token: the one given, or one the shop grants the credentials given (refused: a usage error). */
async function adminToken(client: TargetClient, secrets: Secrets, admin: SignIn, store: string): Promise<string> {
  if (isGivenToken(admin)) {
    secrets.add(admin.token, `admin token given as ${admin.setting}`)
    return admin.token
  }
  try {
    return await requestToken(client, secrets, 'admin', admin, store)
  } catch (err) {
    if (err instanceof TokenError) throw new UsageError(`cleanup: ${err.message}`)
    throw err
  }
}

/** What the cleanup did, after its heading: its counts, then each removal, each entity already gone, each leftover. */
function cleanupText(outcome: CleanupOutcome, heading: string): string {
  const gone = outcome.removed.filter((r) => r.alreadyGone === true)
  const removed = outcome.removed.filter((r) => r.alreadyGone !== true)
  const counts = `${removed.length} removed, ${gone.length} already gone, ${outcome.leftovers.length} left`
  const out = [`${heading}: ${counts}`]
  for (const r of removed) out.push(`  removed ${r.kind} ${r.id} (${r.label})`)
  for (const r of gone) out.push(`  already gone ${r.kind} ${r.id} (${r.label})`)
  for (const l of outcome.leftovers) out.push(`  left ${l.kind} ${l.id} (${l.label}): ${l.reason}`)
  return `${out.join('\n')}\n`
}
