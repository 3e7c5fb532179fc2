import { describe, expect, it } from 'vitest'
import type { TestProject, TestSpecification, Vitest } from 'vitest/node'
import { BaseSequencer } from 'vitest/node'
import { lookaheadOrder } from './lookahead-order.ts'
import { announceStop, onStopAnnounced } from '../shop/stop-channel.ts'
import type { Result } from '../results/result.ts'
import { modulesAhead, startedIn, startOnce } from './lookahead.ts'

const result = { id: 'x', status: 'passed' } as unknown as Result

describe("the next module's work, started in this one's tail", () => {
  it("starts two modules ahead, each once, in the run's order; a new run starts from nothing", async () => {
    const order = ['a', 'b', 'c', 'd']
    expect(modulesAhead('run-1', 'a', order)).toEqual(['b', 'c'])
    expect(modulesAhead('run-1', 'b', order)).toEqual(['d'])
    expect(modulesAhead('run-1', 'c', order)).toEqual([])
    expect(modulesAhead('run-1', 'd', order)).toEqual([])
    let starts = 0
    const start = () => {
      starts++
      return Promise.resolve(result)
    }
    startOnce('run-1', 'GET /x › status', start)
    startOnce('run-1', 'GET /x › status', start)
    expect(starts).toBe(1)
    expect(await startedIn('run-1').get('GET /x › status')).toBe(result)
    expect(startedIn('run-2').size).toBe(0)
    expect(modulesAhead('run-2', 'b', order)).toEqual(['a', 'c'])
    expect(startedIn('run-2').size).toBe(0)
  })

  const project = {
    name: 'conformance',
    config: { sequence: { groupOrder: 2 }, isolate: false },
  } as unknown as TestProject
  const spec = (module: string, extra: Partial<TestSpecification> = {}) =>
    ({ project, moduleId: `/root/suites/${module}.conformance.ts`, ...extra }) as TestSpecification
  const vitest = (config: Record<string, unknown> = {}) => {
    const v = {
      config: { root: '/root', sequence: { sequencer: BaseSequencer }, ...config },
      cache: { getFileTestResults: () => undefined, getFileStats: () => undefined },
    }
    return v as unknown as Vitest
  }

  it('is offered only when every file runs its whole module: not under -t, test ids, lines or tags', async () => {
    const specs = [spec('cms'), spec('quote'), spec('extensions')]
    expect(await lookaheadOrder(vitest(), specs, project)).toEqual(['cms', 'quote'])
    expect(await lookaheadOrder(vitest({ testNamePattern: /base-prices/ }), specs, project)).toBeUndefined()
    expect(await lookaheadOrder(vitest(), [spec('cms', { testIds: ['1'] }), spec('quote')], project)).toBeUndefined()
    expect(await lookaheadOrder(vitest(), [spec('cms', { testLines: [3] }), spec('quote')], project)).toBeUndefined()
    expect(await lookaheadOrder(vitest({ tagsFilter: ['slow'] }), specs, project)).toBeUndefined()
  })

  it('a shard looks ahead only into its own files', async () => {
    const specs = ['cms', 'quote', 'customer', 'checkout', 'bundle', 'directory'].map((m) => spec(m))
    const one = await lookaheadOrder(vitest({ shard: { index: 1, count: 2 } }), specs, project)
    const two = await lookaheadOrder(vitest({ shard: { index: 2, count: 2 } }), specs, project)
    expect(one!.length + two!.length).toBe(6)
    expect(one!.filter((m) => two!.includes(m))).toEqual([])
  })

  it("a stop announced by the main process reaches the run's listener, not another run's", async () => {
    const heard: string[] = []
    const offA = onStopAnnounced('run-a', () => heard.push('a'))
    const offB = onStopAnnounced('run-b', () => heard.push('b'))
    announceStop('run-a')
    await new Promise((r) => setTimeout(r, 50))
    offA()
    offB()
    expect(heard).toEqual(['a'])
  })
})
