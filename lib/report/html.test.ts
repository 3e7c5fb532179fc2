import { describe, expect, it } from 'vitest'
import type { Result } from '../results/result.ts'
import { curlFor } from './curl.ts'
import { reportHtml } from './html.ts'
import type { Report } from './model.ts'
import { planResults, reportOf, sampleServerErrors } from './testing.ts'

const HOSTILE = '</script><img src=x onerror=alert(1)><!-- <script>window.pwned=1</script>'

function result(over: Partial<Result> & Pick<Result, 'id' | 'status'>): Result {
  return {
    module: 'directory',
    endpoint: { method: 'GET', path: '/V1/directory/countries' },
    check: 'route',
    message: 'ok',
    durationMs: 3,
    spec: ['Endpoints'],
    exchanges: [],
    ...over,
  }
}

function sampleReport(): Report {
  const results: Result[] = [
    result({ id: 'GET /V1/directory/countries › route', status: 'passed' }),
    result({
      id: 'GET /V1/modules › access',
      module: 'analytics-async-backend',
      endpoint: { method: 'GET', path: '/V1/modules' },
      check: 'access',
      status: 'failed',
      message: `admin endpoint: no token let through (200 ${HOSTILE})`,
      spec: ['Authentication 1–4', 'Endpoints › Endpoint lists by module › Analytics, AsynchronousOperations, Backend'],
      exchanges: [
        {
          request: {
            method: 'GET',
            url: 'http://127.0.0.1:1/rest/default/V1/modules?searchCriteria[pageSize]=5',
            headers: { accept: 'application/json', authorization: 'Bearer [redacted customer token]' },
          },
          response: {
            status: 200,
            headers: { 'content-type': 'text/html' },
            body: `<html><body>${HOSTILE}</body></html>`,
          },
          durationMs: 2,
        },
      ],
      details: {
        accessClass: 'admin',
        matrix: { none: { expected: 'refuse', seen: 'accepted', answer: `200 ${HOSTILE}`, ok: false } },
      },
      warnings: [HOSTILE],
    }),
    result({
      id: 'GET /V1/directory/countries › body-keys',
      check: 'body-keys',
      status: 'skipped',
      applicable: false,
      message: 'not shown',
    }),
    result({ id: 'workflow w › 01 step', check: 'workflow', status: 'passed', message: 'u2028\u2028 u2029\u2029 ok' }),
  ]
  return reportOf(results, {
    run: { id: 'run-1', seed: 42 },
    summary: {
      passed: 2,
      failed: 1,
      skipped: 1,
      notApplicable: 1,
      total: 4,
      warnings: 1,
      endpointsInCatalog: 278,
      endpointsChecked: 2,
    },
    calibration: { noRoute: ['404 "Request does not match any route."'], unknownStore: [] },
  })
}

/** The text of the `<script id=...>` element, as the HTML parser would end it: at the first `</script`. */
function scriptText(html: string, id: string): string {
  const open = `<script id="${id}" type="application/json">`
  const start = html.indexOf(open)
  expect(start).toBeGreaterThan(0)
  const from = start + open.length
  return html.slice(from, html.toLowerCase().indexOf('</script', from))
}

describe('reportHtml', () => {
  const report = sampleReport()
  const html = reportHtml(report)

  it('is self-contained: no http(s) asset, no src or href to anything outside the page', () => {
    // Everything but the embedded data: markup, style and script of the page itself.
    const page = html.replace(/<script id="report-(data|view)" type="application\/json">[\s\S]*?<\/script>/g, '')
    expect(page).not.toMatch(/https?:\/\//i)
    expect(page).not.toMatch(/\/\/[a-z0-9.-]+\.[a-z]{2,}\//i)
    for (const m of page.matchAll(/\b(src|href|action|srcset|poster|data)\s*=\s*["']?([^"'\s>]*)/gi)) {
      expect(m[2], m[0]).toMatch(/^(data:|#|$)/)
    }
    expect(page).not.toMatch(/@import|url\(\s*['"]?(?!#)[a-z]+:/i)
    expect(page).not.toMatch(/<(iframe|object|embed|link rel="stylesheet"|img)\b/i)
    expect(page).not.toMatch(/\b(fetch|XMLHttpRequest|WebSocket|EventSource|sendBeacon|importScripts)\b/)
    expect(page).not.toMatch(/\.innerHTML|outerHTML|insertAdjacentHTML|document\.write/)
    // The CSP forbids any network access and any script but the page's own.
    expect(html).toMatch(
      /<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-[A-Za-z0-9+/=]+';/,
    )
  })

  it('embeds the report as JSON that parses back to the report, and nothing in the data can end the script element', () => {
    const data = scriptText(html, 'report-data')
    expect(data).not.toContain('<')
    expect(JSON.parse(data)).toEqual(report)
    // Exactly the page's three script elements; the hostile message opened none.
    expect(html.match(/<script\b/gi)).toHaveLength(3)
    expect(html).not.toContain('<img')
    expect(html).not.toContain('window.pwned=1</script>')
    expect(html).not.toMatch(/[\u2028\u2029]/)
  })

  it("judges nothing of its own: the verdicts are the report's; beside it only a curl per exchange", () => {
    const view = JSON.parse(scriptText(html, 'report-view')) as { curls: string[][] } & Record<string, unknown>
    expect(view.conformance).toBeUndefined()
    expect(view.statements).toBeUndefined()
    expect(report.certification.modules.find((s) => s.module === 'analytics-async-backend')?.verdict).toBe(
      'does not conform',
    )
    expect(view.curls).toEqual(report.results.map((r) => r.exchanges.map((e) => curlFor(e))))
    expect(view.curls[1]?.[0]).toContain('"Authorization: Bearer $TOKEN"')
    expect(view.curls[1]?.[0]).toContain('--globoff')
  })

  it('pins its script by hash: the CSP hash is the script in the page', async () => {
    const { createHash } = await import('node:crypto')
    const script = /<script>([\s\S]*?)<\/script>/.exec(html)?.[1] ?? ''
    expect(script.length).toBeGreaterThan(1000)
    // Printable ASCII only: the HTML parser rewrites some characters (NUL, CR), which would break the hash.
    expect(script).toMatch(/^[\t\n\x20-\x7e]*$/)
    expect(html).toContain(`script-src 'sha256-${createHash('sha256').update(script).digest('base64')}'`)
    // Data reaches the page only as text.
    expect(script).toContain('textContent')
  })

  it('shows the signature digest when the report carries one, and renders without it', () => {
    const signed = { ...report, signature: { digest: 'sha256:abc123' } } as Report
    expect(JSON.parse(scriptText(reportHtml(signed), 'report-data')).signature.digest).toBe('sha256:abc123')
    expect(reportHtml(signed)).toContain('report.signature && report.signature.digest')
  })

  it("gives each server error the run met a curl that repeats its request: the caller's token as $TOKEN, the body as sent", () => {
    const listed = { ...report, serverErrors: sampleServerErrors() } as Report
    const page = reportHtml(listed)
    expect(page).toContain('<section class="notes" id="server-errors" hidden></section>')
    expect(JSON.parse(scriptText(page, 'report-data')).serverErrors).toEqual(listed.serverErrors)
    const view = JSON.parse(scriptText(page, 'report-view')) as { serverErrorCurls: string[] }
    const selection = listed.serverErrors!.entries.findIndex((e) => e.method === 'POST')
    expect(view.serverErrorCurls).toHaveLength(2)
    expect(view.serverErrorCurls[selection]).toContain(
      "--request 'POST' 'http://127.0.0.1:1/rest/default/V1/inventory/source-selection-algorithm-result'",
    )
    expect(view.serverErrorCurls[selection]).toContain('"Authorization: Bearer $TOKEN"')
    expect(view.serverErrorCurls[selection]).toContain('# set first: TOKEN (an admin token)')
    expect(view.serverErrorCurls[selection]).toContain(
      `--data-raw '${JSON.stringify(listed.serverErrors!.entries[selection]!.body)}'`,
    )
    expect(view.serverErrorCurls[1 - selection]).toContain(
      "'http://127.0.0.1:1/rest/default/V1/inventory/sources?searchCriteria%5BpageSize%5D=50'",
    )
    // The page's script renders the box (the browser test shows it).
    expect(page).toContain('serverErrorsBox(report.serverErrors, view.serverErrorCurls || [])')
  })

  // Issue 31.9: an interrupted report opened on "passed" (the checks it never reached have no row to count) and its
  // matrix had a cut-short run's columns (no workflow column): the columns are a whole run's, the page opens on them.
  it("gives a cut-short run a whole run's matrix columns, in its order, and the count of checks it never reached", () => {
    const viewOf = (report: Report) =>
      JSON.parse(
        /<script id="report-view" type="application\/json">(.*?)<\/script>/s.exec(reportHtml(report))![1]!,
      ) as { columns: string[]; unreached: number }
    const whole = viewOf(reportOf(planResults()))
    expect(whole.columns.at(-1)).toBe('workflow')
    expect(whole.unreached).toBe(0)
    const reached = planResults()
      .filter((r) => r.check !== 'workflow')
      .slice(0, 120)
      .reverse()
    const cut = viewOf(reportOf(reached, { partial: { reason: 'SIGINT' } }))
    expect(cut.columns).toEqual(whole.columns)
    expect(cut.unreached).toBe(planResults().length - 120)
  })
})
