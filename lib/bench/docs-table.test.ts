import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CONFIGURATIONS, ROOT, parseBenchArgs } from './args.ts'
import { DOCS_FILE, benchBlock, blocksOf, markdownTable, withBenchBlock, type BenchRecord } from './docs-table.ts'
import { figures, summarise, type Machine } from './figures.ts'
import { tableCells } from './table.ts'
import { slowShopCells } from './slow-shops.ts'

const machine: Machine = {
  cpus: 2,
  model: 'Test CPU',
  node: 'v20.20.2',
  os: 'Linux 6.1',
  loadAverageAtStart: [1.5, 1, 0.5],
}
const measured = {
  requests: 1900,
  wallMs: 4800,
  firstRequestMs: 550,
  lastRequestMs: 4400,
  floorWallMs: 2500,
  cpuMs: 3500,
  rssMb: 260,
  targetCpuMs: 300,
  floorTargetCpuMs: 250,
  exitCode: 0,
}

function recordOf(names: readonly string[]): BenchRecord {
  const configurations = names.map((name) => {
    const config = CONFIGURATIONS.find((c) => c.name === name)!
    return summarise(config, [figures(measured, config), figures({ ...measured, wallMs: 5000 }, config)], machine)
  })
  return {
    machine,
    runsPerConfiguration: 2,
    warmupRunsPerConfiguration: 1,
    configurations,
    commit: 'abc1234',
    date: '2026-11-26',
  }
}

const marker = (names: string, end = false) =>
  `<!-- ${end ? 'end of ' : ''}bench table ${names}: written by npm run bench -- --write-docs -->`

describe('the bench table in the docs', () => {
  it("is the printed table's cells in Markdown, a row per configuration", () => {
    const record = recordOf(['c16', 'c16-latency20'])
    const lines = markdownTable(record.configurations).split('\n')
    expect(lines).toHaveLength(4)
    expect(lines[0]).toBe(`| ${tableCells(record.configurations).header.join(' | ')} |`)
    expect(lines[1]).toMatch(/^\|---\|(---:\|)+$/)
    expect(lines[3]).toMatch(/^\| c16, 20 ms latency \| 1900 \| 4\.90 \(4\.80–5\.00\) \|/)
  })

  it('says what it was measured on, and what its columns are', () => {
    const block = benchBlock(recordOf(['c1']))
    expect(block).toContain('Measured at abc1234 on 2026-11-26: 2 × Test CPU, Linux 6.1, Node 20.20.2.')
    expect(block).toContain('Medians over 2 runs per configuration after 1 warm-up run (dropped)')
    expect(block).toContain('floor = the same requests replayed by a bare undici loop')
  })

  it('is written between the markers of the configurations measured, leaving other tables as they are', () => {
    const doc = `# P\n\n${marker('c1 c4')}\nSTALE\n${marker('c1 c4', true)}\n\ntext\n\n${marker('busy-shop')}\nKEPT\n${marker('busy-shop', true)}\n`
    const written = withBenchBlock(doc, recordOf(['c1', 'c4']))
    expect(written).not.toContain('STALE')
    expect(written).toContain('KEPT')
    expect(written).toContain(`${marker('c1 c4')}\n| configuration |`)
    expect(written.endsWith(`${marker('busy-shop', true)}\n`)).toBe(true)
    expect(withBenchBlock(written, recordOf(['c1', 'c4']))).toBe(written)
    expect(blocksOf(doc)).toEqual([['c1', 'c4'], ['busy-shop']])
  })

  it('is refused for configurations the document has no table of, naming the tables it has', () => {
    expect(() => withBenchBlock(`${marker('c1 c4')}\n${marker('c1 c4', true)}\n`, recordOf(['c16']))).toThrow(
      /has no table of c16 \(its tables: c1 c4\): .*add the markers/,
    )
  })

  it('is what the bench writes in docs/performance.md: its own header, a row per named configuration', () => {
    const doc = readFileSync(join(ROOT, DOCS_FILE), 'utf8')
    const blocks = blocksOf(doc)
    expect(blocks.map((b) => b.join(' '))).toContain('c1 c4 c16 c16-latency20')
    for (const names of blocks) {
      // The slow shops have a table of their own: their wall time against the shop's bound.
      const slow = names.every((n) => CONFIGURATIONS.find((c) => c.name === n)?.heavyMs !== undefined)
      const header = `| ${(slow ? slowShopCells([]) : tableCells([])).header.join(' | ')} |`
      for (const name of names)
        expect(
          CONFIGURATIONS.map((c) => c.name),
          name,
        ).toContain(name)
      const start = doc.indexOf(marker(names.join(' ')))
      const body = doc
        .slice(start, doc.indexOf(marker(names.join(' '), true), start))
        .split('\n')
        .slice(1)
      // A table measured and written (run npm run bench -- --write-docs), not one pasted with other columns.
      expect(body[0], names.join(' ')).toBe(header)
      expect(body.filter((l) => l.startsWith('| ')).length - 1, names.join(' ')).toBe(names.length)
      expect(body.join('\n'), names.join(' ')).toMatch(/\nMeasured at [0-9a-f]{7}/)
    }
  })

  it('is asked for with --write-docs, from a measurement or from an earlier bench.json', () => {
    expect(parseBenchArgs([]).writeDocs).toBe(false)
    expect(parseBenchArgs(['--write-docs', '--from', 'reports/bench.json'])).toMatchObject({
      writeDocs: true,
      from: join(ROOT, 'reports/bench.json'),
    })
  })
})
