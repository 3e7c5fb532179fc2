/**
 * Every format says which suite (the npm package, at its version) judged the target and against which spec
 * version: a report read months later, or a certification, must name the rules it was judged by. The run
 * fills report.json's `suite` from package.json (lib/spec/version.ts; proven on the installed package by
 * lib/package/pack.test.ts); here each format is shown to carry what the report holds, with versions no
 * other test uses, so a format that printed a constant would fail.
 */
import { describe, expect, it } from 'vitest'
import { badgeSvg } from './badge.ts'
import { reportHtml } from './html.ts'
import { junitXml } from './junit.ts'
import { sarifLog } from './sarif.ts'
import { markdownSummary } from './summary-md.ts'
import { terminalSummary } from './text.ts'
import { reportOf, resultOf } from './testing.ts'
import { CATALOG } from '../spec/catalog/index.ts'

const SUITE = { name: 'shop-conformance', version: '7.3.0-rc.2' }
const SPEC = { version: '2.9.41' }

describe('the versions in every format', () => {
  const report = reportOf([resultOf(CATALOG[0]!, 'failed', 'wrong answer')], { suite: SUITE, spec: SPEC })

  it('report.json and report.html: the report itself, embedded whole in the page', () => {
    expect(JSON.parse(JSON.stringify(report))).toMatchObject({ suite: SUITE, spec: SPEC })
    // The page renders both from its embedded report (shown in Chromium by html.browser.test.ts).
    expect(reportHtml(report)).toContain(`"suite":${JSON.stringify(SUITE)},"spec":${JSON.stringify(SPEC)}`)
  })

  it('junit.xml: properties of each testsuite', () => {
    const xml = junitXml(report)
    expect(xml).toContain('<property name="suite.name" value="shop-conformance"/>')
    expect(xml).toContain('<property name="suite.version" value="7.3.0-rc.2"/>')
    expect(xml).toContain('<property name="spec.version" value="2.9.41"/>')
  })

  it('report.sarif: the tool driver and the run properties', () => {
    const [run] = sarifLog(report).runs
    expect(run!.tool.driver).toMatchObject({
      name: 'shop-conformance',
      version: '7.3.0-rc.2',
      semanticVersion: '7.3.0-rc.2',
    })
    expect(run!.properties.specVersion).toBe('2.9.41')
  })

  it('summary.md, the badge and the console header', () => {
    expect(markdownSummary(report)).toContain('spec 2.9.41; suite shop-conformance 7.3.0-rc.2;')
    expect(badgeSvg(report)).toMatch(/<title>[^<]*shop-conformance 7\.3\.0-rc\.2, spec 2\.9\.41/)
    expect(terminalSummary(report, 'reports').split('\n')[0]).toMatch(
      /^shop-conformance 7\.3\.0-rc\.2 · spec 2\.9\.41 · /,
    )
  })
})
