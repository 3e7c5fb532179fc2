/**
 * The HTML report's browser comes with `npm ci` (test-setup/chromium.ts): without SHOP_CHROMIUM the browser test
 * runs the packaged Chromium, which needs nothing of the system beyond glibc, so `npm ci && npm test` passes
 * on a fresh machine without Debian's chromium; and a browser that SHOP_CHROMIUM names but is not there stops
 * the run with one line.
 */
import { execFileSync } from 'node:child_process'
import { resolve, sep } from 'node:path'
import { describe, expect, it } from 'vitest'
import { chromiumForTests } from './chromium.ts'

const NODE_MODULES = resolve(import.meta.dirname, '../node_modules') + sep
/** What every Linux has: glibc's libraries and the kernel's vDSO. */
const GLIBC = /^(linux-vdso\.so\.1|lib(c|m|dl|pthread|rt|gcc_s)\.so\.\d|\/lib64\/ld-linux-x86-64\.so\.2)$/

describe('the browser of the browser test', () => {
  it('is the one npm ci installed, unless SHOP_CHROMIUM names another, and links nothing of the system but glibc', {
    timeout: 60_000,
  }, async () => {
    const chromium = await chromiumForTests({ PATH: process.env.PATH })
    expect(chromium.executablePath.startsWith(NODE_MODULES), chromium.executablePath).toBe(true)
    const linked = execFileSync('ldd', [chromium.executablePath], {
      env: { ...process.env, ...chromium.env },
      encoding: 'utf8',
    })
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => line.trim().split(/\s+/))
    const fromSystem = linked.filter(
      ([name, arrow, path]) => !(GLIBC.test(name!) || (arrow === '=>' && path!.startsWith(NODE_MODULES))),
    )
    expect(fromSystem.map((words) => words.join(' '))).toEqual([])
    expect(
      execFileSync(chromium.executablePath, ['--version'], {
        env: { ...process.env, ...chromium.env },
        encoding: 'utf8',
      }),
    ).toMatch(/^Chromium \d+/)
  })

  it('stops the run in one line when SHOP_CHROMIUM names a browser that is not there', async () => {
    await expect(chromiumForTests({ SHOP_CHROMIUM: '/nonexistent' })).rejects.toThrow(
      /^Chromium is not at \/nonexistent \(SHOP_CHROMIUM\): [^\n]*unset SHOP_CHROMIUM to use the one npm ci installs/,
    )
  })
})
