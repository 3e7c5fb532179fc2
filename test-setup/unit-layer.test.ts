/**
 * A file of the unit layer cannot start a target, a process or a connection (unit-layer.ts): each fails its
 * test at once, saying where such a test belongs. Run in the `unit` project, where the rule holds.
 */
import { execFileSync, spawn } from 'node:child_process'
import { createServer } from 'node:http'
import { connect } from 'node:net'
import { describe, expect, it } from 'vitest'
import { startReferenceTarget } from '../reference-target/index.ts'

const BELONGS = /belongs to the integration layer \(INTEGRATION_TESTS in vitest\.config\.ts\)$/

describe('a unit test', () => {
  it('starts no reference target', async () => {
    await expect(startReferenceTarget({ port: 0 })).rejects.toThrow(
      /may not listen on a port \(a server, such as a reference target\)/,
    )
  })

  it('starts no server, no process', () => {
    expect(() => createServer().listen(0)).toThrow(/^a unit test may not listen on a port/)
    expect(() => spawn(process.execPath, ['--version'])).toThrow(
      /^a unit test may not start a process \(child_process\.spawn\)/,
    )
    expect(() => execFileSync(process.execPath, ['--version'])).toThrow(BELONGS)
  })

  it("opens no connection, fetch's included", async () => {
    expect(() => connect(9, '127.0.0.1')).toThrow(/may not open a connection \(the network\)/)
    const failed = await fetch('http://127.0.0.1:65500/').catch((err: unknown) => err)
    expect((failed as Error).cause).toMatchObject({ name: 'LayerViolation', message: expect.stringMatching(BELONGS) })
  })
})
