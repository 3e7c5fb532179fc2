/**
 * A certification package's pure parts (issue 32, docs/certification.md): the ustar archive written and read back, the
 * manifest against its JSON Schema (certificate.schema.json), what is refused, the digests, the statement and the
 * certification held to the report. The commands end to end on a real run: lib/cli/certificate.test.ts.
 */
import { describe, expect, it } from 'vitest'
import { readTar, writeTar } from '../base/tar.ts'
import {
  certificateStatement,
  certificationProblems,
  certificationRefusal,
  digestProblems,
  manifestProblems,
  packagedFile,
  statementProblems,
  type Manifest,
} from './certificate.ts'
import { keyIdOf, newEd25519Pair } from './sign.ts'
import { createPublicKey } from 'node:crypto'
import { planResults, reportOf, sampleBlock } from './testing.ts'
import type { Report } from './model.ts'

const whole = (patch: Parameters<typeof reportOf>[1] = {}): Report =>
  reportOf(planResults(), {
    evidence: { file: 'evidence.har', entries: 10, bytes: 100 },
    target: { name: 'Platform', version: '2.4.7' },
    ...patch,
  })
const KEY = 'a'.repeat(64)

function manifestOf(report: Report, files: Map<string, Buffer>): Manifest {
  return {
    format: 'shop-conformance-certification',
    version: 1,
    statement: certificateStatement(
      report,
      { name: 'Platform', version: '2.4.7' },
      KEY,
      new Date('2026-02-01T00:00:00.000Z'),
    ),
    files: [...files].map(([name, bytes]) => packagedFile(name, bytes)),
  }
}

describe('the ustar archive', () => {
  it('reads back what it wrote, in order, the same bytes for the same input', () => {
    const files = [
      { name: 'manifest.json', bytes: Buffer.from('{}') },
      { name: 'empty', bytes: Buffer.alloc(0) },
      { name: 'block.bin', bytes: Buffer.alloc(512, 7) },
    ]
    const tar = writeTar(files, 1_700_000_000)
    expect(tar.length % 512).toBe(0)
    expect(readTar(tar)).toEqual(files)
    expect(writeTar(files, 1_700_000_000).equals(tar)).toBe(true)
  })

  it('refuses an archive cut short, a changed header, and a name it cannot hold', () => {
    const tar = writeTar([{ name: 'a.json', bytes: Buffer.from('x'.repeat(600)) }], 0)
    expect(() => readTar(tar.subarray(0, 700))).toThrow(/run past the end/)
    expect(() => readTar(tar.subarray(0, 1536))).toThrow(/ends without its end-of-archive blocks/)
    const changed = Buffer.from(tar)
    changed[0] = 'b'.charCodeAt(0)
    expect(() => readTar(changed)).toThrow(/checksum/)
    expect(() => readTar(Buffer.alloc(1024, 1))).toThrow(/not a ustar archive/)
    expect(() => writeTar([{ name: 'dir/a', bytes: Buffer.alloc(0) }], 0)).toThrow(/flat ASCII name/)
  })
})

describe('what certify refuses', () => {
  it('takes a whole run with its evidence, of any verdict but not run and partial', () => {
    expect(certificationRefusal(whole())).toBeUndefined()
    expect(
      certificationRefusal(
        reportOf(
          planResults({}, (_, i) => (i === 0 ? 'failed' : 'passed')),
          { evidence: { file: 'evidence.har', entries: 1, bytes: 1 } },
        ),
      ),
    ).toBeUndefined()
  })

  it("refuses, one line each, a run cut short, not run, a slice, a shard, a merge, passive, another version's re-judge, no evidence", () => {
    const refused: [string, Report, RegExp][] = [
      [
        'interrupted',
        whole({ partial: { reason: 'SIGINT' } }),
        /a run cut short by .*: a certification is of a whole run$/,
      ],
      [
        'never started',
        whole({ exit: { status: 2, reason: 'credentials refused' } }),
        /never started .*: it states nothing to certify$/,
      ],
      [
        'not run',
        reportOf([], { evidence: { file: 'evidence.har', entries: 0, bytes: 0 } }),
        /judged nothing \(not run\)/,
      ],
      [
        'slice',
        reportOf(planResults({ modules: ['quote'] }), {
          run: { modules: ['quote'] },
          evidence: { file: 'evidence.har', entries: 1, bytes: 1 },
        }),
        /partial: .* a certification is of the whole suite only$/,
      ],
      ['shard', whole({ run: { shard: '1/2' } }), /it is shard 1\/2: a certification is of one whole run$/],
      ['merge', whole({ run: { shards: [{ shard: '1/2', id: 'a' }] } }), /a merge of shards/],
      ['passive', { ...whole(), mode: 'passive' } as unknown as Report, /passive: not a certification$/],
      [
        're-judged by another version',
        whole({
          mode: 'rejudged',
          recording: {
            file: 'e.har',
            suite: { name: 'shop-conformance', version: '0.0.9' },
            spec: { version: '2.4.9' },
            runId: 'r',
            baseUrl: 'u',
            entries: 1,
          },
        }),
        /judged again by suite 0\.1\.0 from a run of suite 0\.0\.9/,
      ],
      ['no evidence', reportOf(planResults()), /its evidence is missing/],
    ]
    for (const [what, report, line] of refused) {
      const why = certificationRefusal(report)
      expect(why, what).toMatch(line)
      expect(why!.split('\n'), what).toHaveLength(1)
    }
  })

  it("takes a report judged again by its own suite version (its evidence, when present, is the run's)", () => {
    const same = whole({
      mode: 'rejudged',
      recording: {
        file: 'e.har',
        suite: { name: 'shop-conformance', version: '0.1.0' },
        spec: { version: '2.4.9' },
        runId: 'r',
        baseUrl: 'u',
        entries: 1,
      },
    })
    expect(certificationRefusal(same)).toBeUndefined()
  })
})

describe('the manifest and its JSON Schema', () => {
  const report = whole()
  const files = new Map([
    ['report.json', Buffer.from(JSON.stringify(report))],
    ['evidence.har', Buffer.from('{"log":{}}')],
  ])
  const manifest = manifestOf(report, files)

  it("holds for the manifest certify makes; the statement is the report's", () => {
    expect(manifestProblems(manifest)).toEqual([])
    expect(manifest.statement).toMatchObject({
      suite: report.suite,
      spec: report.spec,
      target: { name: 'Platform', version: '2.4.7', storeCodes: ['default', 'all'] },
      run: { id: 'run1', seed: 1 },
      scope: 'the whole suite: 945 checks',
      verdict: 'conforms',
      counts: { required: 945, passed: 945 },
      keyId: KEY,
    })
    expect(statementProblems(manifest.statement, report)).toEqual([])
  })

  it('refuses a broken one, saying where', () => {
    const broken = (change: (m: Manifest & Record<string, unknown>) => void) => {
      const copy = structuredClone(manifest) as Manifest & Record<string, unknown>
      change(copy)
      return manifestProblems(copy)
    }
    expect(broken((m) => (m.statement.verdict = 'partial' as never))).toEqual([
      expect.stringMatching(/^\/statement\/verdict must be equal to one of the allowed values/),
    ])
    expect(broken((m) => (m.statement.scope = 'partial: 35 of 945 checks selected'))).toEqual([
      expect.stringMatching(/^\/statement\/scope must match pattern/),
    ])
    expect(broken((m) => (m.files[0]!.sha256 = 'abc'))).toEqual([
      expect.stringMatching(/^\/files\/0\/sha256 must match pattern/),
    ])
    expect(broken((m) => (m.files[0]!.name = '../etc/passwd'))).toEqual([
      expect.stringMatching(/^\/files\/0\/name must be equal to one of the allowed values/),
    ])
    expect(broken((m) => (m.extra = 1))).toEqual([expect.stringMatching(/must NOT have additional properties/)])
    expect(broken((m) => delete (m.statement as Partial<Manifest['statement']>).keyId)).toEqual([
      expect.stringMatching(/must have required property 'keyId'/),
    ])
  })

  it('names a file changed, missing or not listed', () => {
    expect(digestProblems(manifest, files)).toEqual([])
    const changed = new Map(files).set('evidence.har', Buffer.from('{"log":{"x":1}}'))
    expect(digestProblems(manifest, changed)).toEqual([
      expect.stringMatching(/^evidence\.har changed: sha256 [0-9a-f]{64} \(15 bytes\), the manifest says/),
    ])
    const missing = new Map(files)
    missing.delete('report.json')
    expect(digestProblems(manifest, missing)).toEqual(['report.json is listed but not in the package'])
    expect(digestProblems(manifest, new Map(files).set('extra.txt', Buffer.alloc(1)))).toEqual([
      'extra.txt is in the package but not in the manifest',
    ])
  })

  it('names each field of the statement the report does not say', () => {
    const s = structuredClone(manifest.statement)
    s.verdict = 'does not conform'
    s.counts.failed = 1
    s.run.id = 'another'
    expect(statementProblems(s, report)).toEqual([
      expect.stringMatching(/^the statement's run \{.*"id":"another".*\} is not the report's/),
      'the statement\'s verdict "does not conform" is not the report\'s "conforms"',
      expect.stringMatching(/^the statement's counts .*"failed":1.* is not the report's .*"failed":0/),
    ])
    expect(
      statementProblems({ ...manifest.statement, target: { ...manifest.statement.target, name: 'Other' } }, report),
    ).toEqual(['the statement names Other, the report Platform'])
  })
})

describe("the certification held to the report's own results", () => {
  it('holds for a report as the run judged it, and names what a changed result or count breaks', () => {
    const report = whole()
    expect(certificationProblems(report, undefined)).toEqual([])
    const flipped = structuredClone(report)
    flipped.results[3]!.status = 'failed'
    expect(certificationProblems(flipped, undefined)).toEqual([
      "report.json's certification says verdict conforms, its results give does not conform",
      "report.json's certification says passed 945, its results give 944",
      "report.json's certification says failed 0, its results give 1",
      expect.stringMatching(/^report\.json's certification says percent 100, its results give 99\.8/),
    ])
  })

  it('counts a failure the packaged baseline lists as baselined, as the run did', () => {
    const results = planResults({}, (_, i) => (i === 0 ? 'failed' : 'passed'))
    const baseline = { version: 1 as const, entries: [{ id: results[0]!.id, reason: 'known' }] }
    const report = reportOf(
      results,
      { plan: sampleBlock([], []) },
      { made: true, baseline: { file: 'b.json', baseline, allowStale: false } },
    )
    expect(report.certification).toMatchObject({ verdict: 'incomplete', baselined: 1 })
    expect(certificationProblems(report, baseline)).toEqual([])
    expect(certificationProblems(report, undefined)).toContain(
      "report.json's certification says verdict incomplete, its results give does not conform",
    )
  })
})

describe('a key id', () => {
  it("is the SHA-256 of the public key's DER SPKI, the same from either half", () => {
    const pair = newEd25519Pair()
    expect(pair.keyId).toMatch(/^[0-9a-f]{64}$/)
    expect(keyIdOf(createPublicKey(pair.privatePem))).toBe(pair.keyId)
    expect(keyIdOf(createPublicKey(pair.publicPem))).toBe(pair.keyId)
    expect(newEd25519Pair().keyId).not.toBe(pair.keyId)
  })
})
