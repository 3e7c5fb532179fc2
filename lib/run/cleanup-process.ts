/**
 * The cleanup of an interrupted run, as a process of its own that the exiting run waits for (interrupted.ts).
 * Reads its order on stdin — the admin token never goes into argv or the environment — and prints the
 * outcome as JSON.
 */
import { Ledger } from '../setup/ledger.ts'
import { cleanUp } from '../setup/cleanup.ts'
import { TargetClient } from '../shop/client.ts'
import { rateShare } from '../shop/pace.ts'
import { Secrets } from '../shop/secrets.ts'
import { ServerErrorLog } from '../shop/server-errors.ts'
import { EvidenceLog } from '../shop/evidence.ts'
import { callerClass } from '../shop/exchange-identity.ts'
import type { Slowest } from '../results/deadlines.ts'

export interface CleanupOrder {
  baseUrl: string
  store: string
  timeoutMs: number
  /** `--max-timeout-ms`, and the slowest answers the run saw: the cleanup's deadlines start from them. */
  maxTimeoutMs?: number
  slowestMs?: Slowest
  concurrency: number
  insecure: boolean
  adminToken: string
  runId: string
  ledgerFile: string
  /** Epoch ms: requests still running then are cut off, and what they were removing is listed as left over. */
  cutOffAt: number
  /** The run's writes its interrupt left in flight: the cleanup waits for them (lib/setup/cleanup.ts). */
  writesInFlight: { endBy: number; waitUntil: number }
  /** Where its exchanges go as the run's evidence (lib/shop/evidence.ts); absent with `--no-evidence`. */
  evidenceFile?: string
  /** `--max-rps`, and when the run's next request could start (epoch ms): the cleanup's calls keep to the run's cap. */
  rate?: { maxRps: number; fromMs: number }
}

const chunks: Buffer[] = []
for await (const c of process.stdin) chunks.push(c as Buffer)
const order = JSON.parse(Buffer.concat(chunks).toString('utf8')) as CleanupOrder
const secrets = new Secrets()
secrets.add(order.adminToken, 'admin token')
const deadlines = {
  ...(order.maxTimeoutMs !== undefined ? { maxTimeoutMs: order.maxTimeoutMs } : {}),
  ...(order.slowestMs !== undefined ? { slowestMs: order.slowestMs } : {}),
}
const rate = order.rate !== undefined ? rateShare(order.rate.maxRps, order.rate.fromMs) : undefined
const client = new TargetClient({
  baseUrl: order.baseUrl,
  timeoutMs: order.timeoutMs,
  ...deadlines,
  concurrency: order.concurrency,
  secrets,
  insecure: order.insecure,
  ...(rate !== undefined ? { rate } : {}),
})
const cutOff = setTimeout(() => client.stop(), Math.max(0, order.cutOffAt - Date.now()))
const ledger = new Ledger(order.ledgerFile)
// Its server errors join the run's list (interrupted.ts): every call here is the admin's.
const callerOf = (token: string | undefined, authorization: string | undefined) =>
  callerClass(token, authorization, () => 'admin')
const serverErrors = new ServerErrorLog({ callerOf, during: () => 'cleanup' })
const evidence =
  order.evidenceFile !== undefined
    ? new EvidenceLog(order.evidenceFile, {
        runId: order.runId,
        callerOf,
        during: () => 'cleanup',
        thread: 'cleanup',
        tokenName: (t) => (t === order.adminToken ? 'admin' : undefined),
      })
    : undefined
const outcome = await cleanUp(Ledger.read(order.ledgerFile), client, order.adminToken, order.store, {
  id: order.runId,
  ledger,
  writesInFlight: order.writesInFlight,
})
clearTimeout(cutOff)
await client.close()
evidence?.close()
process.stdout.write(JSON.stringify({ ...outcome, serverErrors: serverErrors.take() }))
