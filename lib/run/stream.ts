import { BroadcastChannel } from 'node:worker_threads'
import type { Result } from './result.ts'

/**
 * Between the run (main thread) and the vitest worker that judges: every result the moment it is judged,
 * and the order to stop. Vitest reports a test only when the test itself runs, and its file may come late
 * (every check of the run is started at once, long before its test awaits it); a run cut short would then
 * lose results that were long finished. The stream carries them regardless of vitest, in memory only (a
 * result holds exchanges, whose secrets are redacted when the report is written).
 */
type Message = { type: 'result'; result: Result } | { type: 'stop' } | { type: 'stopped' }

function channelOf(runId: string): BroadcastChannel {
  return new BroadcastChannel(`shop-conformance-results-${runId}`)
}

/** The worker's end: publishes results until told to stop, then stops the session's requests. */
export class ResultPublisher {
  readonly #channel: BroadcastChannel
  #stopped = false

  constructor(runId: string, onStop: () => void) {
    this.#channel = channelOf(runId)
    this.#channel.onmessage = (event) => {
      if ((event as { data: Message }).data.type !== 'stop' || this.#stopped) return
      // From here on a verdict may rest on a request cut off by the stop: none is published any more.
      this.#stopped = true
      onStop()
      this.#channel.postMessage({ type: 'stopped' } satisfies Message)
    }
    // The channel must not keep the worker alive once its tests are done.
    this.#channel.unref()
  }

  get stopped(): boolean {
    return this.#stopped
  }

  publish(result: Result): void {
    if (!this.#stopped) this.#channel.postMessage({ type: 'result', result } satisfies Message)
  }
}

/** The run's end: collects what the worker publishes, and stops it. */
export class ResultInbox {
  readonly #channel: BroadcastChannel
  readonly #results = new Map<string, Result>()
  #acknowledged: (() => void) | undefined
  #stopping: Promise<void> | undefined
  #stopped = false

  constructor(runId: string) {
    this.#channel = channelOf(runId)
    this.#channel.onmessage = (event) => {
      const message = (event as { data: Message }).data
      if (message.type === 'result' && !this.#stopped) this.#results.set(message.result.id, message.result)
      if (message.type === 'stopped') this.#acknowledged?.()
    }
  }

  /** Every result published before the worker stopped, in the order they came. */
  get results(): Result[] {
    return [...this.#results.values()]
  }

  /**
   * Tells the worker to stop and waits until it says it has (everything it published before is in), or
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
    this.#stopped = true
  }

  /** Lets the messages already sent arrive, then closes the channel. */
  async close(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve))
    this.#channel.close()
  }
}
