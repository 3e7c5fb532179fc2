// Plain JavaScript: bin.mjs starts the watch before any TypeScript is loaded; the run's reporter asks it too.
import { existsSync } from 'node:fs'

/**
 * Where the directory the command started in is kept (process.cwd() keeps its first answer: the path is looked
 * up instead): on the process, as the run's reporter may hold a copy of this module of its own (a bundle).
 */
const STARTED = Symbol.for('shop-conformance.working-directory')

/**
 * A command whose working directory is removed under it (a test's temporary directory, a CI workspace wiped)
 * can no longer read `.env` there nor write its reports: it stops at once, in one line, exit 2, rather than run
 * on unseen as an orphan — a target still listening, a run still sending.
 */
export function stopWhenTheDirectoryGoes() {
  try {
    globalThis[STARTED] = process.cwd()
  } catch {
    stop(undefined)
  }
  setInterval(watch, 250).unref()
}

/**
 * Between two looks a write into the directory fails first (the ledger, a report): where such an error would
 * surface, this says it as the one line instead. A file not found may be the first sign of a removal still
 * under way (a directory's files go before it): that one is given half a second to finish.
 */
export async function stopIfTheDirectoryWent(err) {
  const started = globalThis[STARTED]
  if (started === undefined) return
  const waitMs = err?.code === 'ENOENT' ? 500 : 0
  for (let waited = 0; ; waited += 50) {
    if (!existsSync(started)) stop(started)
    if (waited >= waitMs) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

function watch() {
  const started = globalThis[STARTED]
  if (!existsSync(started)) stop(started)
}

function stop(started) {
  process.stderr.write(
    `shop-conformance: the working directory${started === undefined ? '' : ` ${started}`} was removed: stopping\n`,
  )
  process.exit(2)
}
