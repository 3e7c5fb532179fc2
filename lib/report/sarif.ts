import { leftoversText, runStory } from './outcome.ts'
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { defined } from '../base/defined.ts'
import type { Result } from '../results/result.ts'
import { extractSpecOccurrences } from '../spec/extract-spec-endpoints.ts'
import { NOT_CONFIGURED } from './certify.ts'
import type { Report } from './model.ts'
import type { SarifLog, SarifResult, SarifRule } from './sarif-log.ts'
import { schemaSarif } from './sarif-schema.ts'
import { staleRemedy } from './baseline.ts'
import { baselineReasons, staleEntries } from './tallies.ts'
import { endpointText } from '../spec/endpoint-id.ts'

/**
 * report.sarif: the failures as SARIF 2.1.0 static-analysis results, for code-scanning dashboards. One run;
 * one rule per check kind; one result per failed check, located at its catalog row (`GET /V1/modules`, a
 * logical location: the suite judges a service, not a file) and fingerprinted by its stable result id, so the
 * same failure in the next run is recognised as the same alert. Code-scanning services also want a file
 * location: each result points at the line of the vendored spec that lists its endpoint.
 */

const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json'
const SARIF_VERSION = '2.1.0'
/** The vendored spec, relative to the project root: where the physical locations point. */
export const SPEC_SOURCE = 'lib/spec/source/commerce-rest-interface.md'
/** Name of the partial fingerprint that carries the result id; versioned as SARIF recommends. */
export const FINGERPRINT_KEY = 'shopConformanceResultId/v1'

/**
 * The SARIF log of a report. With a baseline (report.baseline), failures it lists are marked `baselineState:
 * "unchanged"`, carry an accepted external suppression whose justification is the entry's reason, and have level
 * `note`, so code scanning is not red where the gate is green; the others are "new". Stale entries, run errors, checks
 * whose code threw and a cut-short run are tool execution notifications, and the invocation carries the run's exit
 * status and reason.
 */
export function sarifLog(report: Report): SarifLog {
  const failures = report.results.filter((r) => r.status === 'failed')
  const rules = rulesOf(report, failures)
  const schema = schemaSarif(report, rules.length)
  rules.push(...schema.rules)
  const reasons = baselineReasons(report)
  const baselined = report.baseline !== undefined
  return {
    $schema: SARIF_SCHEMA,
    version: SARIF_VERSION,
    runs: [
      {
        tool: {
          driver: {
            name: report.suite.name || 'shop-conformance',
            version: report.suite.version,
            semanticVersion: report.suite.version,
            rules,
          },
        },
        // The part before the last slash is the category dashboards group runs by; the run id follows it.
        automationDetails: { id: `shop-conformance/${report.run.id}` },
        invocations: [invocationOf(report)],
        results: [
          ...failures.map((r) =>
            sarifResult(
              r,
              rules.findIndex((x) => x.id === r.check),
              baselined ? (reasons.get(r.id) ?? null) : undefined,
              report.run.extensions === 'report-only',
            ),
          ),
          ...schema.results,
        ],
        properties: runProperties(report),
      },
    ],
  }
}

type Invocation = SarifLog['runs'][number]['invocations'][number]
type Notification = Invocation['toolExecutionNotifications'][number]

/** One rule per check kind the plan has, and per kind a failure names that this suite does not know. */
function rulesOf(report: Report, failures: readonly Result[]): SarifRule[] {
  const rules: SarifRule[] = report.plan.kinds.map((c) => rule(c.name, c.description, c.spec))
  // A report from another suite version may name a check kind this one does not know: it still gets a rule.
  for (const kind of new Set(failures.map((r) => r.check))) {
    if (!rules.some((r) => r.id === kind)) rules.push(rule(kind, `The "${kind}" check.`, []))
  }
  return rules
}

/**
 * The run's one invocation: whether it ran cleanly, its times and exit, and what it tells besides the results —
 * a run cut short, run errors, what it left on the shop, checks whose code threw, stale baseline entries, and the
 * rules no request judged.
 */
function invocationOf(report: Report): Invocation {
  const errors = errorNotifications(report)
  const story = runStory(report)
  const left = leftoversText(report)
  return {
    executionSuccessful:
      report.runErrors.length === 0 && report.partial === undefined && !errors.some((e) => e.level === 'error'),
    startTimeUtc: report.startedAt,
    endTimeUtc: report.finishedAt,
    exitCode: report.exit.status,
    exitCodeDescription: report.exit.reason,
    toolExecutionNotifications: [
      ...[
        ...(story.kind === 'cut short' ? [`${story.text}: the results cover only what ran`] : []),
        ...report.runErrors,
      ].map((e) => ({ level: 'error' as const, message: { text: e } })),
      // What the run could not remove: the shop's team must know, though it is no finding about the shop.
      ...(left !== undefined ? [{ level: 'warning' as const, message: { text: `Left on the shop: ${left}` } }] : []),
      ...errors,
      ...staleNotifications(report),
      // Not a result (only failures are): a rule no request judged, which code scanning would not show otherwise.
      ...report.certification.notConfigured.map((n) => ({
        level: 'warning' as const,
        message: { text: `${NOT_CONFIGURED}: ${n.text}` },
      })),
    ],
  }
}

/**
 * A check whose code threw is the tool's own trouble, not a finding about the target: a notification, as run
 * errors are; a warning where --extensions report-only keeps it from failing the run.
 */
function errorNotifications(report: Report): Notification[] {
  const reportOnly = report.run.extensions === 'report-only'
  return report.results
    .filter((r) => r.status === 'error')
    .map((r) => ({
      level: r.extension === true && reportOnly ? ('warning' as const) : ('error' as const),
      message: { text: `${r.id}: ${r.message}` },
    }))
}

/** The baseline's entries whose checks now pass: an error, or a warning where --allow-stale allows them. */
function staleNotifications(report: Report): Notification[] {
  const baseline = report.baseline
  if (baseline === undefined) return []
  const allowed = baseline.allowStale ? ' (allowed by --allow-stale)' : `; ${staleRemedy(baseline, 1)}`
  return staleEntries(report).map((e) => ({
    level: baseline.allowStale ? ('warning' as const) : ('error' as const),
    message: { text: `stale baseline entry ${e.id}: the check now passes${allowed} (${e.reason})` },
  }))
}

/** What the run was: its target, spec, id, counts, verdict and scope, and its baseline's file and stale entries. */
function runProperties(report: Report): SarifLog['runs'][number]['properties'] {
  return {
    target: report.target,
    specVersion: report.spec.version,
    runId: report.run.id,
    summary: report.summary,
    ...(report.partial !== undefined ? { partial: report.partial } : {}),
    certification: {
      verdict: report.certification.verdict,
      percent: report.certification.percent,
      scope: report.certification.scope.text,
      ...(report.certification.notConfigured.length > 0
        ? { notConfigured: report.certification.notConfigured.map((n) => `${NOT_CONFIGURED}: ${n.text}`) }
        : {}),
    },
    ...(report.baseline !== undefined
      ? { baseline: { file: report.baseline.file, stale: report.baseline.stale } }
      : {}),
  }
}

function rule(id: string, description: string, spec: readonly string[]): SarifRule {
  return {
    id,
    name: id,
    shortDescription: { text: description },
    ...(spec.length > 0 ? { fullDescription: { text: `${description} Spec: ${spec.join('; ')}.` } } : {}),
    defaultConfiguration: { level: 'error' },
    properties: { spec: [...spec] },
  }
}

/** `reason`: undefined without a baseline, null for a failure the baseline does not list. */
function levelOf(r: Result, reason: string | null | undefined, extensionsReportOnly: boolean): SarifResult['level'] {
  if (typeof reason === 'string') return 'note'
  return r.extension === true && extensionsReportOnly ? 'warning' : 'error'
}

/** A result against the baseline: nothing without one, new where it does not list it, else excused with its reason. */
function baselineStateOf(reason: string | null | undefined): Pick<SarifResult, 'baselineState' | 'suppressions'> {
  if (reason === undefined) return {}
  if (reason === null) return { baselineState: 'new' }
  return { baselineState: 'unchanged', suppressions: [{ kind: 'external', status: 'accepted', justification: reason }] }
}

/** `reason`: undefined without a baseline, null for a failure the baseline does not list. */
function sarifResult(
  r: Result,
  ruleIndex: number,
  reason: string | null | undefined,
  extensionsReportOnly: boolean,
): SarifResult {
  const workflowOnly = r.endpoint.method === '-'
  const fullyQualifiedName = workflowOnly
    ? defined(r.id.split(' › ')[0], 'the first part of a split result id')
    : endpointText(r.endpoint)
  return {
    ruleId: r.check,
    ruleIndex,
    level: levelOf(r, reason, extensionsReportOnly),
    message: { text: r.spec.length > 0 ? `${r.message} (spec: ${r.spec.join('; ')})` : r.message },
    locations: [
      {
        logicalLocations: [
          {
            name: workflowOnly ? fullyQualifiedName : r.endpoint.path,
            fullyQualifiedName,
            kind: workflowOnly ? 'module' : 'resource',
          },
        ],
        ...physicalLocation(workflowOnly ? undefined : fullyQualifiedName),
      },
    ],
    partialFingerprints: { [FINGERPRINT_KEY]: r.id },
    ...baselineStateOf(reason),
    properties: {
      resultId: r.id,
      module: r.module,
      spec: r.spec,
      ...(r.extension === true ? { origin: r.origin } : {}),
      ...(r.endpoint.alias !== undefined ? { alias: r.endpoint.alias } : {}),
      ...(r.warnings !== undefined ? { warnings: r.warnings } : {}),
    },
  }
}

let specLines: Map<string, number> | undefined

/** The spec line that lists the endpoint (its module's endpoint list where it has one); line 1 for a workflow. */
function physicalLocation(endpoint: string | undefined): Pick<SarifResult['locations'][number], 'physicalLocation'> {
  if (specLines === undefined) {
    specLines = new Map()
    try {
      const root = join(dirname(fileURLToPath(import.meta.url)), '../..')
      const occurrences = extractSpecOccurrences(readFileSync(join(root, SPEC_SOURCE), 'utf8'))
      const listed = (o: { section: string }) => o.section.startsWith('Endpoints › Endpoint lists by module')
      for (const o of [...occurrences.filter(listed), ...occurrences.filter((o) => !listed(o))]) {
        const key = endpointText(o)
        if (!specLines.has(key)) specLines.set(key, o.lineNo)
      }
    } catch {
      // Without the vendored spec the results keep their logical locations only.
      return {}
    }
  }
  if (specLines.size === 0) return {}
  const line = endpoint === undefined ? 1 : specLines.get(endpoint)
  return line === undefined
    ? {}
    : { physicalLocation: { artifactLocation: { uri: SPEC_SOURCE }, region: { startLine: line } } }
}
