import { plural } from '../base/text.ts'
import { escapeXml } from './badge.ts'
import type { Statement } from './certificate.ts'
import { pageHead } from './html.ts'
import { STYLE } from './html-style.ts'
import { MATRIX_STYLE } from './matrix-style.ts'
import { schemaProblems } from './json-schema.ts'
import REGISTRY_SCHEMA from './registry.schema.json' with { type: 'json' }

/**
 * A registry of certified implementations as static files (docs/certification.md): registry.json (its JSON Schema
 * registry.schema.json beside this file), the signers' keys, the packages, their rendered reports and index.html. What
 * is pure of it is here — what a verified package adds, what is refused, the page; the files:
 * lib/cli/registry-command.ts.
 */

export interface Registry {
  format: 'shop-conformance-registry'
  version: 1
  updatedAt: string
  /** Implementation name → the key ids that may sign for it. */
  signers: Record<string, string[]>
  implementations: { name: string; certifications: RegisteredCertification[] }[]
}

interface RegisteredCertification {
  version: string
  suite: { name: string; version: string }
  spec: { version: string }
  date: string
  runId: string
  verdict: Statement['verdict']
  counts: Statement['counts']
  package: { file: string; bytes: number; sha256: string }
  keyId: string
  report: string
}

export function emptyRegistry(now: Date): Registry {
  return {
    format: 'shop-conformance-registry',
    version: 1,
    updatedAt: now.toISOString(),
    signers: {},
    implementations: [],
  }
}

/** What is wrong with `data` as registry.json, one line each (the first few); empty when valid. */
export const registryProblems = schemaProblems(REGISTRY_SCHEMA)

/** The file stem of a certification in packages/ and reports/: its implementation, version, suite version and run. */
function stemOf(s: Statement): string {
  return `${s.target.name}-${s.target.version}-suite-${s.suite.version}-${s.run.id}`.replace(/[^A-Za-z0-9._-]+/g, '-')
}

/**
 * The registry with a verified package's certification added, or why it is refused: a package signed by a key the
 * registry does not list for its implementation (the first package of a name lists its key), the same package again,
 * another package of the same run. The implementations stay by name, each one's certifications newest first.
 */
export function admit(
  registry: Registry,
  s: Statement,
  pkg: { bytes: number; sha256: string },
  now: Date,
): { registry: Registry } | { refusal: string } {
  const listed = registry.signers[s.target.name]
  if (listed !== undefined && !listed.includes(s.keyId)) {
    return {
      refusal: `${s.target.name} is signed for by key${listed.length === 1 ? '' : 's'} ${listed.join(', ')}; this package by ${s.keyId}`,
    }
  }
  const all = registry.implementations.flatMap((i) => i.certifications.map((c) => ({ name: i.name, c })))
  const same = all.find(({ c }) => c.package.sha256 === pkg.sha256)
  if (same !== undefined) return { refusal: `this package is listed already (${same.c.package.file})` }
  const run = all.find(({ name, c }) => name === s.target.name && c.runId === s.run.id)
  if (run !== undefined)
    return { refusal: `run ${s.run.id} of ${s.target.name} is listed already (${run.c.package.file})` }
  const stem = stemOf(s)
  const entry: RegisteredCertification = {
    version: s.target.version,
    suite: { ...s.suite },
    spec: { ...s.spec },
    date: s.certifiedAt,
    runId: s.run.id,
    verdict: s.verdict,
    counts: { ...s.counts },
    package: { file: `packages/${stem}.tar.gz`, bytes: pkg.bytes, sha256: pkg.sha256 },
    keyId: s.keyId,
    report: `reports/${stem}/report.html`,
  }
  const others = registry.implementations.filter((i) => i.name !== s.target.name)
  const mine = registry.implementations.find((i) => i.name === s.target.name)?.certifications ?? []
  const implementations = [
    ...others,
    { name: s.target.name, certifications: [...mine, entry].sort((a, b) => b.date.localeCompare(a.date)) },
  ].sort((a, b) => a.name.localeCompare(b.name))
  return {
    registry: {
      ...registry,
      updatedAt: now.toISOString(),
      signers: { ...registry.signers, [s.target.name]: listed ?? [s.keyId] },
      implementations,
    },
  }
}

/** Suite versions, newest first (numerically, part by part: 0.10.0 after 0.9.0). */
function newestFirst(versions: Iterable<string>): string[] {
  const parts = (v: string) => v.split(/[.-]/).map((p) => (/^\d+$/.test(p) ? Number(p) : p))
  return [...new Set(versions)].sort((a, b) => {
    const [x, y] = [parts(a), parts(b)]
    for (let i = 0; i < Math.max(x.length, y.length); i++) {
      const [p, q] = [x[i] ?? -1, y[i] ?? -1]
      if (p !== q) return typeof p === 'number' && typeof q === 'number' ? q - p : String(q).localeCompare(String(p))
    }
    return 0
  })
}

/**
 * index.html: implementations (name and version, by name) × suite versions (newest first), each cell the verdicts of
 * the certifications there, newest first, each linking its package and its rendered report. The matrix page's look
 * (report.html's and matrix.html's stylesheets); no script: everything is in the page.
 */
export function registryHtml(registry: Registry): string {
  const e = escapeXml
  const suites = newestFirst(registry.implementations.flatMap((i) => i.certifications.map((c) => c.suite.version)))
  const rows = registry.implementations.flatMap((i) => {
    const versions = [...new Set(i.certifications.map((c) => c.version))]
    return versions.map((version) => ({
      name: i.name,
      version,
      certifications: i.certifications.filter((c) => c.version === version),
    }))
  })
  const cell = (cs: RegisteredCertification[]) =>
    cs.length === 0
      ? '<td class="stmt empty">—</td>'
      : `<td class="stmt">${cs
          .map(
            (c) =>
              `<div class="cert"><div class="cverdict v-${c.verdict.replaceAll(' ', '-')}"><span class="cpct">${c.counts.percent}%</span><span class="ctext">${e(c.verdict)}</span></div>` +
              `<div class="cnote">${c.counts.passed} of ${c.counts.required} passed${c.counts.failed > 0 ? `, ${c.counts.failed} failed` : ''} · ${e(c.date.slice(0, 10))} · spec ${e(c.spec.version)}</div>` +
              `<div class="cnote"><a href="${e(c.package.file)}">package</a> · <a href="${e(c.report)}">report</a> · key ${e(c.keyId.slice(0, 12))}…</div></div>`,
          )
          .join('')}</td>`
  const body = rows
    .map(
      (r) =>
        `<tr><th class="mod"><span class="colname">${e(r.name)}</span>${e(r.version)}</th>${suites.map((v) => cell(r.certifications.filter((c) => c.suite.version === v))).join('')}</tr>`,
    )
    .join('\n')
  return `${pageHead('Certified implementations', STYLE + MATRIX_STYLE, '')}
<body>
<header class="top"><div class="heading"><h1>Certified implementations</h1><div class="sub">${plural(rows.length, 'implementation version')}, ${plural(
    registry.implementations.reduce((n, i) => n + i.certifications.length, 0),
    'certification',
  )} · updated ${e(registry.updatedAt)}</div></div></header>
<section class="notes"><p>Each certification is a signed package that <code>shop-conformance verify --package FILE --registry .</code> checks offline: its signature, its digests, and its verdicts judged again from the exchanges it holds. It cannot prove the exchanges came from the named implementation: that rests on the signer (registry.json lists which keys sign for which implementation).</p></section>
<section class="modules"><h2>Implementations by suite version</h2>
<div class="matrix-wrap"><table class="matrix summary" id="registry">
<thead><tr><th>implementation</th>${suites.map((v) => `<th class="col"><span class="colname">suite ${e(v)}</span></th>`).join('')}</tr></thead>
<tbody>
${body}
</tbody></table></div></section>
</body></html>
`
}
