#!/usr/bin/env node
// The CLI is TypeScript like the rest of the suite; tsx loads it without a build step.
import { register } from 'tsx/esm/api'

// The run's heavy dependencies are plain JavaScript: loaded before tsx's hooks, they skip its loader thread.
if ((process.argv[2] ?? 'run') === 'run') {
  await Promise.all(['vitest/node', 'undici', 'ajv', '@faker-js/faker/locale/en', 'p-limit', 'dotenv'].map((m) => import(m)))
}
register()
const { main } = await import('./main.ts')
const status = await main(process.argv.slice(2))
// Exit explicitly: a target that keeps sockets open must not keep the process alive.
process.exit(status)
