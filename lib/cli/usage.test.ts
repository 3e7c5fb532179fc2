import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { FAULTS, VARIANTS } from '../../reference-target/index.ts'
import { CHECK_KINDS } from '../checks/index.ts'
import { SETTINGS, TOOL_VARIABLES, type SettingRow } from '../settings/config.ts'
import { runInTest } from '../../test-setup/child-processes.ts'
import { main } from './main.ts'
import { commandHelp, synopses, usage, type CommandName } from './usage.ts'
import { endpointText } from '../spec/endpoint-id.ts'

const ROOT = resolve(import.meta.dirname, '../..')
const BIN = join(ROOT, 'lib/cli/bin.mjs')
const README = readFileSync(join(ROOT, 'README.md'), 'utf8')
/** The settings table lives with the rest of what a run is told (docs/running.md, "Settings"); the usage block in the README. */
const RUNNING = readFileSync(join(ROOT, 'docs/running.md'), 'utf8')
const COMMANDS: CommandName[] = ['run', 'list', 'baseline', 'diff', 'report', 'matrix', 'sign', 'verify', 'target']

async function bin(args: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  const { status, stdout, stderr } = await runInTest(process.execPath, [BIN, ...args], { cwd: ROOT, env: { PATH: process.env.PATH ?? '' } })
  return { status: status ?? -1, stdout, stderr }
}

describe('one usage text', () => {
  it('is the README\'s usage block', () => {
    const block = /\n```\n(shop-conformance run [^]*?)```\n/.exec(README)?.[1]
    expect(block).toBe(synopses())
  })

  it('names every flag of the settings table in the synopsis of run, with its value, and no other', () => {
    const run = synopses().split('shop-conformance list')[0]!
    const words = ` ${run.replace(/[[\]|]/g, ' ').replace(/\s+/g, ' ')} `
    for (const row of SETTINGS as readonly SettingRow[]) {
      if (row.flag !== undefined) expect(words, row.flag).toContain(` ${row.flag}${row.value !== undefined ? ` ${row.value}` : ''} `)
    }
    const flags = new Set((SETTINGS as readonly SettingRow[]).flatMap((r) => (r.flag !== undefined ? [r.flag] : [])))
    for (const flag of run.match(/--[a-z-]+/g)!) expect(flags.has(flag as `--${string}`), flag).toBe(true)
  })

  it('is the settings table of docs/running.md, row by row', () => {
    const code = (t: string) => `\`${t}\``
    const rows = (SETTINGS as readonly SettingRow[]).map(
      (r) => `| ${r.shownAs !== undefined ? code(r.shownAs) : r.variables !== undefined ? r.variables.map(code).join(', ') : '—'} | ${r.flag !== undefined ? code(r.flag) : '—'} | ${r.default} |`,
    )
    const table = /\n\| setting \| flag \| default \|\n\|---\|---\|---\|\n((?:\|.*\n)+)/.exec(RUNNING)?.[1]
    expect(table).toBe(`${rows.join('\n')}\n`)
  })

  it('leaves no SHOP_ variable of the code unclassified: a setting, a variable of the project\'s tools, or no variable', () => {
    const notVariables = ['SHOP_BODY_TOO_LARGE'] // an error code of the client
    const known = new Set([...(SETTINGS as readonly SettingRow[]).flatMap((r) => r.variables ?? []), ...Object.keys(TOOL_VARIABLES), ...notVariables])
    // Every name outside the tests (which misspell settings on purpose), and every variable a test reads.
    const files = execFileSync('git', ['ls-files', '*.ts', '*.mjs', '.env.example'], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter((f) => f !== '' && !f.startsWith('fixtures/observations/'))
    for (const file of files) {
      const text = readFileSync(join(ROOT, file), 'utf8')
      const names = file.endsWith('.test.ts') ? [...text.matchAll(/\benv\.(SHOP_[A-Z0-9_]+)/g)].map((m) => m[1]!) : (text.match(/\bSHOP_[A-Z0-9_]+\b/g) ?? [])
      for (const name of names) expect(known.has(name), `${name} in ${file}`).toBe(true)
    }
    const example = readFileSync(join(ROOT, '.env.example'), 'utf8')
    for (const name of (SETTINGS as readonly SettingRow[]).flatMap((r) => r.variables ?? []).filter((v) => v.startsWith('SHOP_'))) expect(example, name).toContain(`# ${name}=`)
  })
})

describe.concurrent('--help', () => {
  const inProcess = async (argv: string[]) => {
    let stdout = ''
    let stderr = ''
    const status = await main(argv, { out: (t) => (stdout += t), err: (t) => (stderr += t) })
    return { status, stdout, stderr }
  }
  for (const command of COMMANDS.filter((c) => c !== 'target')) {
    it(`${command} --help prints its usage and exits 0`, async () => {
      expect(await inProcess(command === 'report' ? ['report', 'merge', '--help'] : [command, '--help'])).toEqual({ status: 0, stdout: commandHelp(command), stderr: '' })
    })
  }

  it('run --help explains every flag and setting, in plain text (no markdown)', () => {
    const help = commandHelp('run')
    for (const row of SETTINGS as readonly SettingRow[]) {
      const name = row.flag !== undefined ? `${row.flag}${row.value !== undefined ? ` ${row.value}` : ''}` : (row.shownAs ?? row.variables!.join(', '))
      expect(help, name).toMatch(new RegExp(`\\n  ${name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\\b.*: \\S`))
    }
    expect(help).not.toMatch(/`|\*\*|\*\w/)
    // The kinds --check takes, each named (a new kind must be added there).
    const check = (SETTINGS as readonly SettingRow[]).find((r) => r.flag === '--check')!
    expect([...check.default.matchAll(/`([a-z-]+)`/g)].map((m) => m[1])).toEqual([...CHECK_KINDS])
  })

  it('run --help through the binary, which loads the run\'s dependencies first', async () => {
    expect(await bin(['run', '--help'])).toEqual({ status: 0, stdout: commandHelp('run'), stderr: '' })
  })

  it('target --help lists each fault with what it breaks, and the variants', async () => {
    const r = await bin(['target', '--help'])
    expect(r).toMatchObject({ status: 0, stderr: '' })
    expect(r.stdout).toMatch(/^Usage:\n  shop-conformance target /)
    for (const [name, fault] of Object.entries(FAULTS)) {
      expect(r.stdout).toContain(`  ${name} — breaks ${fault.breaks} at ${endpointText(fault.defaultEndpoint)}: ${fault.description}\n`)
    }
    for (const name of Object.keys(VARIANTS)) expect(r.stdout).toContain(`  ${name}: `)
    expect(r.stdout).toMatch(/^Variants \(--variant/m)
  })

  it('--help and no command at all print the whole usage; without a command the status is 2, so a CI step that meant run cannot pass', async () => {
    expect(await bin(['--help'])).toEqual({ status: 0, stdout: usage(), stderr: '' })
    expect(await bin([])).toEqual({ status: 2, stdout: '', stderr: `shop-conformance: a command is required\n${usage()}` })
  })
})
