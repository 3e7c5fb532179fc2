import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startReferenceTarget, type ReferenceTarget } from '../../reference-target/index.ts'
import { reportOf } from '../report/testing.ts'
import { ensureWritableDir } from '../base/output-dir.ts'
import { main } from './main.ts'
import { cli } from './testing.ts'

// Each refusal is one line, exit status 2, and not one request reaches the target. In-process where the binary
// adds nothing (with --dry-run, so that a setting wrongly accepted could not start a run inside the test).
describe.concurrent('settings that would silently do nothing, secrets and paths', () => {
  let target: ReferenceTarget
  let env: Record<string, string>
  const scratch = mkdtempSync(join(tmpdir(), 'shop-conformance-settings-'))
  beforeAll(async () => {
    target = await startReferenceTarget()
    env = {
      SHOP_BASE_URL: target.url,
      SHOP_ADMIN_USERNAME: target.admin.username,
      SHOP_ADMIN_PASSWORD: target.admin.password,
    }
  })
  afterAll(async () => {
    expect(target.stats().requests).toBe(0)
    await target.close()
    rmSync(scratch, { recursive: true, force: true })
  })

  const inProcess = async (args: string[], options: { dotenv?: string; env?: Record<string, string> } = {}) => {
    const cwd = mkdtempSync(join(scratch, 'cwd-'))
    if (options.dotenv !== undefined) writeFileSync(join(cwd, '.env'), options.dotenv)
    let stdout = ''
    let stderr = ''
    const status = await main(
      ['run', ...args, '--dry-run'],
      { out: (t) => (stdout += t), err: (t) => (stderr += t) },
      { env: { ...env, ...options.env }, cwd },
    )
    return { status, stdout, stderr, report: undefined }
  }
  const refused = async (
    args: string[],
    message: string | RegExp,
    options: { dotenv?: string; env?: Record<string, string>; binary?: boolean } = {},
  ) => {
    const run =
      options.binary === true
        ? await cli(
            ['run', ...args],
            { ...env, ...options.env },
            options.dotenv !== undefined ? { dotenv: options.dotenv } : {},
          )
        : await inProcess(args, options)
    expect(run.status, args.join(' ')).toBe(2)
    expect(run.stderr.split('\n').slice(0, -1), args.join(' ')).toHaveLength(1)
    if (typeof message === 'string') expect(run.stderr).toBe(`shop-conformance: ${message}\n`)
    else expect(run.stderr).toMatch(message)
    expect(run.report).toBeUndefined()
    return run
  }

  it('a typo of a setting in .env or the environment', async () => {
    await refused([], 'SHOP_READONLY (in .env): not a setting; did you mean SHOP_READ_ONLY?', {
      dotenv: 'SHOP_READONLY=1\n',
      binary: true,
    })
    await refused([], 'SHOP_REPORTDIR (in the environment): not a setting; did you mean SHOP_REPORT_DIR?', {
      env: { SHOP_REPORTDIR: 'out' },
    })
  })

  it('an unparseable .env line, by its number and without its text', async () => {
    const run = await refused([], '.env line 2: not NAME=value, a comment or a blank line', {
      dotenv: '# staging\nSHOP_ADMIN_PASSWORD Pass-w0rd-9\n',
    })
    expect(run.stderr).not.toContain('Pass-w0rd-9')
  })

  // Empty values and selections, --progress with --quiet: lib/settings/config.test.ts (the same one line).
  it('a negative number, as a number', async () => {
    await refused(
      ['--concurrency', '-3'],
      '--concurrency / SHOP_CONCURRENCY: "-3" must be a whole number from 1 to 256',
    )
  })

  it('the password of a base URL is never echoed', async () => {
    const run = await refused(
      ['--base-url', 'http://qa:Pass-w0rd-9@shop.example'],
      /^shop-conformance: --base-url \/ SHOP_BASE_URL: "http:\/\/\[redacted\]@shop\.example" must not carry a user or password/,
    )
    expect(run.stderr).not.toContain('Pass-w0rd-9')
  })

  it('a report directory that is a file, a link to nothing, under /proc, or not writable', async () => {
    const file = join(scratch, 'a-file')
    writeFileSync(file, '')
    const link = join(scratch, 'a-link')
    symlinkSync('/nonexistent/reports', link)
    const flag = '--report-dir / SHOP_REPORT_DIR'
    // The run's check (a dry run only checks that the directory could be made), as the run calls it…
    const refusal = (dir: string) => {
      try {
        ensureWritableDir(dir, flag, { create: true })
        return undefined
      } catch (err) {
        return `shop-conformance: ${(err as Error).message}\n`
      }
    }
    expect(refusal(link)).toBe(`shop-conformance: ${flag}: "${link}" is a link to nothing (/nonexistent/reports)\n`)
    // Node's recursive mkdir never returns for a path under /proc: this one must, at once.
    expect(refusal('/proc/nope')).toBe(`shop-conformance: ${flag}: "/proc/nope" cannot be created (ENOENT)\n`)
    expect(refusal('/proc/self')).toMatch(
      new RegExp(`^shop-conformance: ${flag}: "/proc/self" is not writable \\(E[A-Z]+\\)\\n$`),
    )
    expect(refusal(`${file}/sub`)).toBe(
      `shop-conformance: ${flag}: "${file}/sub" cannot be created: ${file} is a file\n`,
    )
    // …and through the binary once: the run refuses before any request, in one line.
    await refused(['--report-dir', file], `${flag}: "${file}" is a file, not a directory`, { binary: true })
  })

  it('report merge checks its --out the same way, before writing anything', async () => {
    const dir = mkdtempSync(join(scratch, 'merge-'))
    const input = join(dir, 'shard.json')
    writeFileSync(input, JSON.stringify(reportOf([])))
    for (const [out, why] of [
      [join(dir, 'shard.json'), 'is a file, not a directory'],
      ['/proc/nope', 'cannot be created (ENOENT)'],
    ] as const) {
      let stdout = ''
      let stderr = ''
      const status = await main(
        ['report', 'merge', '--out', out, input],
        { out: (t) => (stdout += t), err: (t) => (stderr += t) },
        { env: {}, cwd: dir },
      )
      expect({ status, stdout, stderr }).toEqual({
        status: 2,
        stdout: '',
        stderr: `shop-conformance: report merge: --out: "${out}" ${why}\n`,
      })
    }
  })

  it('an unknown SHOP_ variable is named in a warning at start, and the run goes on', async () => {
    const run = await inProcess([], { env: { SHOP_DEPLOY_TEAM: 'qa' } })
    expect(run.status).toBe(0)
    expect(run.stderr).toBe(
      'shop-conformance: warning: SHOP_DEPLOY_TEAM is not a setting of shop-conformance: ignored\n',
    )
  })
})
