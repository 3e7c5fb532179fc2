/**
 * The registry's pure parts (issue 32.3, docs/certification.md): what a verified package adds and what is refused,
 * registry.json against its JSON Schema (registry.schema.json), and index.html's implementations × suite versions.
 * Built from real packages, verified, and rendered in a browser: registry.browser.test.ts.
 */
import { describe, expect, it } from 'vitest'
import type { Statement } from './certificate.ts'
import { admit, emptyRegistry, registryHtml, registryProblems, type Registry } from './registry.ts'

const NOW = new Date('2026-03-01T00:00:00.000Z')
const KEY_A = 'a'.repeat(64)
const KEY_B = 'b'.repeat(64)

function statement(
  name: string,
  version: string,
  suite: string,
  runId: string,
  keyId = KEY_A,
  patch: Partial<Statement> = {},
): Statement {
  return {
    suite: { name: 'shop-conformance', version: suite },
    spec: { version: '2.4.9' },
    target: { name, version, baseUrl: 'https://shop.example', storeCodes: ['default', 'all'] },
    run: { id: runId, seed: 1, startedAt: '2026-02-01T00:00:00.000Z', finishedAt: '2026-02-01T00:10:00.000Z' },
    scope: 'the whole suite: 945 checks',
    verdict: 'conforms',
    counts: { required: 945, passed: 945, failed: 0, errors: 0, notJudged: 0, baselined: 0, percent: 100 },
    keyId,
    certifiedAt: `2026-02-0${runId.length % 9}T12:00:00.000Z`,
    ...patch,
  }
}

let n = 0
const pkg = () => ({ bytes: 100, sha256: (++n).toString(16).padStart(64, '0') })

function added(registry: Registry, s: Statement, p = pkg()): Registry {
  const outcome = admit(registry, s, p, NOW)
  if ('refusal' in outcome) throw new Error(outcome.refusal)
  return outcome.registry
}

describe('a registry of certified implementations', () => {
  const one = added(emptyRegistry(NOW), statement('Platform', '2.4.7-p7', '0.1.0', 'r1'))

  it("lists the first package of an implementation with its key as the name's signer, valid against its schema", () => {
    expect(registryProblems(emptyRegistry(NOW))).toEqual([])
    expect(registryProblems(one)).toEqual([])
    expect(one.signers).toEqual({ Platform: [KEY_A] })
    expect(one.implementations[0]!.certifications[0]).toMatchObject({
      version: '2.4.7-p7',
      suite: { version: '0.1.0' },
      verdict: 'conforms',
      runId: 'r1',
      keyId: KEY_A,
      package: { file: 'packages/Platform-2.4.7-p7-suite-0.1.0-r1.tar.gz', bytes: 100 },
      report: 'reports/Platform-2.4.7-p7-suite-0.1.0-r1/report.html',
    })
  })

  it('refuses another key for a listed name, the same package, another package of a listed run', () => {
    expect(admit(one, statement('Platform', '2.4.8', '0.1.0', 'r2', KEY_B), pkg(), NOW)).toEqual({
      refusal: `Platform is signed for by key ${KEY_A}; this package by ${KEY_B}`,
    })
    const listed = one.implementations[0]!.certifications[0]!.package
    expect(
      admit(one, statement('Platform', '2.4.7-p7', '0.1.0', 'r9'), { bytes: 100, sha256: listed.sha256 }, NOW),
    ).toEqual({ refusal: `this package is listed already (${listed.file})` })
    expect(admit(one, statement('Platform', '2.4.7-p7', '0.1.0', 'r1'), pkg(), NOW)).toEqual({
      refusal: `run r1 of Platform is listed already (${listed.file})`,
    })
    // Another implementation may have another signer.
    expect(added(one, statement('Other', '1.0', '0.1.0', 'r3', KEY_B)).signers).toEqual({
      Platform: [KEY_A],
      Other: [KEY_B],
    })
  })

  it('keeps a certification by an older suite version listed beside a newer one; the page shows suite versions newest first', () => {
    const newer = added(
      added(one, statement('Platform', '2.4.7-p7', '0.10.0', 'r22')),
      statement('Acme <shop>', '1.0', '0.9.0', 'r4', KEY_B, {
        verdict: 'does not conform',
        counts: { required: 945, passed: 940, failed: 5, errors: 0, notJudged: 0, baselined: 0, percent: 99.4 },
      }),
    )
    expect(registryProblems(newer)).toEqual([])
    expect(newer.implementations.map((i) => [i.name, i.certifications.map((c) => c.suite.version)])).toEqual([
      ['Acme <shop>', ['0.9.0']],
      ['Platform', ['0.10.0', '0.1.0']],
    ])
    const html = registryHtml(newer)
    expect([...html.matchAll(/<th class="col"><span class="colname">suite ([^<]+)<\/span>/g)].map((m) => m[1])).toEqual(
      ['0.10.0', '0.9.0', '0.1.0'],
    )
    // Every text escaped: the name as text, never markup.
    expect(html).toContain('<span class="colname">Acme &lt;shop&gt;</span>1.0')
    expect(html).not.toContain('<shop>')
    expect(html).toContain(
      '<div class="cverdict v-does-not-conform"><span class="cpct">99.4%</span><span class="ctext">does not conform</span></div>',
    )
    expect(html).toContain(
      '<a href="packages/Platform-2.4.7-p7-suite-0.10.0-r22.tar.gz">package</a> · <a href="reports/Platform-2.4.7-p7-suite-0.10.0-r22/report.html">report</a>',
    )
    // Self-contained as the matrix page: its CSP, no script, nothing loaded.
    expect(html).toContain('Content-Security-Policy')
    expect(html).not.toMatch(/<script|<link rel="stylesheet"/)
  })

  it('refuses a registry.json that is not one, saying where', () => {
    expect(registryProblems({ ...one, signers: { Platform: ['nope'] } })).toEqual([
      expect.stringMatching(/^\/signers\/Platform\/0 must match pattern/),
    ])
    const broken = structuredClone(one)
    broken.implementations[0]!.certifications[0]!.package.file = '../../etc/passwd'
    expect(registryProblems(broken)).toEqual([
      expect.stringMatching(/^\/implementations\/0\/certifications\/0\/package\/file must match pattern/),
    ])
  })
})
