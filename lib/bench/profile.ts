/**
 * `node --import tsx lib/bench/profile.ts FILE.cpuprofile [--top N] [--inclusive REGEX] [--timeline MS]`: where a
 * profiled run spent its time — self time by function and by package, and total (inclusive) time of the functions
 * matching REGEX. Profiles come from `npm run bench -- --quick --config c16 --cpu-prof DIR` (one file per thread).
 */
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { defined } from '../base/defined.ts'

interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number }
  children?: number[]
}

export interface CpuProfile {
  nodes: ProfileNode[]
  samples: number[]
  timeDeltas: number[]
  startTime: number
  endTime: number
}

interface ProfileSummary {
  totalMs: number
  /** Self time by function (`name url:line`), largest first. */
  functions: [string, number][]
  /** Self time by where the code lives: a package under node_modules, node internals, the project's own files. */
  places: [string, number][]
  /** Inclusive time of functions whose `name url` matches, per distinct function. */
  inclusive: [string, number][]
  /** Per time slice from the profile's start: busy ms and the places that took most of it. */
  timeline: { fromMs: number; busyMs: number; top: [string, number][] }[]
}

/** Where a script URL belongs: `vitest`, `undici`, `(node)`, `lib/run`, `(program)`, … */
export function placeOf(url: string, functionName: string): string {
  if (url === '') return functionName.startsWith('(') ? functionName : '(native)'
  if (url.startsWith('node:')) return '(node)'
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)
  if (pkg !== null) return defined(pkg[1], 'the package group of the node_modules pattern')
  const own = /\/(lib\/[^/]+|fixtures|suites)\//.exec(url)
  return own !== null ? defined(own[1], 'the folder group of the own-code pattern') : url
}

export function summariseProfile(profile: CpuProfile, inclusivePattern?: RegExp, sliceMs = 250): ProfileSummary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]))
  const self = new Map<number, number>()
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000))
  const key = (n: ProfileNode) =>
    `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.replace(/^file:\/\/.*?\/(node_modules|lib|fixtures|suites)\//, '$1/')}:${n.callFrame.lineNumber + 1}`
  const functions = new Map<string, number>()
  const places = new Map<string, number>()
  for (const [id, ms] of self) {
    const n = defined(byId.get(id), 'the profile node of a sampled id')
    functions.set(key(n), (functions.get(key(n)) ?? 0) + ms)
    const p = placeOf(n.callFrame.url, n.callFrame.functionName)
    places.set(p, (places.get(p) ?? 0) + ms)
  }
  const inclusive = new Map<string, number>()
  if (inclusivePattern !== undefined) {
    const parent = new Map<number, number>()
    for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
    for (const [id, ms] of self) {
      // Each sample counts once per matching function on its stack, however often the function recurses.
      const seen = new Set<string>()
      for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
        const n = defined(byId.get(cur), 'the profile node of a parent id')
        const k = key(n)
        if (!seen.has(k) && inclusivePattern.test(k)) {
          seen.add(k)
          inclusive.set(k, (inclusive.get(k) ?? 0) + ms)
        }
      }
    }
  }
  const sorted = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1])
  const slices: Map<string, number>[] = []
  let at = 0
  profile.samples.forEach((id, i) => {
    const ms = (profile.timeDeltas[i] ?? 0) / 1000
    const from = at
    at += ms
    const n = defined(byId.get(id), 'the profile node of a sampled id')
    const p = placeOf(n.callFrame.url, n.callFrame.functionName)
    if (p === '(idle)') return
    const slice = (slices[Math.floor(from / sliceMs)] ??= new Map())
    slice.set(p, (slice.get(p) ?? 0) + ms)
  })
  const timeline = Array.from(slices, (m, i) => {
    const busy = m === undefined ? 0 : [...m.values()].reduce((a, b) => a + b, 0)
    return { fromMs: i * sliceMs, busyMs: busy, top: m === undefined ? [] : sorted(m).slice(0, 4) }
  })
  return {
    totalMs: (profile.endTime - profile.startTime) / 1000,
    functions: sorted(functions),
    places: sorted(places),
    inclusive: sorted(inclusive),
    timeline,
  }
}

function main(argv: string[]): void {
  const files: string[] = []
  let top = 25
  let pattern: RegExp | undefined
  let sliceMs: number | undefined
  for (let i = 0; i < argv.length; i++) {
    const arg = defined(argv[i], 'an argument inside argv')
    if (arg === '--top') top = Number(argv[++i])
    else if (arg === '--inclusive') pattern = new RegExp(argv[++i] ?? '')
    else if (arg === '--timeline') sliceMs = Number(argv[++i])
    else files.push(arg)
  }
  for (const file of files) {
    const s = summariseProfile(JSON.parse(readFileSync(file, 'utf8')) as CpuProfile, pattern, sliceMs)
    const ms = (n: number) => `${n.toFixed(0).padStart(7)} ms`
    process.stdout.write(`\n${file}: ${s.totalMs.toFixed(0)} ms profiled\n  self time by place:\n`)
    for (const [k, v] of s.places.slice(0, 15)) process.stdout.write(`  ${ms(v)}  ${k}\n`)
    process.stdout.write(`  self time by function:\n`)
    for (const [k, v] of s.functions.slice(0, top)) process.stdout.write(`  ${ms(v)}  ${k}\n`)
    if (sliceMs !== undefined) {
      process.stdout.write(`  timeline (busy per ${sliceMs} ms from the thread's start; places):\n`)
      for (const t of s.timeline)
        process.stdout.write(
          `  ${String(t.fromMs).padStart(6)} ${ms(t.busyMs)}  ${t.top.map(([k, v]) => `${k} ${v.toFixed(0)}`).join(', ')}\n`,
        )
    }
    if (pattern !== undefined) {
      process.stdout.write(`  inclusive time of ${pattern}:\n`)
      for (const [k, v] of s.inclusive.slice(0, top)) process.stdout.write(`  ${ms(v)}  ${k}\n`)
    }
  }
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url))
  main(process.argv.slice(2))
