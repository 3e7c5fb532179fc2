import { CHECK_KINDS } from '../checks/index.ts'
import { diffReports, diffText, hasNewFailures } from '../report/diff.ts'
import { mergeReports } from '../report/merge.ts'
import { neverStarted, runStory } from '../report/outcome.ts'
import type { Report } from '../report/model.ts'
import { ed25519PrivateKey, ed25519PublicKey, parseSignatureFile, signReport, verifyReport } from '../report/sign.ts'
import { statementOf } from '../report/target.ts'
import { headline } from '../report/certify.ts'
import { defined } from '../base/defined.ts'
import { plural } from '../base/text.ts'
import { MODULES } from '../spec/modules.ts'
import type { AccessClass } from '../spec/types.ts'
import { UsageError } from '../base/usage-error.ts'
import { readDotenv, selectChecks, selectModules } from '../settings/config.ts'
import {
  buildPlan,
  PLAN,
  selectionOf,
  selectPlan,
  suiteWith,
  type Plan,
  type PlannedCheck,
  type PlanRow,
} from '../plan/plan.ts'
import { configFileOf, loadVendorConfig } from '../extend/load.ts'
import { endpointText } from '../spec/endpoint-id.ts'
import type { CommandName } from './usage.ts'
import {
  args,
  oneOf,
  readReport,
  readText,
  runReport,
  readJson,
  reportPath,
  required,
  writeReportDir,
  writeWhole,
  type CommandIo,
} from './command-io.ts'

/**
 * The commands that work on reports and on the catalog, not on a target: sign, verify, diff, report merge, list;
 * baseline and report rebaseline are in baseline-commands.ts. Each returns its exit status (0 ok, 1 the command's
 * finding) and throws UsageError for unusable input (main prints it as one line and exits 2).
 */

/** Where a command runs: the environment and the directory holding `.env` (and the default config file). */
type Where = { env: NodeJS.ProcessEnv; cwd: string }

export async function runCommand(
  name: Exclude<
    CommandName,
    'run' | 'judge' | 'target' | 'matrix' | 'cleanup' | 'proxy' | 'keygen' | 'certify' | 'registry'
  >,
  argv: string[],
  io: CommandIo,
  where?: Where,
): Promise<number> {
  switch (name) {
    case 'baseline':
      return (await import('./baseline-commands.ts')).baselineCommand(argv, io)
    case 'sign':
      return signCommand(argv, io)
    case 'verify':
      return verifyCommand(argv, io)
    case 'diff':
      return diffCommand(argv, io)
    case 'report':
      return reportCommand(argv, io)
    case 'list':
      return listCommand(argv, io, where)
  }
}

/**
 * `sign --report REPORT --key PRIVATE.pem [--out FILE] [--allow-partial]`: writes REPORT.sig. A signature
 * reads as a statement on the whole suite, so a report of a slice, a shard or a merge missing shards is
 * refused unless --allow-partial says it is meant; the .sig then states the scope, as the report does.
 */
export async function signCommand(argv: string[], io: CommandIo): Promise<number> {
  const { values } = args('sign', argv, {
    report: { type: 'string' },
    key: { type: 'string' },
    out: { type: 'string' },
    'allow-partial': { type: 'boolean' },
  })
  const file = reportPath(required('sign', values.report, '--report REPORT'))
  const keyFile = required('sign', values.key, '--key PRIVATE.pem')
  const report = readReport(file)
  // Traffic the suite did not send shows some rules at some endpoints: no statement to sign, whatever --allow-partial
  // says.
  if (report.mode === 'passive')
    throw new UsageError(
      `sign: ${file} is a passive report (judged from traffic the suite did not send): passive: not a certification, never signed`,
    )
  const never = neverStarted(report)
  if (never !== undefined) throw new UsageError(`sign: ${file}: ${never}; it states nothing about the target to sign`)
  const story = runStory(report)
  // Cut short, it is no statement on what it did not reach: signed as it is only when meant, as a slice is.
  if (story.kind === 'cut short' && values['allow-partial'] !== true) {
    throw new UsageError(
      `sign: ${file} is the report of ${story.text}; what it did not reach is not judged: pass --allow-partial to sign it as it is`,
    )
  }
  const c = report.certification as Report['certification'] | undefined
  if (c === undefined)
    throw new UsageError(
      `sign: ${file} has no certification statement (written by an older suite): run it again to sign it`,
    )
  if (!c.scope.whole && values['allow-partial'] !== true) {
    throw new UsageError(
      `sign: ${file} is ${c.scope.text}; a signature reads as a statement on the whole suite: pass --allow-partial to sign it as partial`,
    )
  }
  const key = ed25519PrivateKey(readText(keyFile, 'key'), `key ${keyFile}`)
  const sig = signReport(report, key, new Date(), statementOf(report))
  const out = values.out ?? `${file}.sig`
  await writeWhole(out, `${JSON.stringify(sig, null, 2)}\n`, 'signature')
  io.out(`signed ${file}: sha256 ${sig.digest} → ${out}; it states: ${sig.statement}\n`)
  return 0
}

/**
 * `verify --report REPORT --pub PUBLIC.pem [--sig FILE]`: 0 untouched, 1 changed or not signed by that key; `verify
 * --package`: certificate-verify.ts.
 */
export async function verifyCommand(argv: string[], io: CommandIo): Promise<number> {
  // A certification package (docs/certification.md) rather than a report and its detached signature.
  if (argv.some((a) => a === '--package' || a.startsWith('--package=')))
    return (await import('./certificate-verify.ts')).verifyPackageCommand(argv, io)
  const { values } = args('verify', argv, {
    report: { type: 'string' },
    pub: { type: 'string' },
    sig: { type: 'string' },
  })
  const file = reportPath(required('verify', values.report, '--report REPORT'))
  const pubFile = required('verify', values.pub, '--pub PUBLIC.pem')
  const sigFile = values.sig ?? `${file}.sig`
  const publicKey = ed25519PublicKey(readText(pubFile, 'public key'), `public key ${pubFile}`)
  const sig = parseSignatureFile(readJson(sigFile, 'signature'), `signature ${sigFile}`)
  const report = readReport(file)
  const outcome = verifyReport(report, sig, publicKey)
  if (!outcome.ok) {
    io.out(`verify ${file}: ${outcome.message}\n`)
    return 1
  }
  // What the report states, read from the verified report itself (the .sig's copy is only informational).
  const c = report.certification as Report['certification'] | undefined
  io.out(
    `verify ${file}: signature valid (Ed25519, sha256 ${outcome.digest}${outcome.signedAt !== '' ? `, signed ${outcome.signedAt}` : ''})${c !== undefined ? `; it states: ${statementOf(report)}` : ''}\n`,
  )
  return 0
}

/** `diff A B [--format text|json]`: 1 when something fails in B that did not fail in A. */
export function diffCommand(argv: string[], io: CommandIo): Promise<number> {
  // Nothing to wait for; a usage error is still the promise's rejection, as every command's is.
  return new Promise((resolve) => resolve(diffNow(argv, io)))
}

function diffNow(argv: string[], io: CommandIo): number {
  const { values, positionals } = args('diff', argv, { format: { type: 'string' } }, true)
  const format = oneOf('diff', '--format', values.format ?? 'text', ['text', 'json'])
  if (positionals.length !== 2)
    throw new UsageError(`diff: two reports expected (diff A.json B.json), got ${positionals.length}`)
  const [a, b] = positionals as [string, string]
  const diff = diffReports(readReport(a), readReport(b))
  io.out(
    format === 'json' ? `${JSON.stringify(diff, null, 2)}\n` : diffText(diff, { a: reportPath(a), b: reportPath(b) }),
  )
  return hasNewFailures(diff) ? 1 : 0
}

/**
 * `report merge --out DIR A B ...` (shards into one report), `report rebaseline REPORT --baseline B --out DIR` (judged
 * again).
 */
export async function reportCommand(argv: string[], io: CommandIo): Promise<number> {
  const [sub, ...rest] = argv
  if (sub === 'rebaseline') return (await import('./baseline-commands.ts')).rebaselineCommand(rest, io)
  if (sub !== 'merge')
    throw new UsageError(
      sub === undefined
        ? 'report: a subcommand is required (report merge --out DIR A.json B.json ..., report rebaseline REPORT --baseline FILE --out DIR)'
        : `report: unknown subcommand "${sub}" (known: merge, rebaseline)`,
    )
  const { values, positionals } = args('report merge', rest, { out: { type: 'string' } }, true)
  const out = required('report merge', values.out, '--out DIR')
  if (positionals.length === 0)
    throw new UsageError('report merge: no reports given (report merge --out DIR A.json B.json ...)')
  const {
    report: merged,
    missing,
    duplicates,
  } = mergeReports(
    positionals.map((p) => runReport('report merge', p)),
    positionals.map(reportPath),
  )
  const written = await writeReportDir('report merge', out, positionals, merged)
  const s = written.summary
  for (const d of duplicates) io.err(`report merge: ${d} is an identical copy of another input: taken once\n`)
  if (missing.length > 0)
    io.err(
      `report merge: shard${missing.length === 1 ? '' : 's'} ${missing.join(', ')} missing: the merged report is partial\n`,
    )
  // In the words and counts of every other output: the required checks (the suite's 945), not judged apart from not
  // applicable.
  const c = written.certification
  const errors = s.errors !== undefined && s.errors > 0 ? `, ${plural(s.errors, 'error')}` : ''
  const counts = `${s.passed} passed, ${s.failed} failed${errors}, ${c.notJudged} not judged, ${s.notApplicable} not applicable`
  io.out(
    `merged ${plural(positionals.length - duplicates.length, 'report')} into ${out}/report.json: ${headline(c)}${c.scope.whole ? ` (${c.scope.text})` : ''}; ${counts}\n`,
  )
  return 0
}

/** One catalog row — or a vendor's endpoint (`origin: 'vendor'`) — and what the suite does with it. */
export interface ListedEndpoint {
  module: string
  method: string
  path: string
  access: AccessClass
  /** Check kinds that apply. */
  checks: string[]
  /** Check kinds that do not, each with its reason. */
  notApplicable: { check: string; reason: string }[]
  /** Ids of the workflow steps that exercise the endpoint: `workflow <name> › <nn> <title>`. */
  workflows: string[]
  /** When nothing applies: why not. */
  reason?: string
  /** A vendor's endpoint, from its config (`list --config`): never counted in the spec's certification. */
  origin?: 'vendor'
}

/**
 * The catalog — and a vendor's endpoints where `plan` has them (`list --config`) —, per endpoint the checks and
 * workflow steps the plan has there (lib/plan/); `modules` or `checks` empty means all (as in `run`).
 */
export function catalogListing(
  modules: readonly string[] = [],
  checks: readonly string[] = [],
  plan: Plan = PLAN,
): ListedEndpoint[] {
  const selected = selectPlan(plan, selectionOf(modules, checks))
  const byEndpoint = <T extends PlannedCheck>(list: readonly T[]) => {
    const at = new Map<string, T[]>()
    for (const p of list) {
      const endpoint =
        p.endpoint ??
        (p.origin === 'vendor' ? endpointText(defined(p.added, "the row of a vendor's planned check")) : undefined)
      if (endpoint !== undefined) at.set(endpoint, [...(at.get(endpoint) ?? []), p])
    }
    return at
  }
  const planned = byEndpoint(selected.checks)
  const unplanned = byEndpoint(selected.unplanned)
  const rows = (plan.rows as readonly PlanRow[]).filter(
    (row) => (row.origin ?? 'spec') === 'spec' || row.origin === 'vendor',
  )
  return rows
    .filter((row) => modules.length === 0 || modules.includes(row.module))
    .map((row) => {
      const here = planned.get(endpointText(row)) ?? []
      const applicable = here.filter((p) => p.kind !== 'workflow').map((p) => p.kind)
      const notApplicable = (unplanned.get(endpointText(row)) ?? []).map((u) => ({ check: u.kind, reason: u.reason }))
      const workflows = here.filter((p) => p.kind === 'workflow').map((p) => p.id)
      return {
        module: row.module,
        method: row.method,
        path: row.path,
        access: row.access,
        checks: applicable,
        notApplicable,
        workflows,
        ...(applicable.length === 0 && workflows.length === 0
          ? { reason: notApplicable.map((n) => `${n.check}: ${n.reason}`).join('; ') || 'no check selected applies' }
          : {}),
        ...(row.origin === 'vendor' ? { origin: 'vendor' as const } : {}),
      }
    })
}

/**
 * `list [--module NAME ...] [--check KIND ...] [--format table|json] [--config FILE]`. A vendor's config — found as
 * `run` finds it: `--config`, `SHOP_CONFIG` (the environment, then `.env`), else `shop-conformance.config.ts` in the
 * working directory — adds its endpoints and checks, and its modules to what `--module` takes.
 */
export async function listCommand(
  argv: string[],
  io: CommandIo,
  where: Where = { env: process.env, cwd: process.cwd() },
): Promise<number> {
  const { values } = args('list', argv, {
    module: { type: 'string', multiple: true },
    check: { type: 'string', multiple: true },
    format: { type: 'string' },
    config: { type: 'string' },
  })
  const format = oneOf('list', '--format', values.format ?? 'table', ['table', 'json'])
  const given = values.config ?? nonEmpty(where.env.SHOP_CONFIG) ?? nonEmpty(readDotenv(where.cwd).SHOP_CONFIG)
  const file = configFileOf(given, where.cwd)
  const vendor = file !== undefined ? await loadVendorConfig(file, CHECK_KINDS) : undefined
  const plan = vendor !== undefined ? buildPlan(suiteWith({ vendor })) : PLAN
  const vendorModules = [...new Set(vendor?.rows.map((r) => r.module) ?? [])]
  const modules = selectModules(values.module ?? [], 'list: --module', vendorModules)
  const checks = selectChecks(values.check ?? [], CHECK_KINDS, 'list: --check')
  const listing = catalogListing(modules, checks, plan)
  if (format === 'json') {
    io.out(`${JSON.stringify(listing, null, 2)}\n`)
    return 0
  }
  const lines: string[] = []
  const titled = [
    ...MODULES,
    ...vendorModules.map((id) => ({ id, title: `the vendor's own, from ${file} (not the spec's)` })),
  ]
  for (const m of titled) {
    const rows = listing.filter((e) => e.module === m.id)
    if (rows.length === 0) continue
    const width = Math.max(...rows.map((e) => e.path.length))
    lines.push(`${m.id} — ${m.title} (${rows.length} endpoint${rows.length === 1 ? '' : 's'})`)
    for (const e of rows) {
      lines.push(
        `  ${e.method.padEnd(6)} ${e.path.padEnd(width)}  ${e.access.padEnd(5)}  ${e.checks.length > 0 ? e.checks.join(', ') : '(no check applies)'}`,
      )
      for (const w of e.workflows) lines.push(`  ${''.padEnd(6 + 1 + width + 2 + 5 + 2)}${w}`)
      if (e.reason !== undefined) lines.push(`  ${''.padEnd(6 + 1 + width + 2 + 5 + 2)}why not: ${e.reason}`)
    }
    lines.push('')
  }
  // The selection the run and --dry-run count: --check narrows it as much as --module.
  const planned = selectPlan(plan, selectionOf(modules, checks)).checks
  const steps = planned.filter((p) => p.kind === 'workflow')
  const onSetup = steps.filter((p) => p.endpoint === undefined).length
  const vendors = planned.filter((p) => p.origin === 'vendor').length
  lines.push(
    `${planned.length} checks${planned.length < plan.checks.length ? ` of the suite's ${plan.checks.length}` : ''}: ${planned.length - steps.length} endpoint checks on ${listing.length} endpoints, ${steps.length} workflow steps${onSetup > 0 ? ` (${onSetup} of them on set-up calls, listed under no endpoint)` : ''}`,
    ...(vendor !== undefined
      ? [`${vendors} of them the vendor's (${file}): never counted in the spec's certification`]
      : []),
    '',
  )
  const reasons = [
    ...new Map(listing.flatMap((e) => e.notApplicable).map((n) => [`${n.check}: ${n.reason}`, n])).values(),
  ]
  if (reasons.length > 0) {
    lines.push('Checks not listed at an endpoint do not apply to it:')
    for (const n of reasons) lines.push(`  ${n.check}: ${n.reason}`)
  }
  io.out(`${lines.join('\n')}\n`)
  return 0
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value
}
