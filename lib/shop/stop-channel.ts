import { BroadcastChannel } from 'node:worker_threads'

/**
 * The main process tells the worker thread that the run is stopping. vitest's cancel aborts only the signals of the
 * tests running at that moment, which stop the session's requests (lib/vitest/module-suite.ts); work started ahead of
 * its test (the next module's, lib/vitest/lookahead.ts) may be all that is in flight, between two files. And on a
 * signal the main thread's 'exit' path cleans up synchronously while the worker thread runs on: it must stop sending
 * before that cleanup deletes what it would touch. A BroadcastChannel reaches the worker even then.
 */
const channelName = (runId: string) => `shop-conformance.stop.${runId}`

export function announceStop(runId: string): void {
  const channel = new BroadcastChannel(channelName(runId))
  channel.postMessage('stop')
  channel.close()
}

/** Calls `stop` when the run's stop is announced; returns what stops listening. Never holds the thread open. */
export function onStopAnnounced(runId: string, stop: () => void): () => void {
  const channel = new BroadcastChannel(channelName(runId))
  channel.onmessage = () => stop()
  channel.unref()
  return () => channel.close()
}
