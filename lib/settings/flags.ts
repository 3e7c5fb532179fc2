/** The flags of `run`, parsed as the settings table declares them (a value or a switch, once or repeated). */
import { parseArgs } from 'node:util'
import { UsageError } from '../base/usage-error.ts'
import { SETTINGS, type SettingRow } from './settings-table.ts'
import { defined } from '../base/defined.ts'

type FlagRow = Extract<(typeof SETTINGS)[number], { flag: string }>
type FlagOptions = {
  [R in FlagRow as R['flag'] extends `--${infer Name}` ? Name : never]: R extends { value: string }
    ? R extends { multiple: true }
      ? { type: 'string'; multiple: true }
      : { type: 'string' }
    : { type: 'boolean' }
}

const FLAGS = Object.fromEntries(
  SETTINGS.flatMap((row: SettingRow) =>
    row.flag === undefined
      ? []
      : [
          [
            row.flag.slice(2),
            row.value === undefined
              ? { type: 'boolean' }
              : { type: 'string', ...(row.multiple === true ? { multiple: true } : {}) },
          ],
        ],
  ),
) as FlagOptions

export function parseFlags(argv: string[]) {
  let values
  try {
    values = parseArgs({ args: valuesAttached(argv), options: FLAGS, strict: true, allowPositionals: false }).values
  } catch (err) {
    throw new UsageError(defined((err as Error).message.split('\n')[0], "the message's first line"))
  }
  for (const [name, value] of Object.entries(values)) {
    if (value === '' || (Array.isArray(value) && value.includes(''))) throw new UsageError(`--${name}: an empty value`)
  }
  return values
}

/**
 * `--concurrency -3` as `--concurrency=-3`: parseArgs takes a value starting with a dash for a forgotten value,
 * which would give `-3` another message than `0`. A known flag after a flag is still a forgotten value.
 */
function valuesAttached(argv: string[]): string[] {
  const out: string[] = []
  for (let i = 0; i < argv.length; i++) {
    const arg = defined(argv[i], 'an argument inside argv')
    const name = arg.startsWith('--') ? arg.slice(2) : undefined
    const next = argv[i + 1]
    const takesValue =
      name !== undefined && Object.hasOwn(FLAGS, name) && FLAGS[name as keyof typeof FLAGS].type === 'string'
    if (
      takesValue &&
      next !== undefined &&
      next.startsWith('-') &&
      !Object.hasOwn(FLAGS, defined(next.replace(/^--/, '').split('=')[0], "the flag's name"))
    ) {
      out.push(`${arg}=${next}`)
      i++
    } else out.push(arg)
  }
  return out
}
