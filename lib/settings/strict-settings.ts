/**
 * What makes settings strict: a setting that silently does nothing (a typo in a name, a line dotenv drops)
 * could let a run write to a shop the user meant to protect with `SHOP_READ_ONLY`.
 */
import { readFileSync } from 'node:fs'
import { parse as parseDotenv } from 'dotenv'
import { UsageError } from '../base/usage-error.ts'
import { defined } from '../base/defined.ts'

/** Variables by name: the environment's, or those of `.env`. */
export type Env = Record<string, string | undefined>

/**
 * Reads `.env` in `dir` when present (its values rank below the real environment); a line dotenv would drop is refused.
 */
export function readDotenv(dir: string): Env {
  let text: string
  try {
    text = readFileSync(`${dir}/.env`, 'utf8')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {}
    throw new UsageError(`.env: cannot read it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`)
  }
  const unreadable = unreadableLine(text)
  // The line itself is not shown: it may hold a password.
  if (unreadable !== undefined)
    throw new UsageError(`.env line ${unreadable}: not NAME=value, a comment or a blank line`)
  return parseDotenv(text)
}

/**
 * The `SHOP_*` variables of the environment and `.env` that are no setting: one a typo away from a known name is
 * refused naming it; the others are returned, to be named in a warning (a CI may use the prefix for its own
 * things). A value is never shown: it may be a password.
 */
export function unknownVariables(env: Env, dotenv: Env, known: readonly string[]): string[] {
  const unknown: string[] = []
  for (const [source, vars] of [
    ['the environment', env],
    ['.env', dotenv],
  ] as const) {
    for (const name of Object.keys(vars)) {
      if (!/^shop_/i.test(name) || known.includes(name) || unknown.includes(name)) continue
      const near = nearName(name, known)
      if (near !== undefined) throw new UsageError(`${name} (in ${source}): not a setting; did you mean ${near}?`)
      unknown.push(name)
    }
  }
  return unknown
}

/** The first line (1-based) dotenv would drop without a word: not blank, not a comment, not NAME=value. */
function unreadableLine(text: string): number | undefined {
  const lines = text.split(/\r?\n/)
  for (let i = 0; i < lines.length; i++) {
    const line = defined(lines[i], 'a line inside the text')
    if (/^\s*(#.*)?$/.test(line)) continue
    // dotenv's own grammar: optional `export`, a name of word characters, dots and dashes, `=` or `: `.
    const m = /^\s*(?:export\s+)?[\w.-]+(?:\s*=|:\s)\s*(.*)$/.exec(line)
    if (m === null) return i + 1
    const value = defined(m[1], 'the value group')
    const quote = /^["'`]/.exec(value)?.[0]
    if (quote === undefined || closes(value.slice(1), quote)) continue
    // A quoted value may run over several lines, up to its closing quote.
    const start = i
    do i++
    while (i < lines.length && !closes(defined(lines[i], 'a line inside the text'), quote))
    if (i === lines.length) return start + 1
  }
  return undefined
}

function closes(text: string, quote: string): boolean {
  return new RegExp(`(^|[^\\\\])${quote}`).test(text)
}

/** The known name `name` is a typo of: within two edits of it, case aside. */
function nearName(name: string, known: readonly string[]): string | undefined {
  return known.find((k) => editDistance(name.toUpperCase(), k.toUpperCase()) <= 2)
}

/** Edits (insert, delete, replace, swap two neighbours) that turn `a` into `b`. */
function editDistance(a: string, b: string): number {
  // The first row and column: the distance from or to the empty prefix (i + j, one of them 0).
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 || j === 0 ? i + j : 0)),
  )
  const at = (i: number, j: number): number => defined(d[i]?.[j], 'a cell inside the edit table')
  for (let i = 1; i <= a.length; i++) {
    const row = defined(d[i], 'a row inside the edit table')
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      row[j] = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        row[j] = Math.min(at(i, j), at(i - 2, j - 2) + 1)
    }
  }
  return at(a.length, b.length)
}
