/**
 * A generic reader of the spec text: finds every `METHOD /V1/...` pair the spec names, wherever it names it
 * (table rows, bullet lines with several methods and paths, "POST and GET `a` and `b`", a backticked
 * "`PUT /V1/creditmemo/:id`" in prose, a method carried forward over a comma-separated list of paths), with
 * the access class the spec gives it. It is a small tokenizer over each line, not a list of special cases:
 * the catalog test uses it to keep the hand-written catalog honest.
 *
 * Rules:
 * - A line is read token by token: METHOD words (`GET`, `POST`, `PUT`, `DELETE`), backticked paths
 *   (`` `/V1/...` ``, or `` `METHOD /V1/...` `` in one span), access marks (`(anon)`, `(self)`,
 *   `(listed as self)`), separators (`,` and `and`) and any other word.
 * - Consecutive METHOD words joined by separators form one set ("POST and GET"); each path that follows
 *   gets every method of the set, and the set carries forward over further paths joined by separators or
 *   marks. Any other word ends the set.
 * - On a list or prose line, the marks before the first " — " apply to every pair named before it; pairs
 *   after it carry no mark. In a table, a column headed "Access" gives the access of the pairs in its row.
 * - Paths are normalised (no trailing slash). Unmarked pairs are `admin` unless another mention of the same
 *   pair carries a mark (the spec cross-references endpoints without repeating their marks).
 */
import type { AccessClass, HttpMethod } from './types.ts'
import { endpointText } from './endpoint-id.ts'
import { defined } from '../base/defined.ts'

interface SpecEndpoint {
  method: HttpMethod
  path: string
  access: AccessClass
}

/** One mention of a method+path pair in the spec text. */
interface SpecOccurrence {
  method: HttpMethod
  /** Normalised path (no trailing slash). */
  path: string
  /** The path exactly as written. */
  rawPath: string
  /** Access the spec gives on this line (mark or Access column); absent when the line gives none. */
  mark?: AccessClass
  /** Headings above the line, from level 2 down, joined with " › ". */
  section: string
  /** 1-based line number. */
  lineNo: number
  line: string
}

interface SpecEndpointDetail extends SpecEndpoint {
  /** Distinct sections naming the pair, in document order. */
  sections: string[]
  occurrences: SpecOccurrence[]
}

const DASH = ' — '

function normalisePath(path: string): string {
  return path.length > 1 ? path.replace(/\/+$/, '') : path
}

function markOf(text: string): AccessClass | undefined {
  const t = text.trim().toLowerCase()
  if (t === 'anon' || t === 'anonymous') return 'anon'
  if (t === 'self' || t === 'listed as self') return 'self'
  if (t === 'admin') return 'admin'
  return undefined
}

type Token =
  | { kind: 'method'; method: HttpMethod }
  | { kind: 'path'; path: string; method?: HttpMethod }
  | { kind: 'mark'; access: AccessClass }
  | { kind: 'sep' }
  | { kind: 'other' }

const TOKEN_RE = /`([^`]*)`|\((anon|self|listed as self)\)|\b(GET|POST|PUT|DELETE)\b|(,|\band\b)|([^\s`,]+)/g
const SPAN_PAIR_RE = /^(GET|POST|PUT|DELETE)\s+(\/V1(?:\/\S*)?)$/
const SPAN_PATH_RE = /^\/V1(?:\/\S*)?$/

function tokenize(text: string): Token[] {
  const out: Token[] = []
  for (const m of text.matchAll(TOKEN_RE)) {
    const [, span, mark, method, sep] = m
    if (span !== undefined) {
      const s = span.trim()
      const [, pairMethod, pairPath] = SPAN_PAIR_RE.exec(s) ?? []
      if (pairMethod !== undefined && pairPath !== undefined)
        out.push({ kind: 'path', method: pairMethod as HttpMethod, path: pairPath })
      else if (SPAN_PATH_RE.test(s)) out.push({ kind: 'path', path: s })
      else out.push({ kind: 'other' })
    } else if (mark !== undefined)
      out.push({
        kind: 'mark',
        access: defined(markOf(mark), `the access class of the mark "${mark}" TOKEN_RE matched`),
      })
    else if (method !== undefined) out.push({ kind: 'method', method: method as HttpMethod })
    else if (sep !== undefined) out.push({ kind: 'sep' })
    else out.push({ kind: 'other' })
  }
  return out
}

/** Pairs and marks named in one stretch of text. */
function readSegment(text: string): { pairs: { method: HttpMethod; rawPath: string }[]; marks: AccessClass[] } {
  const pairs: { method: HttpMethod; rawPath: string }[] = []
  const marks: AccessClass[] = []
  let methods: HttpMethod[] = []
  let state: 'none' | 'methods' | 'paths' = 'none'
  for (const tok of tokenize(text)) {
    switch (tok.kind) {
      case 'method':
        if (state === 'methods') methods.push(tok.method)
        else methods = [tok.method]
        state = 'methods'
        break
      case 'path':
        if (tok.method) {
          methods = [tok.method]
          state = 'paths'
        }
        if (state !== 'none' && methods.length > 0) {
          for (const method of methods) pairs.push({ method, rawPath: tok.path })
          state = 'paths'
        }
        break
      case 'mark':
        marks.push(tok.access)
        break
      case 'sep':
        break
      case 'other':
        methods = []
        state = 'none'
        break
    }
  }
  return { pairs, marks }
}

function splitCells(line: string): string[] {
  let s = line.trim()
  if (s.startsWith('|')) s = s.slice(1)
  if (s.endsWith('|')) s = s.slice(0, -1)
  return s.split('|').map((c) => c.trim())
}

const isTableSeparator = (line: string | undefined): boolean =>
  line !== undefined && /^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/.test(line)

/** Every mention of a method+path pair, in document order. Throws when one line gives two different marks. */
export function extractSpecOccurrences(markdown: string): SpecOccurrence[] {
  const lines = markdown.split(/\r?\n/)
  const headings: string[] = []
  const out: SpecOccurrence[] = []
  let header: string[] | undefined
  let inFence = false

  lines.forEach((line, i) => {
    const lineNo = i + 1
    if (/^\s*```/.test(line)) {
      inFence = !inFence
      return
    }
    if (inFence) return
    const [, hashes, title] = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line) ?? []
    if (hashes !== undefined && title !== undefined) {
      const level = hashes.length
      headings.length = level - 1
      headings[level - 1] = title
      header = undefined
      return
    }
    const section = headings
      .slice(1)
      .filter((x) => x !== undefined)
      .join(' › ')
    const push = (pairs: { method: HttpMethod; rawPath: string }[], marks: AccessClass[]) => {
      const distinct = [...new Set(marks)]
      if (distinct.length > 1) throw new Error(`line ${lineNo}: several access marks (${distinct.join(', ')}): ${line}`)
      for (const p of pairs) {
        out.push({
          method: p.method,
          path: normalisePath(p.rawPath),
          rawPath: p.rawPath,
          ...(distinct[0] ? { mark: distinct[0] } : {}),
          section,
          lineNo,
          line,
        })
      }
    }

    if (/^\s*\|/.test(line)) {
      if (isTableSeparator(line)) return
      const cells = splitCells(line)
      if (isTableSeparator(lines[i + 1])) {
        header = cells
        return
      }
      const accessCol = header?.findIndex((c) => c.toLowerCase() === 'access') ?? -1
      const cellAccess = accessCol >= 0 ? markOf((cells[accessCol] ?? '').split(/[,\s]/)[0] ?? '') : undefined
      for (const cell of cells) {
        const { pairs, marks } = readSegment(cell)
        push(pairs, cellAccess ? [cellAccess, ...marks] : marks)
      }
      return
    }
    header = undefined

    const dash = line.indexOf(DASH)
    const head = dash >= 0 ? line.slice(0, dash) : line
    const tail = dash >= 0 ? line.slice(dash + DASH.length) : ''
    const h1 = readSegment(head)
    push(h1.pairs, h1.marks)
    if (tail) push(readSegment(tail).pairs, [])
  })
  return out
}

const pairKey = (p: { method: string; path: string }): string => endpointText(p)

/**
 * Pairs merged over their mentions. `conflicts` lists pairs whose mentions give different explicit access
 * classes (the first explicit one is kept in `access`).
 */
export function extractSpecEndpointsDetailed(markdown: string): {
  endpoints: SpecEndpointDetail[]
  conflicts: string[]
} {
  const byKey = new Map<string, SpecOccurrence[]>()
  for (const occ of extractSpecOccurrences(markdown)) {
    const k = pairKey(occ)
    const list = byKey.get(k)
    if (list) list.push(occ)
    else byKey.set(k, [occ])
  }
  const endpoints: SpecEndpointDetail[] = []
  const conflicts: string[] = []
  for (const [k, occurrences] of byKey) {
    const first = defined(occurrences[0], `the first occurrence of ${k} (a list is made with one)`)
    const marks = [...new Set(occurrences.flatMap((o) => (o.mark ? [o.mark] : [])))]
    if (marks.length > 1) {
      conflicts.push(
        `${k}: ${occurrences
          .filter((o) => o.mark)
          .map((o) => `${o.mark} (line ${o.lineNo})`)
          .join(' vs ')}`,
      )
    }
    endpoints.push({
      method: first.method,
      path: first.path,
      access: marks[0] ?? 'admin',
      sections: [...new Set(occurrences.map((o) => o.section))],
      occurrences,
    })
  }
  return { endpoints, conflicts }
}

/** Every method+path pair the spec names, normalised and deduplicated, with its access class. */
export function extractSpecEndpoints(markdown: string): SpecEndpoint[] {
  return extractSpecEndpointsDetailed(markdown).endpoints.map(({ method, path, access }) => ({ method, path, access }))
}
