/**
 * The deadlines of the tests' requests, for a busy machine. A CI machine is often shared: on this project's
 * 2-core machine at a load of 5–20, an answer the reference target gives at once took more than 2 s now and
 * then (the target in a test worker beside other tests, the run in a child process beside other runs), and
 * the tests that gave requests 1.5–2 s failed there, judging the machine instead of the target (issue 22).
 *
 * A request the target answers gets the suite's own default deadline; a late answer (the `slow` fault, the
 * `late-creation` variant) comes a wide margin after it, so that no loaded machine turns "late" into "in time" nor "in
 * time" into "late". Each late request costs a test ANSWER_DEADLINE_MS of waiting (no CPU): tests send as few as prove
 * their point, and run beside others. A kind of call's deadline grows to three times its slowest answer (a timeout
 * counts as its deadline: lib/shop/deadlines.ts), up to `--max-timeout-ms`: a test whose late answer must stay late
 * sets `--max-timeout-ms` to ANSWER_DEADLINE_MS too.
 */

/** The deadline of a request the target answers at once: the suite's default (`--timeout-ms`, SHOP_TIMEOUT_MS). */
export const ANSWER_DEADLINE_MS = 10_000

/** When a late answer comes (the target's `slowMs`): three deadlines, so the request gives up long before. */
export const LATE_ANSWER_MS = 3 * ANSWER_DEADLINE_MS

/**
 * What a test adds to its own time when its child runs take their turns in the machine's run slots
 * (lib/cli/testing.ts inRunSlot): in a file of concurrent tests each run queues behind the file's others and the
 * other files', and the vitest deadline counts the queue too — at a load of 14–19 on two cores a 6-s read-only run
 * waited more than two minutes for its slot, and a test that had never started its run timed out (issue 31.8).
 * Only the queue is allowed for: the test's own time stays what it was.
 */
export const RUN_QUEUE_MS = 240_000

/** A test's deadline (`{ timeout }`) when its runs queue for the run slots: its own time, and the queue's. */
export function queued(ownMs: number): number {
  return ownMs + RUN_QUEUE_MS
}
