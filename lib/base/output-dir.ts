/**
 * Directories a command writes into, checked before anything is sent or written: a run whose report cannot be
 * written must not start, and a bad path is a setting error of one line, not an "internal error" at the end.
 */
import { accessSync, constants, lstatSync, mkdirSync, readlinkSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { UsageError } from './usage-error.ts'

/**
 * Makes sure `dir` is a directory a file can be written into, creating it (and its missing parents) unless
 * `create` is false — then it is enough that it could be created. `setting` names the flag in the message.
 */
export function ensureWritableDir(dir: string, setting: string, options: { create: boolean } = { create: true }): void {
  const fail = (why: string) => new UsageError(`${setting}: "${dir}" ${why}`)
  const path = resolve(dir)
  const existing = nearestExisting(path)
  const kind = kindOf(existing)
  if (kind === 'dangling link')
    throw fail(
      existing === path
        ? `is a link to nothing (${readLink(path)})`
        : `cannot be created: ${existing} is a link to nothing`,
    )
  if (kind === 'file')
    throw fail(existing === path ? 'is a file, not a directory' : `cannot be created: ${existing} is a file`)
  if (existing !== path && !options.create) {
    try {
      accessSync(existing, constants.W_OK | constants.X_OK)
    } catch (err) {
      throw fail(`cannot be created in ${existing} (${code(err)})`)
    }
    return
  }
  if (existing !== path) {
    try {
      makeDirectories(existing, path)
    } catch (err) {
      throw fail(`cannot be created (${code(err)})`)
    }
  }
  // Permission bits do not say it all (read-only mounts, ACLs, root): writing a file does.
  const probe = join(path, `.shop-conformance-write-test-${process.pid}`)
  try {
    writeFileSync(probe, '')
    rmSync(probe)
  } catch (err) {
    throw fail(`is not writable (${code(err)})`)
  }
}

/** The path itself when it exists (also as a link to nothing), else its nearest ancestor that does. */
function nearestExisting(path: string): string {
  let p = path
  for (;;) {
    try {
      lstatSync(p)
      return p
    } catch {
      const parent = dirname(p)
      if (parent === p) return p
      p = parent
    }
  }
}

function kindOf(path: string): 'directory' | 'file' | 'dangling link' {
  try {
    return statSync(path).isDirectory() ? 'directory' : 'file'
  } catch {
    return 'dangling link'
  }
}

function readLink(path: string): string {
  try {
    return readlinkSync(path)
  } catch (err) {
    return code(err)
  }
}

/**
 * One directory at a time below `existing`: `mkdirSync(path, { recursive: true })` never returns for a path
 * under /proc (it retries the ENOENT forever, on Node 20).
 */
function makeDirectories(existing: string, path: string): void {
  const missing: string[] = []
  for (let p = path; p !== existing; p = dirname(p)) missing.unshift(p)
  for (const p of missing) mkdirSync(p)
}

function code(err: unknown): string {
  return (err as NodeJS.ErrnoException).code ?? (err as Error).message
}
