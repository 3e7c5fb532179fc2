/**
 * The processes a test starts end with it (test-setup/child-processes.ts), however it ends: the three tests before the
 * last leave a run of the CLI and a shell with a child of its own running (one passes, one fails, one times out), and
 * the last finds none of their process groups left. Before, a timed-out test's run went on after `npm test` had exited.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { resolve } from 'node:path'
import { setTimeout as delay } from 'node:timers/promises'
import { describe, expect, it, type TestContext } from 'vitest'
import { runningOf, spawnInTest } from '../../test-setup/child-processes.ts'
import { cli } from './testing.ts'

const BIN = resolve(import.meta.dirname, 'bin.mjs')

/** Process groups left running by the tests below, by how their test ended. */
const left: Record<string, number[]> = {}

/**
 * Starts a target (it runs until stopped) and a shell whose `sleep` is a process of its own. The target is the
 * CLI's, through cli() (which first waits for one of the machine's run slots), or, in a test with a short
 * timeout, started directly.
 */
async function leaveRunning(context: TestContext, how: string, target: 'through cli()' | 'directly'): Promise<void> {
  if (target === 'through cli()') void cli(['target', '--port', '0'])
  else spawnInTest(process.execPath, [BIN, 'target', '--port', '0'], { cwd: tmpdir(), stdio: 'ignore' })
  spawnInTest('/bin/sh', ['-c', 'sleep 300 & sleep 300'], { stdio: 'ignore' })
  for (let waited = 0; waited < 30_000 && runningOf(context.task).length < 2; waited += 20) await delay(20)
  left[how] = runningOf(context.task).map((child) => child.pid!)
}

/** The processes of a process group still running (a zombie has ended: it only waits for its parent to reap it). */
function running(group: number): string[] {
  return readdirSync('/proc').filter((pid) => {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
      // Fields after the command's name (in parentheses, maybe with spaces): state, ppid, pgrp.
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      return Number(pgrp) === group && state !== 'Z' && state !== 'X'
    } catch {
      return false
    }
  })
}

describe('the processes a test starts', () => {
  it('(a test that passes with them running)', async (context) => {
    await leaveRunning(context, 'passed', 'through cli()')
  })

  it.fails('(a test that fails with them running)', async (context) => {
    await leaveRunning(context, 'failed', 'through cli()')
    expect('the test').toBe('failed')
  })

  it.fails('(a test that times out with them running)', { timeout: 3_000 }, async (context) => {
    await leaveRunning(context, 'timed out', 'directly')
    await delay(60_000)
  })

  it('end with the test, their whole process group, however it ended', async () => {
    expect(Object.keys(left)).toEqual(['passed', 'failed', 'timed out'])
    const groups = Object.values(left).flat()
    expect(Object.values(left).map((pids) => pids.length)).toEqual([2, 2, 2])
    // SIGKILL was sent as each test ended; a loaded machine may take a moment to deliver it.
    for (let waited = 0; waited < 5_000 && groups.flatMap(running).length > 0; waited += 50) await delay(50)
    expect(groups.flatMap(running)).toEqual([])
  })
})

// More tests at once than vitest's maxConcurrency (5): the later ones start as earlier ones end, from their
// asynchronous context; what each starts is its own all the same.
describe.concurrent('the processes of concurrent tests, more than run at once', () => {
  for (const n of [1, 2, 3, 4, 5, 6, 7, 8]) {
    it(`(test ${n}) are its own`, async (context) => {
      await delay(20 * n)
      const child = spawnInTest('sleep', ['300'], { stdio: 'ignore' })
      expect(runningOf(context.task)).toContain(child)
      await delay(20 * (9 - n))
    })
  }
})
