// Preloaded by `npm run bench` into the run it measures (NODE_OPTIONS=--import=…/preload.mjs). Node runs it in
// the main thread and in vitest's worker thread alike, before either sends a request, so nothing of the run
// knows the bench: each thread's clients publish their finished requests on the shop's request channel
// (lib/shop/request-channel.ts), and this listens.
//
// Plain JavaScript that loads no TypeScript loader of its own: tsx in front of the run's plain-JS dependencies,
// or in the worker, would cost the measured run CPU and memory. The worker forwards what it hears to the main
// thread (a BroadcastChannel within the process); the main thread writes the log with hooks.ts, loaded when the
// first request arrives. At exit it writes the stats.
import diagnostics_channel from 'node:diagnostics_channel'
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { BroadcastChannel, isMainThread } from 'node:worker_threads'

/** REQUEST_CHANNEL of lib/shop/request-channel.ts (a test holds the two together). */
const REQUEST_CHANNEL = 'shop-conformance:request'
/** The calls whose answer is a token (request-log.ts reads which one). */
const TOKEN_CALL = /^\/V1\/integration\/(admin|customer)\/token$/
const log = process.env.SHOP_REQUEST_LOG || undefined
const statsFile = process.env.SHOP_BENCH_STATS || undefined

if (log !== undefined) {
  const fromWorkers = new BroadcastChannel('shop-conformance:bench-requests')
  // Neither thread stays alive for it.
  fromWorkers.unref()
  if (isMainThread) {
    let write
    let loading
    const pending = []
    const take = (thread, request) => {
      if (write !== undefined) return write(thread, request)
      pending.push([thread, request])
      loading ??= loadHooks().then(({ requestLogWriter }) => {
        write = requestLogWriter(process.env)
        for (const [t, r] of pending.splice(0)) write(t, r)
      })
    }
    diagnostics_channel.subscribe(REQUEST_CHANNEL, (request) => take('main', request))
    fromWorkers.onmessage = (event) => take('worker', event.data)
  } else {
    // Only what the log reads of an outcome: its status, and the body of a token call (the token it issued). The
    // rest would be cloned for nothing, and might not survive a structured clone — nor does a spec's function (its
    // `onSent`, which the ledger gives a creation).
    diagnostics_channel.subscribe(
      REQUEST_CHANNEL,
      ({ spec: { onSent: _onSent, ...spec }, outcome, startMs, endMs, caller }) => {
        const body = TOKEN_CALL.test(spec.path) ? { body: outcome.answer?.body } : {}
        const answer = outcome.answer !== undefined ? { answer: { status: outcome.answer.status, ...body } } : {}
        fromWorkers.postMessage({ spec, outcome: answer, startMs, endMs, ...(caller !== undefined ? { caller } : {}) })
      },
    )
  }
}

if (isMainThread && statsFile !== undefined)
  process.once('exit', () => writeFileSync(statsFile, `${JSON.stringify(runStats())}\n`))

/** hooks.ts as the run loads its own TypeScript: a cached plain-JS bundle, no loader thread in the measured process. */
function loadHooks() {
  return import('../base/bundled-import.mjs').then(({ bundledImport }) =>
    bundledImport(fileURLToPath(new URL('./hooks.ts', import.meta.url))),
  )
}

/** The run's start, CPU time, peak RSS and request phase (RunStats of hooks.ts). */
function runStats() {
  const cpu = process.cpuUsage()
  let first = null
  let last = null
  try {
    for (const line of readFileSync(log ?? '', 'utf8').split('\n')) {
      if (line.trim() === '') continue
      const { startMs, endMs } = JSON.parse(line)
      if (first === null || startMs < first) first = startMs
      if (last === null || endMs > last) last = endMs
    }
  } catch {
    // No log: no request phase.
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
