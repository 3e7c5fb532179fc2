/**
 * The tests' runs and sessions get the deadline a loaded machine meets (deadlines.ts): the short ones they had
 * (1.5–2 s, to wait less for late answers) failed `npm test` at a load of 5–20, judging the machine.
 */
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = resolve(import.meta.dirname, '..')

describe('the deadlines of the tests', () => {
  it('are ANSWER_DEADLINE_MS for every run and session a test starts', () => {
    const files = execFileSync('git', ['ls-files', '*.test.ts'], { cwd: ROOT, encoding: 'utf8' })
      .split('\n')
      .filter((f) => f !== '')
    // The settings parser's own tests give it bad values on purpose: it refuses them, nothing is sent.
    const sending = files.filter((f) => !f.startsWith('lib/settings/'))
    const others = sending.flatMap((file) =>
      [...readFileSync(resolve(ROOT, file), 'utf8').matchAll(/'--timeout-ms',\s*(String\([^)]*\)|'[^']*'|[\w.]+)/g)]
        .map((m) => m[1]!.trim())
        .filter((value) => value !== 'String(ANSWER_DEADLINE_MS)')
        .map((value) => `${file}: --timeout-ms ${value}`),
    )
    expect(others).toEqual([])
  })
})
