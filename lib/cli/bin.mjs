#!/usr/bin/env node
// The CLI is TypeScript like the rest of the suite; tsx loads it without a build step.
import { register } from 'tsx/esm/api'

// A reader that stops early (`list --format json | head`) closes the pipe: what is left unread is nobody's
// loss, and must not end in a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err) => {
    if (err.code !== 'EPIPE') throw err
  })
}

// The run's heavy dependencies are plain JavaScript: loaded before tsx's hooks, they skip its loader thread.
if (process.argv[2] === 'run') {
  await Promise.all(['vitest/node', 'undici', 'ajv', '@faker-js/faker/locale/en', 'p-limit', 'dotenv'].map((m) => import(m)))
}
register()
const { main } = await import('./main.ts')
const status = await main(process.argv.slice(2))
// On a pipe, writes are asynchronous: exiting before they are flushed cuts the output at the pipe's buffer.
await Promise.all([process.stdout, process.stderr].map(flushed))
// Exit explicitly: a target that keeps sockets open must not keep the process alive.
process.exit(status)

/** Resolves once everything written to the stream before has been handed to the OS (or the stream is gone). */
function flushed(stream) {
  return new Promise((resolve) => {
    if (stream.destroyed) resolve()
    else stream.write('', () => resolve())
  })
}
