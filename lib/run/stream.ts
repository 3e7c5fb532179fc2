import { BroadcastChannel } from 'node:worker_threads'
import type { Result } from '../results/result.ts'

/**
 * Between the run (main thread) and the vitest worker that judges: the order to stop, and every result
 * judged until then. Vitest reports a test only when the test itself runs, and its file may come late
 * (every check of the run is started at once, long before its test awaits it); a run cut short would then
 * lose results that were long finished. The worker keeps each result as it is judged and hands them all
 * over when told to stop — in memory only (a result holds exchanges, whose secrets are redacted when the
 * report is written), and at no cost to a run that is not stopped.
 */
type Message = { type: 'results'; results: Result[] } | { type: 'stop' } | { type: 'stopped' }

function channelOf(runId: string): BroadcastChannel {
  return new BroadcastChannel(`shop-conformance-results-${runId}`)
}

/** The worker's end: keeps the results judged until told to stop, then stops the session's requests and hands them over. */
export class ResultKeeper {
  readonly #channel: BroadcastChannel
  readonly #judged: Result[] = []
  #stopped = false

  constructor(runId: string, onStop: () => void) {
    this.#channel = channelOf(runId)
    this.#channel.onmessage = (event) => {
      if ((event as { data: Message }).data.type !== 'stop' || this.#stopped) return
      // From here on a verdict may rest on a request cut off by the stop: none is kept any more.
      this.#stopped = true
      onStop()
      this.#channel.postMessage({ type: 'results', results: this.#judged } satisfies Message)
      this.#channel.postMessage({ type: 'stopped' } satisfies Message)
    }
    // The channel must not keep the worker alive once its tests are done.
    this.#channel.unref()
  }

  get stopped(): boolean {
    return this.#stopped
  }

  keep(result: Result): void {
    if (!this.#stopped) this.#judged.push(result)
  }
}

/** The run's end: stops the worker and receives what it had judged. */
export class ResultInbox {
  readonly #channel: BroadcastChannel
  readonly #results = new Map<string, Result>()
  #acknowledged: (() => void) | undefined
  #stopping: Promise<void> | undefined

  constructor(runId: string) {
    this.#channel = channelOf(runId)
    this.#channel.onmessage = (event) => {
      const message = (event as { data: Message }).data
      if (message.type === 'results') for (const r of message.results) this.#results.set(r.id, r)
      if (message.type === 'stopped') this.#acknowledged?.()
    }
  }

  /** Every result the worker had judged when it stopped (none for a run that was not stopped). */
  get results(): Result[] {
    return [...this.#results.values()]
  }

  /**
   * Tells the worker to stop and waits until it says it has (the results it had judged are then in), or
   * `waitMs` at most: a worker that does not answer (none started yet, or one stuck) must not hold the run.
   */
  stop(waitMs: number): Promise<void> {
    this.#stopping ??= this.#stop(waitMs)
    return this.#stopping
  }

  async #stop(waitMs: number): Promise<void> {
    const acknowledged = new Promise<void>((resolve) => {
      this.#acknowledged = resolve
    })
    this.#channel.postMessage({ type: 'stop' } satisfies Message)
    let timer: NodeJS.Timeout | undefined
    await Promise.race([acknowledged, new Promise<void>((resolve) => (timer = setTimeout(resolve, waitMs)))])
    clearTimeout(timer)
  }

  /** Lets the messages already sent arrive, then closes the channel. */
  async close(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve))
    this.#channel.close()
  }
}
