/**
 * What a benchmarked `run` writes beyond a normal one, for lib/bench/preload.mjs, which `npm run bench` injects
 * into the run (`NODE_OPTIONS=--import=…/preload.mjs`), so nothing in the shop or the run knows the bench:
 * `SHOP_REQUEST_LOG` — every request the run's clients finish (the request channel), one line each;
 * `SHOP_BENCH_STATS` — at exit, the process's start, CPU time, peak RSS and request phase (RunStats).
 */
import type { FinishedRequest } from '../shop/request-channel.ts'
import { CallerLabels, requestLogObserver, type LoggedRequest } from './request-log.ts'

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

/**
 * The writer of the request log: each thread's requests labelled by a labeller of its own (the tokens a thread
 * learns are numbered per thread, as a replay reads them).
 */
export function requestLogWriter(
  env: NodeJS.ProcessEnv,
): (thread: LoggedRequest['thread'], request: FinishedRequest) => void {
  const file = env.SHOP_REQUEST_LOG
  if (file === undefined || file === '') return () => {}
  const byThread = new Map<LoggedRequest['thread'], (request: FinishedRequest) => void>()
  return (thread, request) => {
    let observe = byThread.get(thread)
    if (observe === undefined) {
      const labels = new CallerLabels({
        ...(env.SHOP_ADMIN_USERNAME !== undefined ? { adminUsername: env.SHOP_ADMIN_USERNAME } : {}),
        ...(env.SHOP_CUSTOMER_EMAIL !== undefined ? { customerUsername: env.SHOP_CUSTOMER_EMAIL } : {}),
      })
      observe = requestLogObserver(file, labels, thread)
      byThread.set(thread, observe)
    }
    observe(request)
  }
}
