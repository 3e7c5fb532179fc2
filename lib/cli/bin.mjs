#!/usr/bin/env node
// The CLI is TypeScript like the rest of the suite; tsx loads it without a build step.
import { register } from 'tsx/esm/api'

register()
const { main } = await import('./main.ts')
const status = await main(process.argv.slice(2))
// Exit explicitly: a target that keeps sockets open must not keep the process alive.
process.exit(status)
