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
import { isGivenToken, loadConfig, readDotenv } from '../settings/config.ts'
import { cleanUp } from '../setup/cleanup.ts'
import { Ledger, ledgerEntities, ledgerHead, ledgerRunId } from '../setup/ledger.ts'
import { TargetClient } from '../shop/client.ts'
import { rateShare } from '../shop/pace.ts'
import { Secrets } from '../shop/secrets.ts'
import { requestToken, TokenError } from '../shop/tokens.ts'
import { ACL_RESOURCES } from '../spec/catalog/index.ts'
import { args, required, type CommandIo } from './command-io.ts'

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
  const file = required('cleanup', values.ledger, '--ledger FILE')
  if (!existsSync(file)) throw new UsageError(`cleanup: --ledger ${file} does not exist`)
  const runId = ledgerRunId(file)
  const head = ledgerHead(file)
  if (runId === undefined) {
    throw new UsageError(
      `cleanup: --ledger ${file} names no run of shop-conformance (no head line, no run-marked entity)`,
    )
  }
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
  const baseUrl = config.baseUrl ?? head?.baseUrl
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
  // --max-rps caps its calls as a run's (one limiter in the client).
  const rate = rateShare(config.maxRps)
  const client = new TargetClient({
    baseUrl,
    timeoutMs: config.timeoutMs,
    maxTimeoutMs: config.maxTimeoutMs,
    concurrency: config.concurrency,
    ...(rate !== undefined ? { rate } : {}),
    secrets,
    insecure: config.insecure,
  })
  try {
    let token: string
    if (isGivenToken(config.admin)) {
      token = config.admin.token
      secrets.add(token, `admin token given as ${config.admin.setting}`)
    } else {
      try {
        token = await requestToken(client, secrets, 'admin', config.admin, store)
      } catch (err) {
        if (err instanceof TokenError) throw new UsageError(`cleanup: ${err.message}`)
        throw err
      }
    }
    const outcome = await cleanUp(lines, client, token, store, { id: runId, ledger: new Ledger(file) })
    const gone = outcome.removed.filter((r) => r.alreadyGone === true)
    const removed = outcome.removed.filter((r) => r.alreadyGone !== true)
    const counts = `${removed.length} removed, ${gone.length} already gone, ${outcome.leftovers.length} left`
    const out = [`cleanup of run ${runId} on ${baseUrl} (${file}): ${counts}`]
    for (const r of removed) out.push(`  removed ${r.kind} ${r.id} (${r.label})`)
    for (const r of gone) out.push(`  already gone ${r.kind} ${r.id} (${r.label})`)
    for (const l of outcome.leftovers) out.push(`  left ${l.kind} ${l.id} (${l.label}): ${l.reason}`)
    io.out(secrets.redactText(`${out.join('\n')}\n`))
    return outcome.leftovers.length === 0 ? 0 : 1
  } finally {
    await client.close()
    lock?.release()
  }
}
