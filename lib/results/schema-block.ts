/**
 * What a report records of the shop's own published schema (report.json `schema`) and of the checks from
 * outside the spec (report.json `extensions`). The spec does not mention a published schema: neither block is
 * ever part of the certification; the schema's findings never change the exit status, the extensions' failures
 * do unless the run says `--extensions report-only`.
 */
import type { Origin } from './plan-block.ts'

/** The module every extension operation is reported under: not one of the spec's. */
export const EXTENSIONS_MODULE = 'extensions'

/** `gate`: an extension's failure makes the exit status 1; `report-only`: it is reported and changes nothing. */
export type ExtensionsMode = 'gate' | 'report-only'

export const EXTENSIONS_MODES: readonly ExtensionsMode[] = ['gate', 'report-only']

/** One disagreement of the shop's schema with the spec (lib/schema/compare.ts makes them). */
export interface SchemaFindingRecord {
  kind: string
  /** The spec endpoint, `METHOD path` as the spec writes it. */
  operation: string
  /** What the shop's schema declares, in a few words. */
  declared: string
  /** What the spec says, in a few words. */
  spec: string
  /** The spec section compared with. */
  section: string
  /** The spec's words it is compared with, each an exact quote. */
  specWords: readonly string[]
  /** field-type-contradicts: the field within its shape, e.g. `customer_address_id`, `items[].qty`. */
  field?: string
  message: string
}

export interface SchemaBlock {
  /**
   * `off`: the run did not look (`--target-schema off`); `unpublished`: it looked and found none (`reason`);
   * `broken`: the shop's schema URL failed under every caller (a server error, a body that is not JSON, no
   * answer: `reason`) — a finding for the shop's team, and why its extension endpoints were not checked.
   */
  status: 'off' | 'unpublished' | 'broken' | 'read'
  published: boolean
  /** Where it was read from: `GET …/schema?services=all under each caller`, a file, a URL. */
  source?: string
  reason?: string
  /** The callers whose view of the schema was read (`anon`, `customer`, `admin`); empty for a file or a URL. */
  callers: string[]
  /** What was not read, and what that leaves unjudged. */
  notes: string[]
  findings: SchemaFindingRecord[]
  /** Kinds of finding the run could not look for, and why. */
  notJudged: { kind: string; reason: string }[]
  specEndpoints: number
  declaredSpecEndpoints: number
  /** Operations the schema declares that the spec does not name. */
  extensionOperations: number
  /** One line every format shows: `The shop's schema (…): 2 findings, 17 extension operations`. */
  text: string
}

/** The results of one origin outside the spec, counted. */
export interface ExtensionTally {
  origin: Exclude<Origin, 'spec'>
  /** Distinct operations (`METHOD path`) the results are of. */
  operations: number
  results: number
  passed: number
  failed: number
  /**
   * Results whose check's code threw (a vendor's check, or the suite's extension checks): neither failed nor passed.
   */
  errors: number
  notJudged: number
  /** Failed results per check kind, e.g. `{ 'extension-access': 1 }`. */
  failedByCheck: Record<string, number>
}

export interface ExtensionsBlock {
  mode: ExtensionsMode
  tallies: ExtensionTally[]
  /** `Extensions: 17 operations, 1 fails access (gate: failures fail the run)`: what every format shows. */
  text: string
}

/**
 * What every format says where the shop's schema endpoint is broken: the extension operations it would list went
 * unchecked, and the two ways to check them anyway.
 */
const EXTENSIONS_UNCHECKED =
  "The shop's extension endpoints were not checked: the schema lists them. To check them anyway, give a schema saved where it generates (a copy of the shop with the failing module's interface fixed, say) as --target-schema FILE, or declare them, with checks of your own, in a config (--config)"

/** The schema block's one line, from what it holds. */
export function schemaText(b: Omit<SchemaBlock, 'text'>): string {
  if (b.status === 'off') return "The shop's schema was not read (--target-schema off)."
  if (b.status === 'unpublished') return `The shop publishes no schema: ${b.reason ?? 'no reason recorded'}.`
  if (b.status === 'broken') {
    const request = (b.source ?? 'its schema URL').replace(/ under each caller$/, '')
    return `The shop's schema endpoint is broken: ${request} ${b.reason ?? 'failed'}. ${EXTENSIONS_UNCHECKED}. Information only: never in the certification, never the exit status.`
  }
  const findings =
    b.findings.length === 0
      ? 'agrees with the spec (no finding)'
      : `${b.findings.length} finding${b.findings.length === 1 ? '' : 's'} against the spec`
  return `The shop's schema (${b.source}): ${findings}; declares ${b.declaredSpecEndpoints} of ${b.specEndpoints} spec endpoints and ${b.extensionOperations} extension operation${b.extensionOperations === 1 ? '' : 's'}. Information only: never in the certification, never the exit status.`
}
