/**
 * Where a conformance run's facts travel in vitest's task meta, from the suite files (worker) to the run's
 * reporter (main process) and into blob files for `--merge-reports`. Meta is written to disk by the blob
 * reporter and shown by vitest's UI: it carries results (exchanges redacted when recorded), never a token.
 */

/** A test's result (`Result`). */
export const RESULT_META = 'shopResult'
/** The session's notes (a renewed token) that came with a test's result. */
export const NOTES_META = 'shopNotes'
/** Set on every test vitest selected to run (mode `run` when its module started): the run's scope. */
export const SELECTED_META = 'shopSelected'
/** On each test module: the report of its run without results (run-level facts for merging shards' blobs). */
export const RUN_META = 'shopRun'
