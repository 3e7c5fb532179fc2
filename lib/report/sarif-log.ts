import type { Report } from './model.ts'

/**
 * The parts of a SARIF 2.1.0 log the suite writes (sarif.ts: the spec's checks; sarif-schema.ts: the shop's schema).
 */
export interface SarifMessage {
  text: string
}

export interface SarifRule {
  id: string
  name: string
  shortDescription: SarifMessage
  fullDescription?: SarifMessage
  defaultConfiguration: { level: 'error' | 'warning' | 'note' }
  properties: { spec: string[] }
}

export interface SarifResult {
  ruleId: string
  ruleIndex: number
  /**
   * `note` for a failure the baseline excuses and for most schema findings, `warning` for an extension's failure
   * under `--extensions report-only` and for a schema's access finding: code scanning gates on `error` by default.
   */
  level: 'error' | 'warning' | 'note'
  message: SarifMessage
  locations: {
    logicalLocations: { name: string; fullyQualifiedName: string; kind: string }[]
    physicalLocation?: { artifactLocation: { uri: string }; region: { startLine: number } }
  }[]
  partialFingerprints: Record<string, string>
  baselineState?: 'new' | 'unchanged'
  suppressions?: { kind: 'external'; status: 'accepted'; justification: string }[]
  properties: { resultId: string; module: string; spec: string[]; alias?: string; warnings?: string[]; origin?: string }
}

export interface SarifLog {
  $schema: string
  version: '2.1.0'
  runs: {
    tool: { driver: { name: string; version: string; semanticVersion: string; rules: SarifRule[] } }
    automationDetails: { id: string }
    invocations: {
      executionSuccessful: boolean
      startTimeUtc: string
      endTimeUtc: string
      /** The run's exit status and why (report.exit). */
      exitCode: number
      exitCodeDescription: string
      toolExecutionNotifications: { level: 'error' | 'warning'; message: SarifMessage }[]
    }[]
    results: SarifResult[]
    properties: {
      target: Report['target']
      specVersion: string
      runId: string
      summary: Report['summary']
      partial?: Report['partial']
      certification: { verdict: string; percent: number; scope: string; notConfigured?: string[] }
      baseline?: { file: string; stale: string[] }
    }
  }[]
}
