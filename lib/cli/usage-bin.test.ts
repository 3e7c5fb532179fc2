/**
 * What of the usage text needs a process: the binary's --help (which loads the run's dependencies first, and
 * the target's faults and variants), and git's list of the project's files, each SHOP_ variable of which must be
 * a known one. The usage text itself, in-process: usage.test.ts.
 */
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { FAULTS, VARIANTS } from '../../reference-target/index.ts'
import { SETTINGS, TOOL_VARIABLES, type SettingRow } from '../settings/config.ts'
import { runInTest } from '../../test-setup/child-processes.ts'
import { commandHelp, usage } from './usage.ts'
import { endpointText } from '../spec/endpoint-id.ts'

const ROOT = resolve(import.meta.dirname, '../..')
const BIN = join(ROOT, 'lib/cli/bin.mjs')

async function bin(args: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  const { status, stdout, stderr } = await runInTest(process.execPath, [BIN, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '' },
  })
  return { status: status ?? -1, stdout, stderr }
}

describe('the settings', () => {
  it("leaves no SHOP_ variable of the code unclassified: a setting, a variable of the project's tools, or no variable", () => {
    const notVariables = ['SHOP_BODY_TOO_LARGE'] // an error code of the client
    const known = new Set([
      ...(SETTINGS as readonly SettingRow[]).flatMap((r) => r.variables ?? []),
      ...Object.keys(TOOL_VARIABLES),
      ...notVariables,
    ])
    // Every name outside the tests (which misspell settings on purpose), and every variable a test reads.
    const files = execFileSync('git', ['ls-files', '*.ts', '*.mjs', '.env.example'], { cwd: ROOT, encoding: 'utf8' })
      .split('\n')
      .filter((f) => f !== '' && !f.startsWith('fixtures/observations/'))
    for (const file of files) {
      const text = readFileSync(join(ROOT, file), 'utf8')
      const names = file.endsWith('.test.ts')
        ? [...text.matchAll(/\benv\.(SHOP_[A-Z0-9_]+)/g)].map((m) => m[1]!)
        : (text.match(/\bSHOP_[A-Z0-9_]+\b/g) ?? [])
      for (const name of names) expect(known.has(name), `${name} in ${file}`).toBe(true)
    }
    const example = readFileSync(join(ROOT, '.env.example'), 'utf8')
    for (const name of (SETTINGS as readonly SettingRow[])
      .flatMap((r) => r.variables ?? [])
      .filter((v) => v.startsWith('SHOP_')))
      expect(example, name).toContain(`# ${name}=`)
  })
})

describe.concurrent('--help through the binary', () => {
  it("run --help through the binary, which loads the run's dependencies first", async () => {
    expect(await bin(['run', '--help'])).toEqual({ status: 0, stdout: commandHelp('run'), stderr: '' })
  })

  it('target --help lists each fault with what it breaks, and the variants', async () => {
    const r = await bin(['target', '--help'])
    expect(r).toMatchObject({ status: 0, stderr: '' })
    expect(r.stdout).toMatch(/^Usage:\n  shop-conformance target /)
    for (const [name, fault] of Object.entries(FAULTS)) {
      expect(r.stdout).toContain(
        `  ${name} — breaks ${fault.breaks} at ${endpointText(fault.defaultEndpoint)}: ${fault.description}\n`,
      )
    }
    for (const name of Object.keys(VARIANTS)) expect(r.stdout).toContain(`  ${name}: `)
    expect(r.stdout).toMatch(/^Variants \(--variant/m)
  })

  it('--help and no command at all print the whole usage; without a command the status is 2, so a CI step that meant run cannot pass', async () => {
    expect(await bin(['--help'])).toEqual({ status: 0, stdout: usage(), stderr: '' })
    expect(await bin([])).toEqual({
      status: 2,
      stdout: '',
      stderr: `shop-conformance: a command is required\n${usage()}`,
    })
  })
})
