import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CHECK_KINDS } from '../checks/index.ts'
import { SETTINGS, type SettingRow } from '../settings/config.ts'
import { main } from './main.ts'
import { commandHelp, synopses, type CommandName } from './usage.ts'

const ROOT = resolve(import.meta.dirname, '../..')
const README = readFileSync(join(ROOT, 'README.md'), 'utf8')
/**
 * The settings table lives with the rest of what a run is told (docs/running.md, "Settings"); the usage block in the
 * README.
 */
const RUNNING = readFileSync(join(ROOT, 'docs/running.md'), 'utf8')
const COMMANDS: CommandName[] = [
  'run',
  'list',
  'baseline',
  'diff',
  'report',
  'matrix',
  'sign',
  'verify',
  'keygen',
  'certify',
  'registry',
  'cleanup',
  'target',
]

describe('one usage text', () => {
  it("is the README's usage block", () => {
    const block = /\n```\n(shop-conformance run [^]*?)```\n/.exec(README)?.[1]
    expect(block).toBe(synopses())
  })

  it('names every flag of the settings table in the synopsis of run, with its value, and no other', () => {
    const run = synopses().split('shop-conformance list')[0]!
    const words = ` ${run.replace(/[[\]|]/g, ' ').replace(/\s+/g, ' ')} `
    for (const row of SETTINGS as readonly SettingRow[]) {
      if (row.flag !== undefined)
        expect(words, row.flag).toContain(` ${row.flag}${row.value !== undefined ? ` ${row.value}` : ''} `)
    }
    const flags = new Set((SETTINGS as readonly SettingRow[]).flatMap((r) => (r.flag !== undefined ? [r.flag] : [])))
    for (const flag of run.match(/--[a-z-]+/g)!) expect(flags.has(flag as `--${string}`), flag).toBe(true)
  })

  it('is the settings table of docs/running.md, row by row', () => {
    const code = (t: string) => `\`${t}\``
    const settingCell = (r: SettingRow) => {
      if (r.shownAs !== undefined) return code(r.shownAs)
      return r.variables !== undefined ? r.variables.map(code).join(', ') : '—'
    }
    const rows = (SETTINGS as readonly SettingRow[]).map(
      (r) => `| ${settingCell(r)} | ${r.flag !== undefined ? code(r.flag) : '—'} | ${r.default} |`,
    )
    const table = /\n\| setting \| flag \| default \|\n\|---\|---\|---\|\n((?:\|.*\n)+)/.exec(RUNNING)?.[1]
    expect(table).toBe(`${rows.join('\n')}\n`)
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
      expect(await inProcess(command === 'report' ? ['report', 'merge', '--help'] : [command, '--help'])).toEqual({
        status: 0,
        stdout: commandHelp(command),
        stderr: '',
      })
    })
  }

  it('run --help explains every flag and setting, in plain text (no markdown)', () => {
    const help = commandHelp('run')
    for (const row of SETTINGS as readonly SettingRow[]) {
      const name =
        row.flag !== undefined
          ? `${row.flag}${row.value !== undefined ? ` ${row.value}` : ''}`
          : (row.shownAs ?? row.variables!.join(', '))
      expect(help, name).toMatch(new RegExp(`\\n  ${name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\\b.*: \\S`))
    }
    expect(help).not.toMatch(/`|\*\*|\*\w/)
    // The kinds --check takes, each named (a new kind must be added there).
    const check = (SETTINGS as readonly SettingRow[]).find((r) => r.flag === '--check')!
    expect([...check.default.matchAll(/`([a-z-]+)`/g)].map((m) => m[1])).toEqual([...CHECK_KINDS])
  })
})
