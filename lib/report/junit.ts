import type { Result } from '../results/result.ts'
import { EXTENSIONS_MODULE } from '../results/schema-block.ts'
import { NOT_CONFIGURED } from './certify.ts'
import type { Report } from './model.ts'
import { leftoversText, runStory } from './outcome.ts'
import { staleRemedy } from './baseline.ts'
import { baselineReasons, staleEntries } from './tallies.ts'

interface Case {
  name: string
  time: number
  /** Absent: passed. */
  outcome?: { kind: 'failure' | 'skipped' | 'error'; message: string; type?: string; text?: string }
}

/** A run error's `type`, by how far the run got. */
const RUN_ERROR_TYPE: Readonly<Record<ReturnType<typeof runStory>['kind'], string>> = {
  'not made': 'run not made',
  'cut short': 'run cut short',
  whole: 'run error',
}

/**
 * junit.xml: one testsuite per module, one testcase per endpoint × check, so a CI's test view agrees with
 * the run's exit status:
 * - a failure the baseline lists is `<skipped>` with "baselined: <reason>", not `<failure>` — every JUnit
 *   consumer (GitHub test reporters, GitLab, Jenkins, Azure) shows a skip as such and none fails a build on
 *   it, while a property on a failed testcase is shown by few and the test view would stay red;
 * - the run itself is a testsuite `run`: each run error (a run that could not be made included) is an
 *   `<error>`, and each stale baseline entry that fails the run a `<failure>` (a `<skipped>` when allowed);
 * - a check whose code threw is an `<error>` (`type` "suite error" or "vendor check error"), never a `<failure>`:
 *   JUnit keeps a test that broke apart from one that failed, as the run keeps the suite's bugs from the shop's;
 * - an extension's failure or error under `--extensions report-only` is `<skipped>` "reported only", as it does not
 *   fail the run; the shop's schema findings are no testcase at all (a property `schema` says them in one line), but
 *   where its schema endpoint is broken a `<skipped>` testcase of the testsuite `extensions` says its extension
 *   endpoints went unchecked (a skip is what they are).
 */
export function junitXml(report: Report): string {
  const reasons = baselineReasons(report)
  const byModule = new Map<string, Case[]>()
  const reportOnly = report.run.extensions === 'report-only'
  for (const r of report.results)
    byModule.set(r.module, [...(byModule.get(r.module) ?? []), resultCase(r, reasons.get(r.id), reportOnly)])
  // The shop's extension endpoints went unchecked (its schema endpoint is broken): a skip says so where their checks
  // would be.
  if (report.schema?.status === 'broken')
    byModule.set(EXTENSIONS_MODULE, [
      ...(byModule.get(EXTENSIONS_MODULE) ?? []),
      { name: 'extension endpoints › not checked', time: 0, outcome: { kind: 'skipped', message: report.schema.text } },
    ])
  const story = runStory(report).kind
  const baseline = report.baseline
  const stale: Case[] =
    baseline === undefined
      ? []
      : staleEntries(report).map((e) => ({
          name: `baseline › stale entry ${e.id}`,
          time: 0,
          outcome: baseline.allowStale
            ? {
                kind: 'skipped' as const,
                message: `stale baseline entry (now passes; allowed by --allow-stale): ${e.reason}`,
              }
            : {
                kind: 'failure' as const,
                message: `stale baseline entry: the check now passes; ${staleRemedy(baseline, 1)} (${e.reason})`,
                type: 'stale-baseline',
              },
        }))
  const run: Case[] = [
    ...report.runErrors.map((e, i) => ({
      name: `run error ${i + 1}`,
      time: 0,
      outcome: {
        kind: 'error' as const,
        message: e,
        type: RUN_ERROR_TYPE[story],
      },
    })),
    // Once per check, beside its results' own skips: a CI's test view shows the rule no request judged.
    ...report.certification.notConfigured.map((n) => ({
      name: `${NOT_CONFIGURED} › ${n.check}`,
      time: 0,
      outcome: { kind: 'skipped' as const, message: `${NOT_CONFIGURED}: ${n.text}` },
    })),
    ...stale,
  ]
  if (run.length > 0) byModule.set('run', run)
  const all = [...byModule.values()].flat()
  const head = properties(report)
  const suites = [...byModule].map(
    ([module, cases]) =>
      `  <testsuite ${counts(module, cases)}>\n${head}\n${cases.map((c) => testcase(module, c)).join('\n')}\n  </testsuite>`,
  )
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites ${counts('shop-conformance', all, report.durationMs / 1000)}>\n${suites.join('\n')}${suites.length > 0 ? '\n' : ''}</testsuites>\n`
}

/**
 * What ran and against which spec, in each testsuite (the schema has no properties on `<testsuites>`): the
 * names match report.json's `suite` and `spec`, so a CI's test view of an old run says which rules judged it.
 */
function properties(report: Report): string {
  const story = runStory(report)
  const left = leftoversText(report)
  const props: [string, string][] = [
    ['suite.name', report.suite.name],
    ['suite.version', report.suite.version],
    ['spec.version', report.spec.version],
    ['target.url', report.target.baseUrl],
    ...(report.target.name !== undefined ? [['target.name', report.target.name] as [string, string]] : []),
    ...(report.target.version !== undefined ? [['target.version', report.target.version] as [string, string]] : []),
    // Information, never a testcase: a finding never changes the exit status, and a test view shows only red or green.
    ...(report.schema !== undefined ? [['schema', report.schema.text] as [string, string]] : []),
    ...(report.extensions !== undefined ? [['extensions', report.extensions.text] as [string, string]] : []),
    // What the run was and what it left: the same words as the console's and summary.md's.
    ...(story.kind !== 'whole' ? [['run', story.text] as [string, string]] : []),
    ...(left !== undefined ? [['leftovers', left] as [string, string]] : []),
  ]
  return `    <properties>\n${props.map(([name, value]) => `      <property name="${escAttr(name)}" value="${escAttr(value)}"/>`).join('\n')}\n    </properties>`
}

function resultCase(r: Result, baselined: string | undefined, extensionsReportOnly: boolean): Case {
  const time = r.durationMs / 1000
  if (r.status === 'passed') return { name: r.id, time }
  if (r.status === 'skipped') return { name: r.id, time, outcome: { kind: 'skipped', message: skipMessage(r) } }
  // Only a failure is ever baselined (an error is the suite's or a vendor's to fix, not the shop's).
  if (baselined !== undefined)
    return { name: r.id, time, outcome: { kind: 'skipped', message: `baselined: ${baselined} — ${r.message}` } }
  // As the exit status does: an extension's failure or error under report-only is shown, not failed.
  if (r.extension === true && extensionsReportOnly)
    return {
      name: r.id,
      time,
      outcome: { kind: 'skipped', message: `reported only (--extensions report-only): ${r.message}` },
    }
  // JUnit's own word for a test that broke rather than failed: never the shop's failure.
  if (r.status === 'error')
    return {
      name: r.id,
      time,
      outcome: {
        kind: 'error',
        message: r.message,
        type: r.origin === 'vendor' ? 'vendor check error' : 'suite error',
        text: stackOf(r) ?? r.message,
      },
    }
  return {
    name: r.id,
    time,
    outcome: { kind: 'failure', message: r.message, type: r.check, text: `${r.message}\nSpec: ${r.spec.join('; ')}` },
  }
}

/** The stack an error result keeps in its details (lib/results/crash.ts), for the test view's detail. */
function stackOf(r: Result): string | undefined {
  const stack = r.details?.stack
  return typeof stack === 'string' ? `${r.message}\n${stack}` : undefined
}

/**
 * A skip as every format names it: a check that does not apply to its endpoint (most skips of a green run: ~1,300 of
 * the suite's endpoint × check pairs) says "not applicable", one left unjudged for a missing setting "not configured".
 */
function skipMessage(r: Result): string {
  if (r.applicable === false) return labelled('not applicable', r.message)
  return r.reason === 'not-configured' ? labelled(NOT_CONFIGURED, r.message) : r.message
}

/** A message that starts with its label, as every format names a check left unjudged for a missing setting. */
function labelled(label: string, message: string): string {
  return message.startsWith(`${label}:`) ? message : `${label}: ${message}`
}

function counts(name: string, cases: readonly Case[], time = cases.reduce((t, c) => t + c.time, 0)): string {
  const n = (kind: string) => cases.filter((c) => c.outcome?.kind === kind).length
  return `name="${escAttr(name)}" tests="${cases.length}" failures="${n('failure')}" errors="${n('error')}" skipped="${n('skipped')}" time="${time.toFixed(3)}"`
}

function testcase(module: string, c: Case): string {
  const head = `    <testcase classname="${escAttr(`shop-conformance.${module}`)}" name="${escAttr(c.name)}" time="${c.time.toFixed(3)}"`
  const o = c.outcome
  if (o === undefined) return `${head}/>`
  const type = o.type !== undefined ? ` type="${escAttr(o.type)}"` : ''
  const body =
    o.kind === 'skipped'
      ? `<skipped message="${escAttr(o.message)}"/>`
      : `<${o.kind} message="${escAttr(o.message)}"${type}>${esc(o.text ?? o.message)}</${o.kind}>`
  return `${head}>\n      ${body}\n    </testcase>`
}

function esc(text: string): string {
  // XML 1.0 cannot carry most control characters, U+FFFE/U+FFFF or lone surrogates even escaped; a target's
  // bytes must not break the file. A carriage return is written as a reference, or parsers turn it into \n.
  return text
    .replace(
      /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
      '\ufffd',
    )
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/\r/g, '&#13;')
}

/** In an attribute, literal line breaks and tabs would read back as spaces (attribute-value normalisation). */
function escAttr(text: string): string {
  return esc(text).replace(/\n/g, '&#10;').replace(/\t/g, '&#9;')
}
