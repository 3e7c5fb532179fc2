import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CHECKS } from '../checks/index.ts'
import type { Status } from '../results/verdict.ts'
import { workflowResult, type Result } from '../results/result.ts'
import { CATALOG, rowNamed, rowOf } from '../spec/catalog/index.ts'
import { WORKFLOWS } from '../workflows/index.ts'
import { FINGERPRINT_KEY, sarifLog, SPEC_SOURCE } from './sarif.ts'
import { ACL_NOT_CONFIGURED_LINE, reportOf, resultOf, withoutLimitedAdmin } from './testing.ts'

/**
 * The SARIF 2.1.0 schema's required properties and the constraints code-scanning services enforce on top
 * of them, checked by hand (no network, no schema download). Returns the problems found.
 */
function sarifProblems(log: unknown): string[] {
  const problems: string[] = []
  const need = (cond: boolean, what: string) => {
    if (!cond) problems.push(what)
  }
  const isObj = (v: unknown): v is Record<string, any> => typeof v === 'object' && v !== null && !Array.isArray(v)
  const isMessage = (m: unknown) => isObj(m) && (typeof m.text === 'string' || typeof m.id === 'string')
  need(isObj(log), 'log is an object')
  if (!isObj(log)) return problems
  need(log.version === '2.1.0', 'version is "2.1.0"')
  need(typeof log.$schema === 'string' && /sarif.*2\.1\.0/.test(log.$schema), '$schema names SARIF 2.1.0')
  need(Array.isArray(log.runs), 'runs is an array')
  for (const [i, run] of (Array.isArray(log.runs) ? log.runs : []).entries()) {
    const at = `runs[${i}]`
    need(isObj(run?.tool) && isObj(run.tool.driver), `${at}.tool.driver is an object`)
    const driver = run?.tool?.driver ?? {}
    need(typeof driver.name === 'string' && driver.name !== '', `${at}.tool.driver.name is a non-empty string`)
    const rules: unknown[] = Array.isArray(driver.rules) ? driver.rules : []
    need(driver.rules === undefined || Array.isArray(driver.rules), `${at}.tool.driver.rules is an array`)
    const ruleIds = rules.map((r) => (isObj(r) ? r.id : undefined))
    rules.forEach((r, j) => {
      need(isObj(r) && typeof r.id === 'string', `${at}.tool.driver.rules[${j}].id is a string`)
      if (isObj(r) && r.shortDescription !== undefined)
        need(
          isMessage(r.shortDescription) && typeof r.shortDescription.text === 'string',
          `rules[${j}].shortDescription.text`,
        )
    })
    need(new Set(ruleIds).size === ruleIds.length, `${at}: rule ids are unique`)
    need(run.results === undefined || Array.isArray(run.results), `${at}.results is an array`)
    for (const [k, res] of (Array.isArray(run.results) ? run.results : []).entries()) {
      const rat = `${at}.results[${k}]`
      need(isObj(res), `${rat} is an object`)
      need(isMessage(res.message), `${rat}.message has text`)
      need(typeof res.ruleId === 'string' && ruleIds.includes(res.ruleId), `${rat}.ruleId names a rule of the driver`)
      if (res.ruleIndex !== undefined)
        need(ruleIds[res.ruleIndex] === res.ruleId, `${rat}.ruleIndex points at its rule`)
      need(
        res.level === undefined || ['none', 'note', 'warning', 'error'].includes(res.level),
        `${rat}.level is a SARIF level`,
      )
      for (const loc of Array.isArray(res.locations) ? res.locations : []) {
        for (const ll of loc.logicalLocations ?? [])
          need(
            typeof ll.fullyQualifiedName === 'string' || typeof ll.name === 'string',
            `${rat} logical location is named`,
          )
      }
      if (res.partialFingerprints !== undefined) {
        need(
          isObj(res.partialFingerprints) && Object.values(res.partialFingerprints).every((v) => typeof v === 'string'),
          `${rat}.partialFingerprints maps to strings`,
        )
      }
      for (const s of res.suppressions ?? [])
        need(['inSource', 'external'].includes(s.kind), `${rat}.suppressions[].kind`)
    }
    for (const inv of run.invocations ?? [])
      need(typeof inv.executionSuccessful === 'boolean', `${at}.invocations[].executionSuccessful is a boolean`)
  }
  return problems
}

const rows = CATALOG.filter((r) => r.module === 'catalog-prices').slice(0, 6)
const result = (i: number, checkIndex: number, status: Status, message = `message ${i}`) =>
  resultOf(rows[i]!, status, message, { check: CHECKS[checkIndex]!, durationMs: 5 })
const workflow = WORKFLOWS.find((w) => w.name === 'attribute-set')!

describe('sarifLog', () => {
  const results = [
    result(0, 0, 'passed'),
    result(0, 2, 'failed', 'admin endpoint: no token let through'),
    result(1, 1, 'skipped'),
    result(2, 0, 'failed', 'no route'),
    workflowResult(
      workflow,
      '02',
      workflow.steps[1]!,
      rowOf(workflow.steps[1]!.endpoint!),
      { status: 'failed', message: 'not renamed', exchanges: [] },
      3,
    ),
    {
      ...workflowResult(
        workflow,
        '01',
        { title: 'set up' },
        undefined,
        { status: 'failed', message: 'set-up failed', exchanges: [] },
        3,
      ),
    },
  ]
  const r = reportOf(results, { runErrors: ['the suite file crashed'] })
  const log = sarifLog(r)
  const run = log.runs[0]!

  it('has the fields SARIF 2.1.0 requires', () => {
    expect(sarifProblems(log)).toEqual([])
    expect(sarifProblems(JSON.parse(JSON.stringify(log)))).toEqual([])
    // The validator does catch what it checks.
    expect(sarifProblems({ ...log, version: '2.0.0' })).toContain('version is "2.1.0"')
    expect(
      sarifProblems({
        ...log,
        runs: [{ ...run, results: [{ ...run.results[0]!, ruleId: 'nope', ruleIndex: undefined }] }],
      }),
    ).toEqual(['runs[0].results[0].ruleId names a rule of the driver'])
    expect(sarifProblems({ ...log, runs: [{ ...run, tool: { driver: { ...run.tool.driver, name: '' } } }] })).toEqual([
      'runs[0].tool.driver.name is a non-empty string',
    ])
    expect(sarifProblems({ ...log, runs: [{ ...run, results: [{ ...run.results[0]!, message: {} }] }] })).toEqual([
      'runs[0].results[0].message has text',
    ])
  })

  it('names the tool and has one rule per check kind, described from the check', () => {
    expect(run.tool.driver).toMatchObject({ name: 'shop-conformance', version: '0.1.0' })
    expect(run.tool.driver.rules.map((x) => x.id)).toEqual([...CHECKS.map((c) => c.name), 'workflow'])
    for (const c of CHECKS)
      expect(run.tool.driver.rules.find((x) => x.id === c.name)!.shortDescription.text).toBe(c.description)
  })

  it('has one error result per failure, at its catalog row, fingerprinted by the result id', () => {
    const failures = results.filter((x) => x.status === 'failed')
    expect(run.results).toHaveLength(failures.length)
    expect(run.results.map((x) => x.partialFingerprints[FINGERPRINT_KEY])).toEqual(failures.map((x) => x.id))
    const access = run.results[0]!
    const failure = failures[0]!
    expect(access).toMatchObject({
      ruleId: 'access',
      level: 'error',
      message: { text: `admin endpoint: no token let through (spec: ${failure.spec.join('; ')})` },
      locations: [
        {
          logicalLocations: [
            { fullyQualifiedName: `${rows[0]!.method} ${rows[0]!.path}`, name: rows[0]!.path, kind: 'resource' },
          ],
        },
      ],
      properties: { module: 'catalog-prices', spec: failure.spec, resultId: failure.id },
    })
    expect(access.message.text).toContain('Authentication 1–4')
    // For code-scanning services, which want a file: the spec line listing the endpoint.
    const spec = readFileSync(resolve(import.meta.dirname, '../..', SPEC_SOURCE), 'utf8').split('\n')
    for (const res of run.results.slice(0, 3)) {
      const physical = res.locations[0]!.physicalLocation!
      expect(physical.artifactLocation.uri).toBe(SPEC_SOURCE)
      expect(spec[physical.region.startLine - 1]).toContain(
        rowNamed(res.locations[0]!.logicalLocations[0]!.fullyQualifiedName)!.path,
      )
    }
    expect(run.results[3]!.locations[0]!.physicalLocation).toEqual({
      artifactLocation: { uri: SPEC_SOURCE },
      region: { startLine: 1 },
    })
    // A workflow step is located at the endpoint it exercises; a set-up step at the workflow.
    expect(run.results[2]).toMatchObject({
      ruleId: 'workflow',
      locations: [{ logicalLocations: [{ fullyQualifiedName: workflow.steps[1]!.endpoint }] }],
    })
    expect(run.results[3]).toMatchObject({
      ruleId: 'workflow',
      locations: [{ logicalLocations: [{ fullyQualifiedName: 'workflow attribute-set', kind: 'module' }] }],
    })
  })

  it('keeps the fingerprint of a failure stable across runs', () => {
    const again = sarifLog(
      reportOf([result(2, 0, 'failed', 'no route, said differently'), result(0, 2, 'failed', 'other words')], {
        run: { id: 'run2' },
      }),
    )
    const fp = (l: typeof log) => l.runs[0]!.results.map((x) => x.partialFingerprints[FINGERPRINT_KEY]).sort()
    expect(fp(again)).toEqual([results[1]!.id, results[3]!.id].sort())
  })

  it('reports run errors as failed execution', () => {
    expect(run.invocations[0]).toMatchObject({
      executionSuccessful: false,
      toolExecutionNotifications: [{ level: 'error', message: { text: 'the suite file crashed' } }],
    })
    expect(sarifLog(reportOf([])).runs[0]!.invocations[0]!.executionSuccessful).toBe(true)
    expect(sarifLog(reportOf([])).runs[0]!.results).toEqual([])
    const cut = sarifLog(reportOf([], { partial: { reason: 'SIGINT' } })).runs[0]!
    expect(cut.invocations[0]).toMatchObject({
      executionSuccessful: false,
      toolExecutionNotifications: [
        {
          message: {
            text: `a run cut short by SIGINT; it judged 0 of 945 required checks: the results cover only what ran`,
          },
        },
      ],
    })
    expect(cut.properties.partial).toEqual({ reason: 'SIGINT' })
  })

  it("marks the failures the report's baseline excuses as suppressed notes with the reason, the others as new errors", () => {
    const passing = results.find((x) => x.status === 'passed')!
    const baseline = {
      version: 1 as const,
      entries: [
        { id: results[1]!.id, reason: 'ticket SHOP-1' },
        { id: passing.id, reason: 'fixed since' },
      ],
    }
    const withBaseline = sarifLog(
      reportOf(results, {}, { made: true, baseline: { file: 'known.json', baseline, allowStale: false } }),
    )
    const [first, second] = withBaseline.runs[0]!.results
    expect(first).toMatchObject({
      level: 'note',
      baselineState: 'unchanged',
      suppressions: [{ kind: 'external', status: 'accepted', justification: 'ticket SHOP-1' }],
    })
    expect(second).toMatchObject({ level: 'error', baselineState: 'new' })
    expect(second!.suppressions).toBeUndefined()
    expect(sarifProblems(withBaseline)).toEqual([])
    // The stale entry, and why the run exits as it does.
    const invocation = withBaseline.runs[0]!.invocations[0]!
    expect(invocation.toolExecutionNotifications).toEqual([
      {
        level: 'error',
        message: {
          text: `stale baseline entry ${passing.id}: the check now passes; remove it or pass --allow-stale (fixed since)`,
        },
      },
    ])
    expect(invocation).toMatchObject({
      exitCode: 1,
      exitCodeDescription:
        '3 new failures (not in the baseline), 1 stale baseline entry (now passing: remove it or pass --allow-stale)',
    })
    // Without a baseline no result claims a baseline state.
    expect(run.results.every((x) => x.baselineState === undefined && x.level === 'error')).toBe(true)
  })

  it('says "not configured" for a rule no request judged: an execution notification and the certification, no result', () => {
    const nc = sarifLog(reportOf(withoutLimitedAdmin())).runs[0]!
    expect(sarifProblems({ ...log, runs: [nc] })).toEqual([])
    expect(nc.results).toEqual([])
    expect(nc.invocations[0]!.toolExecutionNotifications).toEqual([
      { level: 'warning', message: { text: `not configured: ${ACL_NOT_CONFIGURED_LINE}` } },
    ])
    expect(nc.properties.certification).toMatchObject({
      verdict: 'incomplete',
      notConfigured: [`not configured: ${ACL_NOT_CONFIGURED_LINE}`],
    })
  })

  it('gives a rule to a check kind this suite version does not know', () => {
    const odd: Result = { ...results[1]!, id: 'GET /V1/x › future', check: 'future' }
    const l = sarifLog(reportOf([odd]))
    expect(l.runs[0]!.tool.driver.rules.map((x) => x.id)).toContain('future')
    expect(sarifProblems(l)).toEqual([])
  })
})
