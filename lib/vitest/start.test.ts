/**
 * `shop-conformance run` hands vitest its config inline, from the config's plain-JS bundle (start.mjs): read as a
 * file, by vite's module runner or its native loader alike, it made Node register module hooks, which on Node 20
 * run in a thread of their own for the rest of the run — an isolate more, and every later import through it (issue
 * 29.9: 12–18 MB of peak RSS and 0.4–0.9 s of CPU of a c16 run). Integration layer: a child run.
 */
import { describe, expect, it } from 'vitest'
import { cli } from '../cli/testing.ts'

/** Preloaded into the run: says so, and says when anything registers module hooks. */
const WATCH_HOOKS = `data:text/javascript,${encodeURIComponent(`import { Module } from 'node:module'
process.stderr.write('hooks watched\\n')
const register = Module.register
Module.register = function (...args) {
  process.stderr.write('module hooks registered\\n')
  return register.apply(this, args)
}`)}`

describe('shop-conformance run under vitest', () => {
  it('registers no module hooks: the config comes inline, the suite as a bundle', { timeout: 120_000 }, async () => {
    const run = await cli(['run', '--module', 'directory'], { NODE_OPTIONS: `--import=${WATCH_HOOKS}` })
    expect(run.stderr).toContain('hooks watched')
    expect(run.stderr).not.toContain('module hooks registered')
    expect(run.status).toBe(0)
    expect(run.report?.summary.passed).toBeGreaterThan(0)
  })
})
