/**
 * The target's identity (issue 23.1): what it runs and its release, next to its URL in every format, and in what
 * a signature states. A report without them names the target by its URL, as before.
 */
import { generateKeyPairSync } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runCommand } from '../cli/commands.ts'
import { badgeSvg } from './badge.ts'
import { diffReports, diffText } from './diff.ts'
import { reportHtml } from './html.ts'
import { junitXml } from './junit.ts'
import { splitIdOf } from './merge.ts'
import { sarifLog } from './sarif.ts'
import { markdownSummary } from './summary-md.ts'
import { statementOf, targetText } from './target.ts'
import { planResults, reportOf } from './testing.ts'
import { terminalSummary } from './text.ts'

const named = reportOf(planResults(), {
  target: { baseUrl: 'https://shop.example.test', name: 'Platform', version: '2.4.7-p7' },
})
const unnamed = reportOf(planResults(), { target: { baseUrl: 'https://shop.example.test' } })
const dir = mkdtempSync(join(tmpdir(), 'shop-conformance-target-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('the target named in every format', () => {
  it('says what it runs, at its URL', () => {
    expect(targetText(named.target)).toBe('Platform 2.4.7-p7 at https://shop.example.test')
    expect(targetText(unnamed.target)).toBe('https://shop.example.test')
    expect(targetText({ ...unnamed.target, version: '2.4.7-p7' })).toBe('version 2.4.7-p7 at https://shop.example.test')
    expect(
      targetText({
        ...unnamed.target,
        name: 'shop-conformance reference target',
        version: '0.1.0',
        bundledReferenceTarget: true,
      }),
    ).toBe('shop-conformance reference target 0.1.0 at https://shop.example.test (bundled)')
    expect(targetText({ ...unnamed.target, bundledReferenceTarget: true })).toBe(
      'https://shop.example.test (bundled reference target)',
    )
  })

  it('console, summary.md, report.html, junit.xml, report.sarif, the badge and diff', () => {
    expect(terminalSummary(named, 'reports').split('\n')[0]).toContain(
      '· target Platform 2.4.7-p7 at https://shop.example.test · store default',
    )
    expect(markdownSummary(named)).toContain('Target Platform 2.4.7-p7 at `https://shop.example.test`, store `default`')
    expect(markdownSummary(unnamed)).toContain('Target `https://shop.example.test`, store `default`')
    // The page shows the text TypeScript made (the browser test sees it rendered).
    expect(reportHtml(named)).toContain('"target":"Platform 2.4.7-p7 at https://shop.example.test"')
    const junit = junitXml(named)
    for (const [name, value] of [
      ['target.url', 'https://shop.example.test'],
      ['target.name', 'Platform'],
      ['target.version', '2.4.7-p7'],
    ])
      expect(junit).toContain(`<property name="${name}" value="${value}"/>`)
    expect(junitXml(unnamed)).not.toContain('target.name')
    expect(sarifLog(named).runs[0]!.properties.target).toMatchObject({
      baseUrl: 'https://shop.example.test',
      name: 'Platform',
      version: '2.4.7-p7',
    })
    expect(badgeSvg(named)).toContain('spec 2.4.9, target Platform 2.4.7-p7: ')
    expect(diffText(diffReports(unnamed, named))).toContain(
      'B: B — run run1, Platform 2.4.7-p7 at https://shop.example.test, spec 2.4.9',
    )
  })

  it('shards that name their target differently are not one run', () => {
    expect(splitIdOf(named)).not.toBe(splitIdOf(unnamed))
    expect(splitIdOf(named)).toBe(splitIdOf({ ...named }))
  })

  it('is what a signature states, and what verify says the report states', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519')
    const report = join(dir, 'report.json')
    writeFileSync(report, JSON.stringify(named))
    writeFileSync(join(dir, 'key.pem'), privateKey.export({ type: 'pkcs8', format: 'pem' }))
    writeFileSync(join(dir, 'pub.pem'), publicKey.export({ type: 'spki', format: 'pem' }))
    let out = ''
    const io = { out: (t: string) => void (out += t), err: () => undefined }
    expect(await runCommand('sign', ['--report', report, '--key', join(dir, 'key.pem')], io)).toBe(0)
    const statement = 'Platform 2.4.7-p7 at https://shop.example.test: conforms · 100% of 945 required checks passed'
    expect(statementOf(named)).toBe(statement)
    expect((JSON.parse(readFileSync(`${report}.sig`, 'utf8')) as { statement: string }).statement).toBe(statement)
    expect(out).toContain(`it states: ${statement}\n`)
    out = ''
    expect(await runCommand('verify', ['--report', report, '--pub', join(dir, 'pub.pem')], io)).toBe(0)
    expect(out).toContain(`it states: ${statement}\n`)
  })
})
