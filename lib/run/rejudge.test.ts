/**
 * `judge --har`'s judging (issue 30.2) on recorded runs, no target: the evidence.har of runs of the eav, integration
 * and catalog-prices modules against the reference target (fixtures/evidence/, with their live results), judged again
 * by the installed judges — the live verdicts where the recording holds their answers, a changed answer a changed
 * verdict, `not-recorded` where it does not. The command end to end, with faults and without: lib/cli/judge.test.ts.
 */
import { readFileSync } from 'node:fs'
import { gunzipSync } from 'node:zlib'
import { beforeAll, describe, expect, it } from 'vitest'
import type { Report } from '../report/model.ts'
import type { HarEntry } from '../results/har.ts'
import { SUITE } from '../spec/version.ts'
import { rejudge, type RecordedRun } from './rejudge.ts'

const fixture = (name: string) => new URL(`../../fixtures/evidence/${name}`, import.meta.url)

/** A recorded run of a module (its evidence.har, gzipped) and the results of its live report (id, status, reason). */
function recorded(module: string) {
  const har = JSON.parse(gunzipSync(readFileSync(fixture(`${module}.har.gz`))).toString('utf8')) as {
    log: { _run: RecordedRun; entries: HarEntry[] }
  }
  const live = JSON.parse(readFileSync(fixture(`${module}-results.json`), 'utf8')) as {
    runId: string
    results: { id: string; status: string; reason?: string }[]
  }
  return { har, live }
}

const { har, live } = recorded('eav')

/** The recording judged again, its entries changed by `change` first (a copy: the fixture stays as recorded). */
function judged(change: (entries: HarEntry[], run: RecordedRun) => void = () => {}, log = har.log) {
  const copy = structuredClone(log)
  change(copy.entries, copy._run)
  return rejudge({ file: 'eav.har', run: copy._run, entries: copy.entries })
}

/** Where the judged-again results differ from the live ones: `check status reason`, each once. */
function differing(report: Report, results: typeof live.results): Set<string> {
  expect(report.results.map((r) => r.id)).toEqual(results.map((r) => r.id))
  return new Set(
    report.results.flatMap((r, i) =>
      r.status === results[i]!.status && r.reason === results[i]!.reason
        ? []
        : [`${r.check} ${r.status} ${r.reason ?? ''}`],
    ),
  )
}

const resultOf = (report: Report, id: string) => report.results.find((r) => r.id === id)!

/** The recorded entries a check's result holds, by the id it served. */
const servedBy = (entries: HarEntry[], id: string) => entries.filter((e) => e._checks?.includes(id))

describe('judge --har: a recorded run judged again', () => {
  let report: Report
  beforeAll(async () => {
    report = await judged()
  })

  it("gives the live verdict of every check, the workflow's steps run again on the recording", () => {
    expect(differing(report, live.results)).toEqual(new Set())
    const judgedAgain = report.results.filter((r) => r.applicable !== false && r.reason !== 'not-recorded')
    expect(new Set(judgedAgain.map((r) => r.check))).toEqual(
      new Set(['route', 'store-code', 'access', 'acl', 'shape', 'body-keys', 'workflow']),
    )
    expect(judgedAgain.length).toBeGreaterThan(15)
  })

  it('is a report marked rejudged, naming the recording: its suite, run and target; nothing of the run made or removed', () => {
    expect(report).toMatchObject({
      mode: 'rejudged',
      suite: { version: SUITE.version },
      recording: {
        file: 'eav.har',
        suite: har.log._run.suite,
        runId: live.runId,
        baseUrl: har.log._run.target.baseUrl,
        entries: har.log.entries.length,
      },
      run: { id: live.runId },
      created: [],
      exit: { status: 0 },
    })
    expect(report.notes?.[0]).toMatch(/^judged again by shop-conformance .* from eav\.har: .* nothing was sent$/)
  })

  it('judges the recorded answers, not the recorded verdict: a caller let through fails access, a value not carried fails shape', async () => {
    const access = 'GET /V1/eav/attribute-sets/:attributeSetId › access'
    const open = await judged((entries) => {
      const anonymous = servedBy(entries, access).find((e) => e._caller === 'none')!
      const admin = servedBy(entries, access).find((e) => e._caller === 'admin')!
      anonymous.response = structuredClone(admin.response)
    })
    expect(resultOf(open, access)).toMatchObject({
      status: 'failed',
      message: expect.stringMatching(/^admin endpoint: no token let through \(200 /),
    })
    expect(open.exit.status).toBe(1)

    const shape = 'PUT /V1/eav/attribute-sets/:attributeSetId › shape'
    const renamed = await judged((entries) => {
      const valid = servedBy(entries, shape).find((e) => e._probe === 'valid call')!
      valid.response.content.text = JSON.stringify({
        ...JSON.parse(valid.response.content.text!),
        attribute_set_name: 'another name',
      })
    })
    expect(resultOf(renamed, shape)).toMatchObject({
      status: 'failed',
      message: expect.stringMatching(/attribute_set_name/),
    })
    // Without the values it must carry, only its shape is judged.
    const uncarried = await judged((entries) => {
      for (const e of entries) delete e._carries
    })
    expect(resultOf(uncarried, shape).status).toBe('passed')
  })

  it('judges the body-keys calls again with what the run read back: a key not required, a state changed, a path not honoured', async () => {
    const bodyKeys = 'PUT /V1/eav/attribute-sets/:attributeSetId › body-keys'
    const tagged = (entries: HarEntry[], probe: string) =>
      servedBy(entries, bodyKeys).find((e) => e._probe === `body-keys: ${probe}`)!
    expect(resultOf(report, bodyKeys)).toMatchObject({ status: 'passed' })
    const accepted = await judged((entries) => {
      tagged(entries, 'missing "attributeSet"').response = structuredClone(
        servedBy(entries, bodyKeys).find((e) => e._probe === 'valid call')!.response,
      )
    })
    expect(resultOf(accepted, bodyKeys)).toMatchObject({
      status: 'failed',
      message: expect.stringMatching(/missing "attributeSet" was accepted \(200 /),
    })
    const changed = await judged((entries) => {
      tagged(entries, '"attributeSet" under another name ("attributeSetRenamed")')._observed!.after = 'another name'
    })
    expect(resultOf(changed, bodyKeys)).toMatchObject({
      status: 'failed',
      message: expect.stringMatching(/and it changed the target's state \(before ".*", after "another name"\)/),
    })
    const overridden = await judged((entries) => {
      tagged(entries, 'path wins')._conflict!.honoured = "the body's set was saved"
    })
    expect(resultOf(overridden, bodyKeys)).toMatchObject({
      status: 'passed',
      warnings: [
        expect.stringMatching(
          /^path parameter :attributeSetId not honoured over body attributeSet\.attribute_set_id: the body's set was saved/,
        ),
      ],
    })
  })

  it('does not judge what the recording lacks: a check planned since, a check whose answers are not among its entries', async () => {
    const route = 'GET /V1/eav/attribute-sets/list › route'
    const since = await judged((_entries, run) => {
      run.planned = run.planned!.filter((id) => id !== route)
    })
    expect(resultOf(since, route)).toMatchObject({
      status: 'skipped',
      reason: 'not-recorded',
      message: `not judged: planned by this suite (${SUITE.version}), not by the recording's (${har.log._run.suite.version})`,
    })
    const shape = 'PUT /V1/eav/attribute-sets/:attributeSetId › shape'
    const untagged = await judged((entries) => {
      for (const e of servedBy(entries, shape)) delete e._probe
    })
    expect(resultOf(untagged, shape)).toMatchObject({
      status: 'skipped',
      reason: 'not-recorded',
      message: 'not judged: the recording holds no answer to the call the shape check judges',
    })
  })

  describe('the tokens check, from its tagged calls', () => {
    const integration = recorded('integration')
    const again = (change?: (entries: HarEntry[]) => void) => judged(change, integration.har.log)
    const tagged = (entries: HarEntry[], id: string, probe: string) =>
      entries.find((e) => e._checks?.includes(id) && e._probe === `tokens: ${probe}`)!

    it("gives the live verdicts of the integration module, the tokens check's too", async () => {
      const report = await again()
      expect(differing(report, integration.live.results)).toEqual(new Set())
      expect(report.results.filter((r) => r.check === 'tokens').map((r) => r.status)).toEqual([
        'passed',
        'passed',
        'passed',
      ])
    })

    it('fails a token issued for an unknown user, and a revoked token let through', async () => {
      const admin = 'POST /V1/integration/admin/token › tokens'
      const issued = await again((entries) => {
        const signIn = tagged(entries, admin, 'an unknown user name')
        signIn.response.status = 200
        signIn.response.content.text = JSON.stringify('[redacted token issued for wrong credentials]')
      })
      expect(resultOf(issued, admin)).toMatchObject({
        status: 'failed',
        message: expect.stringMatching(/^an unknown user name got a token \(200, /),
      })
      const revoke = 'POST /V1/integration/customer/revoke-customer-token › tokens'
      const kept = await again((entries) => {
        tagged(entries, revoke, 'after the revoke').response = structuredClone(
          tagged(entries, revoke, 'before the revoke').response,
        )
      })
      expect(resultOf(kept, revoke)).toMatchObject({
        status: 'failed',
        message: expect.stringMatching(/^the revoked token was let through GET \/V1\/customers\/me \(200/),
      })
    })
  })

  describe('the batch-partial check, from its tagged calls', () => {
    const prices = recorded('catalog-prices')
    const again = (change?: (entries: HarEntry[]) => void) => judged(change, prices.har.log)
    const tagged = (entries: HarEntry[], id: string, role: string) =>
      entries.find((e) => e._checks?.includes(id) && e._probe === `batch-partial: ${role}`)!
    const answer = (e: HarEntry, status: number, body: unknown) => {
      e.response.status = status
      e.response.content.text = JSON.stringify(body)
    }
    const update = 'POST /V1/products/base-prices › batch-partial'

    it("gives the live verdicts of the catalog-prices module, the batch-partial check's twelve too", async () => {
      const report = await again()
      expect(differing(report, prices.live.results)).toEqual(new Set())
      expect(
        report.results.filter((r) => r.check === 'batch-partial' && r.applicable !== false).map((r) => r.status),
      ).toEqual(Array(12).fill('passed'))
    })

    it('fails a mixed call that reports no invalid item, or names a valid one, and a valid item not stored', async () => {
      const silent = await again((entries) => answer(tagged(entries, update, 'mixed call'), 200, []))
      expect(resultOf(silent, update)).toMatchObject({
        status: 'failed',
        message: expect.stringMatching(/^mixed call: invalid item 1 \(unknown sku\) .* has no entry attributed to it/),
      })
      // Which items the run planned valid is the recording's `_items`, not a guess: one read as valid is now reported.
      const planned = await again((entries) => {
        tagged(entries, update, 'mixed call')._items![1] = { valid: true }
      })
      expect(resultOf(planned, update)).toMatchObject({
        status: 'failed',
        message: expect.stringMatching(/names valid item 1 /),
      })
      const lost = await again((entries) => {
        const readBack = tagged(entries, update, 'read-back')
        answer(readBack, 200, readBack._observed!.before)
      })
      expect(resultOf(lost, update)).toMatchObject({
        status: 'failed',
        message: expect.stringMatching(/valid item 0 .* was not stored: read back/),
      })
    })

    it('fails an information call and a cost-delete that drop an unknown sku, and a cost deleted beside it', async () => {
      const information = 'POST /V1/products/cost-information › batch-partial'
      const dropped = await again((entries) => answer(tagged(entries, information, 'unknown sku'), 200, []))
      expect(resultOf(dropped, information)).toMatchObject({
        status: 'failed',
        message: expect.stringMatching(/^the target dropped the unknown sku instead of raising/),
      })
      const costDelete = 'POST /V1/products/cost-delete › batch-partial'
      const deleted = await again((entries) => answer(tagged(entries, costDelete, 'unknown sku read back'), 200, []))
      expect(resultOf(deleted, costDelete)).toMatchObject({
        status: 'failed',
        message: expect.stringMatching(/was refused \(.*\) but deleted the cost of the known sku .* anyway/),
      })
    })

    it('does not judge a batch call whose planned items the recording lacks', async () => {
      const untold = await again((entries) => {
        delete tagged(entries, update, 'mixed call')._items
      })
      expect(resultOf(untold, update)).toMatchObject({ status: 'skipped', reason: 'not-recorded' })
    })
  })

  describe('a workflow, its steps run again on the recording', () => {
    const prices = recorded('catalog-prices')
    const again = (change?: (entries: HarEntry[], run: RecordedRun) => void) => judged(change, prices.har.log)
    const step = (n: string) => `workflow tier-prices-by-group › ${n}`
    const sentFor = (entries: HarEntry[], id: string) => entries.find((e) => e._checks?.includes(id))!
    const steps = (report: Report) =>
      report.results.filter((r) => r.check === 'workflow').map((r) => `${r.status} ${r.reason ?? ''}`.trim())

    it("judges the recorded answers by the step's own code: a tier not listed fails the step that lists it", async () => {
      const report = await again((entries) => {
        sentFor(entries, step('05 list the tiers of all groups')).response.content.text = '[]'
      })
      expect(resultOf(report, step('05 list the tiers of all groups'))).toMatchObject({
        status: 'failed',
        message: expect.stringMatching(
          /^the tier added for all groups \(qty 11 at 2\.79\) is not listed under all; listed: none/,
        ),
      })
      expect(steps(report)).toEqual(['passed', 'passed', 'passed', 'passed', 'failed'])
    })

    it('hands each step the state the recorded answers gave the one before: a tier refused ends the workflow there', async () => {
      const report = await again((entries) => {
        const added = sentFor(entries, step('02 add a tier for group 1'))
        added.response.status = 400
        added.response.content.text = JSON.stringify({ message: 'Invalid qty' })
      })
      expect(resultOf(report, step('02 add a tier for group 1'))).toMatchObject({ status: 'failed' })
      expect(steps(report)).toEqual([
        'passed',
        'failed',
        'skipped earlier-step',
        'skipped earlier-step',
        'skipped earlier-step',
      ])
    })

    it('does not judge a step that sends what the recording holds no answer to, nor the workflows of a recording without its session', async () => {
      // The recording's answer to a step's call gone: that step is not judged, and the ones after it are not run.
      const missing = await again((entries) => {
        entries.splice(entries.indexOf(sentFor(entries, step('04 list the tiers of group 1'))), 1)
      })
      expect(resultOf(missing, step('04 list the tiers of group 1'))).toMatchObject({
        status: 'skipped',
        reason: 'not-recorded',
        message: expect.stringMatching(
          /^not judged: the step sends GET \/rest\/default\/V1\/products\/.*\/group-prices\/1\/tiers as admin, to which the recording holds no answer$/,
        ),
      })
      expect(steps(missing)).toEqual(['passed', 'passed', 'passed', 'skipped not-recorded', 'skipped earlier-step'])
      // A recording made before the run's session was kept with it (suite 0.1.0 until issue 30's workflows).
      const older = await again((entries, run) => {
        delete run.session
        for (const e of entries) delete e._token
      })
      expect(steps(older)).toEqual(Array(5).fill('skipped not-recorded'))
      expect(resultOf(older, step('01 create a product')).message).toBe(
        'not judged: the recording holds neither the session its workflows ran on nor the tokens its requests were sent with',
      )
    })
  })
})
