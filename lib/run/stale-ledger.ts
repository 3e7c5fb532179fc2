/**
 * A report directory's `ledger.jsonl` that a run left without writing its report (a `kill -9`, a machine that
 * went down): what that run made may still be on the shop, and the ledger is the only list of it. The next run into
 * the directory keeps it under that run's id instead of starting its own over it (`shop-conformance cleanup
 * --ledger FILE` removes what it names). A ledger whose run wrote its report there is not kept: the report lists
 * its leftovers; nor one that names nothing the shop may hold, nor one of the bundled target (its data ended with it).
 */
import { closeSync, existsSync, openSync, readSync, renameSync } from 'node:fs'
import { join } from 'node:path'
import { Ledger, ledgerEntities, ledgerHead, ledgerRunId } from '../setup/ledger.ts'

export const LEDGER_FILE = 'ledger.jsonl'

/** Moves a stale ledger of `dir` aside; returns where it is kept and whose it is, or nothing when there is none. */
export function keepStaleLedger(dir: string): { file: string; runId: string | undefined } | undefined {
  const file = join(dir, LEDGER_FILE)
  if (!ledgerEntities(Ledger.read(file)).some((e) => e.state !== 'refused')) return undefined
  const head = ledgerHead(file)
  if (head !== undefined && head.baseUrl === undefined) return undefined
  const runId = ledgerRunId(file)
  const reported = reportRunId(dir)
  // A ledger that names no run (an old one of carts only) is its report's if there is a report at all.
  if (runId === undefined ? reported !== undefined : reported === runId) return undefined
  const kept = freeName(dir, `ledger.${runId ?? 'unknown-run'}`)
  renameSync(file, kept)
  return { file: kept, runId }
}

/** The run id of the directory's report.json, read from its start (`run.id` comes before the results). */
function reportRunId(dir: string): string | undefined {
  let fd: number
  try {
    fd = openSync(join(dir, 'report.json'), 'r')
  } catch {
    return undefined
  }
  try {
    const start = Buffer.alloc(64 * 1024)
    const length = readSync(fd, start, 0, start.length, 0)
    return /"run":\s*\{\s*"id":\s*"([^"]+)"/.exec(start.subarray(0, length).toString('utf8'))?.[1]
  } finally {
    closeSync(fd)
  }
}

/** `<base>.jsonl`, or `<base>.2.jsonl` … where that is taken: a kept ledger is never overwritten either. */
function freeName(dir: string, base: string): string {
  for (let n = 1; ; n++) {
    const name = join(dir, n === 1 ? `${base}.jsonl` : `${base}.${n}.jsonl`)
    if (!existsSync(name)) return name
  }
}
