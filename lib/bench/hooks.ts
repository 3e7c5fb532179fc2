/**
 * What a benchmarked `run` does beyond a normal one, switched on by the environment only (the bench sets it):
 * `SHOP_REQUEST_LOG` — the main process's own requests (preflight, cleanup) join the worker's in the request log;
 * `SHOP_BENCH_STATS` — at exit, the process's start, CPU time, peak RSS and request phase are written there.
 * Without either variable this does nothing.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { observeEveryClient } from '../shop/client.ts'
import { CallerLabels, readRequestLog, requestLogObserver } from './request-log.ts'

export interface RunStats {
  /** `performance.timeOrigin` of the run's process (epoch ms): its start. */
  startedAtMs: number
  cpuUserMs: number
  cpuSystemMs: number
  maxRssMb: number
  /** Milliseconds since process start; null without a request log or without requests. */
  firstRequestMs: number | null
  lastRequestMs: number | null
}

export function benchHooks(env: NodeJS.ProcessEnv = process.env): void {
  const log = env.SHOP_REQUEST_LOG !== undefined && env.SHOP_REQUEST_LOG !== '' ? env.SHOP_REQUEST_LOG : undefined
  if (log !== undefined) {
    const labels = new CallerLabels({
      ...(env.SHOP_ADMIN_USERNAME !== undefined ? { adminUsername: env.SHOP_ADMIN_USERNAME } : {}),
      ...(env.SHOP_CUSTOMER_EMAIL !== undefined ? { customerUsername: env.SHOP_CUSTOMER_EMAIL } : {}),
    })
    observeEveryClient(requestLogObserver(log, labels, 'main'))
  }
  const statsFile = env.SHOP_BENCH_STATS
  if (statsFile !== undefined && statsFile !== '') {
    process.once('exit', () => writeFileSync(statsFile, `${JSON.stringify(runStats(log))}\n`))
  }
}

function runStats(log: string | undefined): RunStats {
  const cpu = process.cpuUsage()
  let first: number | null = null
  let last: number | null = null
  if (log !== undefined) {
    try {
      for (const r of readRequestLog(readFileSync(log, 'utf8'))) {
        if (first === null || r.startMs < first) first = r.startMs
        if (last === null || r.endMs > last) last = r.endMs
      }
    } catch {
      // No log: no request phase.
    }
  }
  return {
    startedAtMs: performance.timeOrigin,
    cpuUserMs: Math.round(cpu.user / 1000),
    cpuSystemMs: Math.round(cpu.system / 1000),
    maxRssMb: Math.round((process.resourceUsage().maxRSS / 1024) * 10) / 10,
    firstRequestMs: first,
    lastRequestMs: last,
  }
}
