import { describe, expect, it } from 'vitest'
import { CHECKS } from '../checks/index.ts'
import type { Status } from '../results/verdict.ts'
import type { Result } from '../results/result.ts'
import { CATALOG } from '../spec/catalog/index.ts'
import { junitXml } from './junit.ts'
import type { Report } from './model.ts'
import { ACL_NOT_CONFIGURED_LINE, reportOf, resultOf, withoutLimitedAdmin } from './testing.ts'

// ---- a minimal XML 1.0 parser: enough to prove the file well-formed and read back what it says ----

interface XmlElement {
  name: string
  attrs: Record<string, string>
  children: XmlElement[]
  text: string
}

/** XML 1.0 `Char`: what a document may contain at all, raw or as a character reference. */
const XML_CHAR = /^[\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]*$/u
const NAME = /^[A-Za-z_:][\w.:-]*/

/** The code point a character reference (`#x41`, `#65`) names; NaN for any other reference. */
function codePointOf(ref: string): number {
  if (/^#x[0-9a-fA-F]+$/.test(ref)) return parseInt(ref.slice(2), 16)
  return /^#[0-9]+$/.test(ref) ? parseInt(ref.slice(1), 10) : NaN
}

function decode(raw: string, where: string): string {
  if (/[<]/.test(raw)) throw new Error(`raw "<" in ${where}`)
  return raw.replace(/&([^;]*);|&/g, (m, ref: string | undefined) => {
    if (ref === undefined) throw new Error(`bare "&" in ${where}`)
    const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }
    if (ref in named) return named[ref]!
    const code = codePointOf(ref)
    if (Number.isNaN(code)) throw new Error(`unknown entity &${ref}; in ${where}`)
    const ch = String.fromCodePoint(code)
    if (!XML_CHAR.test(ch)) throw new Error(`character reference to a non-XML character &${ref}; in ${where}`)
    return ch
  })
}

function parseXml(xml: string): XmlElement {
  if (!XML_CHAR.test(xml)) throw new Error('document holds a character XML 1.0 does not allow')
  let i = 0
  const decl = /^<\?xml version="1\.0" encoding="UTF-8"\?>\s*/.exec(xml)
  if (decl === null) throw new Error('no XML declaration')
  i = decl[0].length
  const stack: XmlElement[] = []
  let root: XmlElement | undefined
  while (i < xml.length) {
    if (xml.startsWith('</', i)) {
      const m = /^<\/([A-Za-z_:][\w.:-]*)\s*>/.exec(xml.slice(i))
      if (m === null) throw new Error(`bad end tag at ${i}`)
      const open = stack.pop()
      if (open?.name !== m[1]) throw new Error(`</${m[1]}> closes <${open?.name}> at ${i}`)
      i += m[0].length
      if (stack.length === 0) root = open
      continue
    }
    if (xml[i] === '<') {
      if (root !== undefined) throw new Error('content after the root element')
      i++
      const name = NAME.exec(xml.slice(i))?.[0]
      if (name === undefined) throw new Error(`bad tag at ${i}`)
      i += name.length
      const el: XmlElement = { name, attrs: {}, children: [], text: '' }
      for (;;) {
        const ws = /^\s*/.exec(xml.slice(i))![0]
        i += ws.length
        if (xml.startsWith('/>', i) || xml[i] === '>') break
        if (ws === '') throw new Error(`no space before an attribute of <${name}> at ${i}`)
        const a = /^([A-Za-z_:][\w.:-]*)\s*=\s*"([^"]*)"/.exec(xml.slice(i))
        if (a === null) throw new Error(`bad attribute in <${name}> at ${i}: ${xml.slice(i, i + 40)}`)
        if (a[1]! in el.attrs) throw new Error(`duplicate attribute ${a[1]} in <${name}>`)
        // Attribute-value normalisation: literal white space becomes a space; character references survive.
        el.attrs[a[1]!] = decode(a[2]!.replace(/[\t\n\r]/g, ' '), `attribute ${a[1]} of <${name}>`)
        i += a[0].length
      }
      stack.at(-1)?.children.push(el)
      if (stack.length === 0 && root === undefined && el.name !== 'testsuites') throw new Error(`root is <${el.name}>`)
      if (xml.startsWith('/>', i)) {
        i += 2
        if (stack.length === 0) root = el
      } else {
        i += 1
        stack.push(el)
      }
      continue
    }
    const next = xml.indexOf('<', i)
    const raw = xml.slice(i, next === -1 ? xml.length : next)
    if (stack.length === 0) {
      if (raw.trim() !== '') throw new Error(`text outside the root element: ${raw.slice(0, 20)}`)
    } else {
      if (raw.includes(']]>')) throw new Error('"]]>" in text')
      stack.at(-1)!.text += decode(raw.replace(/\r\n?/g, '\n'), `text of <${stack.at(-1)!.name}>`)
    }
    i += raw.length
  }
  if (stack.length > 0) throw new Error(`<${stack.at(-1)!.name}> never closed`)
  if (root === undefined) throw new Error('no root element')
  return root
}

/**
 * The document with each testsuite's `<properties>` taken out (the versions, tested on their own): the other tests read
 * testcases.
 */
function parseJunit(xml: string): XmlElement {
  const root = parseXml(xml)
  for (const suite of root.children) suite.children = suite.children.filter((c) => c.name !== 'properties')
  return root
}

// ---- a report to render ----

/** The times are the test's own: the root's time attribute must read 5.250. */
const report = (results: Result[]): Report =>
  reportOf(results, { finishedAt: '2026-01-01T00:00:05.250Z', durationMs: 5250 })

const NASTY = 'a ]]> b <c> & "d" \'e\' \u0000nul \u001besc \u0007bel\nsecond line\ttab\r\nthird \ufffe\uffff end'
/** What the message must read back as: characters XML cannot carry replaced, everything else intact. */
const NASTY_READ = NASTY.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '\ufffd')

function results(): Result[] {
  const statuses: Status[] = ['passed', 'failed', 'skipped']
  const rows = CATALOG.filter((r) => ['directory', 'integration', 'cms'].includes(r.module))
  return rows.flatMap((row, i) =>
    CHECKS.slice(0, 3).map((check, j) => {
      const status = statuses[(i + j) % 3]!
      return resultOf(row, status, i === 1 ? NASTY : `${status} at ${row.path}`, { check, durationMs: 1234 + i })
    }),
  )
}

describe('junitXml', () => {
  const r = report(results())
  const xml = junitXml(r)
  let parsed: XmlElement | undefined
  const doc = () => (parsed ??= parseJunit(xml))

  it('is well-formed XML with <testsuites> at the root', () => {
    expect(doc().name).toBe('testsuites')
    expect(() => parseXml(xml.replace('</testsuites>', ''))).toThrow(/never closed/)
    expect(() => parseXml(xml.replace('<testcase', '<testcase a="1&2"'))).toThrow(/bare "&"/)
  })

  it("has the attributes of the JUnit schema, with counts equal to the report's", () => {
    expect(doc().attrs).toMatchObject({
      name: 'shop-conformance',
      tests: String(r.summary.total),
      failures: String(r.summary.failed),
      errors: '0',
      skipped: String(r.summary.skipped),
      time: '5.250',
    })
    const suites = doc().children
    expect(suites.every((s) => s.name === 'testsuite')).toBe(true)
    expect(suites.map((s) => s.attrs.name)).toEqual(['cms', 'directory', 'integration'])
    for (const suite of suites) {
      const mine = r.results.filter((x) => x.module === suite.attrs.name)
      const count = (s: Status) => String(mine.filter((x) => x.status === s).length)
      expect(suite.attrs).toMatchObject({
        tests: String(mine.length),
        failures: count('failed'),
        errors: '0',
        skipped: count('skipped'),
      })
      expect(suite.attrs.time).toMatch(/^\d+\.\d{3}$/)
      expect(suite.children.map((c) => c.attrs.name)).toEqual(mine.map((x) => x.id))
      for (const c of suite.children) {
        expect(c.name).toBe('testcase')
        expect(c.attrs.classname).toBe(`shop-conformance.${suite.attrs.name}`)
        expect(c.attrs.time).toMatch(/^\d+\.\d{3}$/)
      }
    }
    const cases = suites.flatMap((s) => s.children)
    expect(cases).toHaveLength(r.summary.total)
    expect(cases.filter((c) => c.children.some((x) => x.name === 'failure'))).toHaveLength(r.summary.failed)
    expect(cases.filter((c) => c.children.some((x) => x.name === 'skipped'))).toHaveLength(r.summary.skipped)
    expect(cases.filter((c) => c.children.length === 0)).toHaveLength(r.summary.passed)
    expect(Number(suites.reduce((n, s) => n + Number(s.attrs.tests), 0))).toBe(r.summary.total)
  })

  it('gives a failure its message, check and spec sections, and a skip its message', () => {
    const cases = new Map(
      doc()
        .children.flatMap((s) => s.children)
        .map((c) => [c.attrs.name!, c]),
    )
    for (const res of r.results) {
      const c = cases.get(res.id)!
      expect(c.attrs.time).toBe((res.durationMs / 1000).toFixed(3))
      if (res.status === 'failed') {
        const [failure] = c.children
        expect(failure).toMatchObject({
          name: 'failure',
          attrs: { message: res.message.includes('\u0000') ? NASTY_READ : res.message, type: res.check },
        })
        expect(failure!.text).toContain(`Spec: ${res.spec.join('; ')}`)
        expect(res.spec.length).toBeGreaterThan(0)
      }
      if (res.status === 'skipped')
        expect(c.children).toEqual([
          {
            name: 'skipped',
            attrs: { message: res.message.includes('\u0000') ? NASTY_READ : res.message },
            children: [],
            text: '',
          },
        ])
    }
  })

  // Issue 31.12: a green run's junit.xml holds some 1,300 skipped cases; those of checks that do not apply say so.
  it('labels the skip of a check that does not apply "not applicable", apart from a check not judged', () => {
    const row = CATALOG.find((x) => x.module === 'directory')!
    const notApplicable: Result = {
      ...resultOf(row, 'skipped', 'not shown: the spec gives no request body for this endpoint', { check: CHECKS[5] }),
      applicable: false,
    }
    const notJudged: Result = {
      ...resultOf(row, 'skipped', 'not judged: no answer within 10000 ms', { check: CHECKS[0] }),
      reason: 'timeout',
    }
    const cases = parseJunit(junitXml(report([notApplicable, notJudged]))).children.flatMap((s) => s.children)
    expect(cases.map((c) => c.children[0]!.attrs.message).sort()).toEqual([
      'not applicable: not shown: the spec gives no request body for this endpoint',
      'not judged: no answer within 10000 ms',
    ])
  })

  it('escapes control characters, "]]>", "<", "&" and quotes so any message reads back as it was', () => {
    const nasty = r.results.find((x) => x.message === NASTY && x.status === 'failed')!
    const skip = r.results.find((x) => x.message === NASTY && x.status === 'skipped')!
    const cases = doc().children.flatMap((s) => s.children)
    expect(cases.find((x) => x.attrs.name === skip.id)!.children[0]!.attrs.message).toBe(NASTY_READ)
    const c = doc()
      .children.flatMap((s) => s.children)
      .find((x) => x.attrs.name === nasty.id)!
    const failure = c.children[0]!
    // The attribute keeps line breaks and tabs (as character references), not just the text.
    expect(failure.attrs.message).toBe(NASTY_READ)
    expect(failure.text).toBe(`${NASTY_READ}\nSpec: ${nasty.spec.join('; ')}`)
    expect(xml).not.toContain(']]>')
    expect(xml).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/)
  })

  it("names the suite, its version (the package's), the spec version and the target in every testsuite", () => {
    const versioned = reportOf(results(), {
      suite: { name: 'shop-conformance', version: '9.8.7-rc.1' },
      spec: { version: '3.0.1' },
      runErrors: ['suite file crashed'],
    })
    const suites = parseXml(junitXml(versioned)).children
    expect(suites.map((s) => s.attrs.name)).toEqual(['cms', 'directory', 'integration', 'run'])
    for (const suite of suites) {
      expect(suite.children[0]!.name).toBe('properties')
      expect(suite.children[0]!.children.map((p) => [p.name, p.attrs.name, p.attrs.value])).toEqual([
        ['property', 'suite.name', 'shop-conformance'],
        ['property', 'suite.version', '9.8.7-rc.1'],
        ['property', 'spec.version', '3.0.1'],
        ['property', 'target.url', 'http://127.0.0.1:1'],
      ])
    }
  })

  it('escapes ids and module names in attributes too', () => {
    const [base] = results()
    const odd: Result = { ...base!, id: 'GET /V1/x?a=1&b="2" › <route>', module: 'mod&"<x>"', status: 'failed' }
    const one = parseJunit(junitXml(report([odd])))
    expect(one.children[0]!.attrs.name).toBe('mod&"<x>"')
    expect(one.children[0]!.children[0]!.attrs).toMatchObject({ name: odd.id, classname: 'shop-conformance.mod&"<x>"' })
  })

  it('writes an empty but valid document for a report without results', () => {
    const empty = parseJunit(junitXml(report([])))
    expect(empty.attrs).toMatchObject({ tests: '0', failures: '0', skipped: '0' })
    expect(empty.children).toEqual([])
  })

  it('shows a baselined failure as skipped with the baseline reason, so the test view is green where the gate is', () => {
    const rs = results()
    const failed = rs.filter((x) => x.status === 'failed')
    const passing = rs.find((x) => x.status === 'passed')!
    const baseline = {
      version: 1 as const,
      entries: [
        ...failed.map((x) => ({ id: x.id, reason: 'ticket SHOP-7' })),
        { id: passing.id, reason: 'fixed since' },
      ],
    }
    const excused = reportOf(rs, {}, { made: true, baseline: { file: 'b.json', baseline, allowStale: true } })
    expect(excused.exit.status).toBe(0)
    const doc = parseJunit(junitXml(excused))
    expect(doc.attrs).toMatchObject({ failures: '0', errors: '0' })
    const cases = new Map(doc.children.flatMap((x) => x.children).map((c) => [c.attrs.name!, c]))
    for (const f of failed) expect(cases.get(f.id)!.children[0]!.attrs.message).toMatch(/^baselined: ticket SHOP-7 — /)
    // The stale entry is there too: skipped while allowed, a failure of the run otherwise.
    expect(cases.get(`baseline › stale entry ${passing.id}`)!.children[0]!.name).toBe('skipped')
    const strict = parseJunit(
      junitXml(reportOf(rs, {}, { made: true, baseline: { file: 'b.json', baseline, allowStale: false } })),
    )
    expect(strict.attrs.failures).toBe('1')
    const run = strict.children.find((x) => x.attrs.name === 'run')!
    expect(run.children[0]!.children[0]).toMatchObject({ name: 'failure', attrs: { type: 'stale-baseline' } })
  })

  it("skips each not-configured check with a message that says so, and names the rule once in the run's testsuite", () => {
    const suites = parseJunit(junitXml(reportOf(withoutLimitedAdmin()))).children
    const acl = suites
      .filter((s) => s.attrs.name !== 'run')
      .flatMap((s) => s.children)
      .filter((c) => / › acl$/.test(c.attrs.name!))
    expect(acl).toHaveLength(15)
    for (const c of acl)
      expect(c.children[0]).toMatchObject({
        name: 'skipped',
        attrs: { message: expect.stringMatching(/^not configured: the ACL rule needs /) },
      })
    const run = suites.find((s) => s.attrs.name === 'run')!
    expect(run.children.map((c) => [c.attrs.name, c.children[0]?.name, c.children[0]?.attrs.message])).toEqual([
      ['not configured › acl', 'skipped', `not configured: ${ACL_NOT_CONFIGURED_LINE}`],
    ])
  })

  it('carries an <error> for a run that could not be made, and for each run error', () => {
    const notMade = parseJunit(
      junitXml(reportOf([], { runErrors: ['target unreachable: connection refused'] }, { made: false })),
    )
    expect(notMade.attrs).toMatchObject({ tests: '1', errors: '1', failures: '0' })
    const [c] = notMade.children[0]!.children
    expect(c!.children[0]).toMatchObject({
      name: 'error',
      attrs: { message: 'target unreachable: connection refused', type: 'run not made' },
    })
    const withError = parseJunit(junitXml(reportOf(results(), { runErrors: ['suite file crashed'] })))
    expect(withError.attrs.errors).toBe('1')
  })
})
