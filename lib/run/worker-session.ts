/**
 * The worker's session of a run: one per worker thread (the conformance project runs one worker, which keeps
 * its modules across suite files), so every suite file shares the client, its concurrency bound and the probe
 * memo. A new run — watch mode, an editor's rerun — gets a new one. A stop the main process announces
 * (lib/shop/stop-channel.ts) cuts its requests off.
 */
import { Session, type SessionSeed } from '../shop/session.ts'
import { onStopAnnounced } from '../shop/stop-channel.ts'
import { ServerErrorLog } from '../shop/server-errors.ts'
import { EvidenceLog } from '../shop/evidence.ts'
import type { Result } from '../results/result.ts'
import { callerClass, seedCaller, seedTokenName } from '../shop/exchange-identity.ts'
import type { ServerErrorList } from '../results/server-errors.ts'
import type { RunDeadlines } from '../results/deadlines.ts'

let session: Session | undefined
let stopListening = () => {}
/** The 5xx answers the worker's requests got since its last finished test carried them (module-suite.ts). */
let serverErrors: ServerErrorLog | undefined
/** The worker's part of the run's evidence (lib/shop/evidence.ts); none with `--no-evidence`. */
let evidence: EvidenceLog | undefined

/** The worker's session of the run `seed` names. */
export function sessionFor(seed: SessionSeed): Session {
  if (session === undefined || session.seed.runId !== seed.runId) {
    const made = (session = new Session(seed))
    stopListening()
    stopListening = onStopAnnounced(seed.runId, () => made.client.stop())
    serverErrors?.close()
    const callerOf = (token: string | undefined, authorization: string | undefined) =>
      callerClass(token, authorization, (t) => seedCaller(made.seed, t))
    serverErrors = new ServerErrorLog({ callerOf })
    evidence?.close()
    evidence =
      seed.evidenceFile !== undefined
        ? new EvidenceLog(seed.evidenceFile, {
            runId: seed.runId,
            callerOf,
            thread: 'worker',
            tokenName: (t) => seedTokenName(made.seed, t),
          })
        : undefined
  }
  return session
}

/** A result is made: the entries of the run's evidence that are its exchanges served its check. */
export function tellServed(result: Pick<Result, 'id' | 'exchanges'>): void {
  evidence?.served(result.id, result.exchanges)
}

/** The server errors the worker met since last asked: they ride to the run with the test that finishes next. */
export function takeServerErrors(): ServerErrorList {
  return serverErrors?.take() ?? { entries: [], unlisted: {} }
}

/** The run was cancelled: requests in flight are cut off and none is sent any more. */
export function stopSession(): void {
  session?.client.stop()
}

/** Whether the session's requests were stopped: a verdict made since may rest on a request the stop cut off. */
export function sessionStopped(): boolean {
  return session?.client.stopped === true
}

/**
 * The session's deadlines so far (lib/shop/deadlines.ts): the longest each kind was given, and what the shop showed.
 */
export function deadlinesSoFar(): RunDeadlines | undefined {
  return session === undefined ? undefined : { used: session.client.deadlinesUsed, slowestMs: session.client.slowestMs }
}

/** What the session told since last asked (a renewed token). */
export function takeNotes(): string[] {
  return session?.takeNotes() ?? []
}
