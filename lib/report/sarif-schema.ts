import { rowNamed } from '../spec/catalog/index.ts'
import type { Report } from './model.ts'
import type { SarifResult, SarifRule } from './sarif-log.ts'

/** The finding of a schema endpoint that fails under every caller. */
const BROKEN = 'endpoint-broken'

/** The rule id of a schema finding: its own family, so a code-scanning gate on the spec's rules never sees it. */
function schemaRuleId(kind: string): string {
  return `schema/${kind}`
}

/**
 * The shop's schema findings as SARIF results of their own rules, never at level `error`: the spec does not
 * mention a published schema, so a finding is information about the shop. A declared access class that differs
 * from the spec's is a `warning` (who may call an operation is what a security review reads first); the other
 * kinds are `note`s. Code scanning gates on `error` by default, so the findings never turn a check red. A schema
 * endpoint that is broken is a finding of its own (`schema/endpoint-broken`, a `warning`): the shop's team has
 * something to fix, and its extension endpoints went unchecked.
 */
export function schemaSarif(report: Report, firstIndex: number): { rules: SarifRule[]; results: SarifResult[] } {
  const findings = report.schema?.findings ?? []
  const kinds = [...new Set(findings.map((f) => f.kind))]
  const levelOf = (kind: string) => (kind === 'access-class-differs' ? ('warning' as const) : ('note' as const))
  const rules: SarifRule[] = kinds.map((kind) => ({
    id: schemaRuleId(kind),
    name: schemaRuleId(kind),
    shortDescription: {
      text: `The shop's published schema disagrees with the spec: ${kind.replace(/-/g, ' ')}. Information only: never part of the spec's certification.`,
    },
    defaultConfiguration: { level: levelOf(kind) },
    properties: { spec: [] },
  }))
  const results = findings.map(
    (f): SarifResult => ({
      ruleId: schemaRuleId(f.kind),
      ruleIndex: firstIndex + kinds.indexOf(f.kind),
      level: levelOf(f.kind),
      message: { text: `${f.message} (the shop's schema; spec: ${f.section})` },
      locations: [
        {
          logicalLocations: [
            { name: rowNamed(f.operation)?.path ?? f.operation, fullyQualifiedName: f.operation, kind: 'resource' },
          ],
        },
      ],
      partialFingerprints: {
        'shopConformanceSchemaFinding/v1': `${f.kind} ${f.operation}${f.field !== undefined ? ` ${f.field}` : ''}`,
      },
      properties: { resultId: `${f.operation} › ${schemaRuleId(f.kind)}`, module: 'schema', spec: [f.section] },
    }),
  )
  const broken = report.schema?.status === 'broken' ? report.schema : undefined
  if (broken !== undefined) {
    const id = schemaRuleId(BROKEN)
    const where = (broken.source ?? 'the schema URL').replace(/ under each caller$/, '')
    rules.push({
      id,
      name: id,
      shortDescription: {
        text: "The shop's schema endpoint fails (a server error, a body that is not JSON, no answer), so its extension endpoints cannot be checked. Information only: never part of the spec's certification.",
      },
      defaultConfiguration: { level: 'warning' },
      properties: { spec: [] },
    })
    results.push({
      ruleId: id,
      ruleIndex: firstIndex + rules.length - 1,
      level: 'warning',
      message: { text: broken.text },
      locations: [
        {
          logicalLocations: [
            { name: where.replace(/^GET \S+?\/rest\//, '/rest/'), fullyQualifiedName: where, kind: 'resource' },
          ],
        },
      ],
      partialFingerprints: { 'shopConformanceSchemaFinding/v1': `${BROKEN} ${where}` },
      properties: { resultId: `${where} › ${id}`, module: 'schema', spec: [] },
    })
  }
  return { rules, results }
}
