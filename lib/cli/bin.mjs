#!/usr/bin/env node
// `shop-conformance run` is vitest, started in this process through its Node API (lib/vitest/start.mjs). The
// other commands, and `run --dry-run` and `run --help`, are TypeScript (main.ts), loaded as one cached bundle
// without a build step (bundled-import.mjs).
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { stopWhenTheDirectoryGoes } from '../base/working-directory.mjs'
import { saySignalsBeforeTheRun } from '../base/signals-before-the-run.mjs'
import { runUnderVitest } from '../vitest/start.mjs'

// A reader that stops early (`list --format json | head`) closes the pipe: what is left unread is nobody's
// loss, and must not end in a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err) => {
    if (err.code !== 'EPIPE') throw err
  })
}

stopWhenTheDirectoryGoes()

const [command, ...rest] = process.argv.slice(2)
const isRun = command === 'run' && !rest.some((a) => ['--dry-run', '--help', '-h'].includes(a))
// A Ctrl-C while vitest and the suite load says so in one line, until the run takes the signals.
if (isRun) saySignalsBeforeTheRun()
const status = isRun ? await runUnderVitest(rest) : await otherCommand()
// On a pipe, writes are asynchronous: exiting before they are flushed cuts the output at the pipe's buffer.
await Promise.all([process.stdout, process.stderr].map(flushed))
// Exit explicitly: a target that keeps sockets open must not keep the process alive.
process.exit(status)

async function otherCommand() {
  const { bundledImport } = await import('../base/bundled-import.mjs')
  const { main } = await bundledImport(join(dirname(fileURLToPath(import.meta.url)), 'main.ts'))
  return main(process.argv.slice(2))
}

/** Resolves once everything written to the stream before has been handed to the OS (or the stream is gone). */
function flushed(stream) {
  return new Promise((resolve) => {
    if (stream.destroyed) resolve()
    else stream.write('', () => resolve())
  })
}
