// Plain JavaScript: bin.mjs listens before any TypeScript is loaded; the run's interrupt handling takes over.

/**
 * Where the listeners' removal is kept until the run takes the signals: on the process, as the run's code is
 * loaded by vite's module runner and holds a copy of this module of its own.
 */
const BEFORE_THE_RUN = Symbol.for('shop-conformance.signals-before-the-run')

/**
 * `shop-conformance run`'s first second or so (loading vitest, its config and the suite files) comes before the run
 * takes SIGINT and SIGTERM (lib/run/interrupted.ts). A Ctrl-C then ended the process without a word and without a
 * report (issue 31.15). Until the run takes them, a signal is said in one line, and the process exits 130 / 143:
 * nothing had been sent to the target by then, so there is nothing to clean up or report.
 */
export function saySignalsBeforeTheRun() {
  const listener = (signal, status) => () => {
    process.stderr.write(
      `shop-conformance: interrupted by ${signal} before the run started: nothing was sent to the target and no report was written\n`,
    )
    process.exit(status)
  }
  const onSigint = listener('SIGINT', 130)
  const onSigterm = listener('SIGTERM', 143)
  process.on('SIGINT', onSigint)
  process.on('SIGTERM', onSigterm)
  globalThis[BEFORE_THE_RUN] = () => {
    process.off('SIGINT', onSigint)
    process.off('SIGTERM', onSigterm)
    delete globalThis[BEFORE_THE_RUN]
  }
}

/** The run takes the signals from here on (its report says what they interrupted): the one line is no longer said. */
export function theRunTakesTheSignals() {
  globalThis[BEFORE_THE_RUN]?.()
}
