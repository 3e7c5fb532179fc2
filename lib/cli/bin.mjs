#!/usr/bin/env node
// `shop-conformance run` is vitest, started in this process through its Node API (plain JavaScript: no tsx in
// the run's process — vite transforms the suite's TypeScript). The other commands, and `run --dry-run` and
// `run --help`, are TypeScript (main.ts), loaded as one cached bundle without a build step (bundled-import.mjs).
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { stopWhenTheDirectoryGoes } from '../base/working-directory.mjs'

// A reader that stops early (`list --format json | head`) closes the pipe: what is left unread is nobody's
// loss, and must not end in a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err) => {
    if (err.code !== 'EPIPE') throw err
  })
}

stopWhenTheDirectoryGoes()

const [command, ...rest] = process.argv.slice(2)
const status = command === 'run' && !rest.some((a) => ['--dry-run', '--help', '-h'].includes(a)) ? await runUnderVitest(rest) : await otherCommand()
// On a pipe, writes are asynchronous: exiting before they are flushed cuts the output at the pipe's buffer.
await Promise.all([process.stdout, process.stderr].map(flushed))
// Exit explicitly: a target that keeps sockets open must not keep the process alive.
process.exit(status)

/**
 * The suite under vitest: the flags go to the run's reporter as one JSON variable, parsed there by the
 * settings parser exactly as before (flags over environment over `.env` of this directory); `--module` and
 * `--shard` become vitest's own file selection and sharding there. vitest is resolved relative to this
 * package, not the user's directory, and its signal handlers stay (the run's 'exit' path cleans up).
 */
async function runUnderVitest(flags) {
  const root = join(dirname(fileURLToPath(import.meta.url)), '../..')
  process.env.SHOP_RUN_FLAGS = JSON.stringify(flags)
  const { startVitest } = await import('vitest/node')
  // The config read through vite's module runner, not bundled: bundling it started rolldown's bundler in the
  // run's process, whose threads kept ~15 MB of native memory through the whole run (peak RSS of a c16 run).
  await startVitest('test', [], { root, config: join(root, 'vitest.config.ts'), project: ['conformance'], run: true, watch: false, configLoader: 'runner' })
  // Set by the run's reporter (0, 1, 2, 124); vitest's own 1 when the run never reached it.
  return typeof process.exitCode === 'number' ? process.exitCode : 1
}

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

