/**
 * The time a run keeps before its printed end (issue 31.7): for stopping, cleanup, and the reports at this machine's
 * load.
 */
import { describe, expect, it } from 'vitest'
import { stopReserveMs, WRITE_RESERVE_MS, writeReserveMs } from './stopping.ts'

describe('the time kept before the printed end', () => {
  it('keeps a tenth of the run for stopping, cleanup and the reports: 3 s to a minute, never more than half', () => {
    expect(stopReserveMs(15_000)).toBe(3_000)
    expect(stopReserveMs(300_000)).toBe(30_000)
    expect(stopReserveMs(1_800_000)).toBe(60_000)
  })

  it('keeps for the reports what their first step says they take at this load, at least a second', () => {
    // Nothing to write yet: the least.
    expect(writeReserveMs({ redactedJsonMs: 0 })).toBe(WRITE_RESERVE_MS)
    // A loaded machine's 2 MB report (570–1060 ms to write after a first step of 20–48 ms).
    expect(writeReserveMs({ redactedJsonMs: 20 })).toBeGreaterThanOrEqual(1_060)
    // A loaded machine's 6 MB report (2.5 s to write after a first step of 93 ms), a 20 MB one (up to 6.9 s after 530
    // ms).
    expect(writeReserveMs({ redactedJsonMs: 93 })).toBeGreaterThanOrEqual(2_500)
    expect(writeReserveMs({ redactedJsonMs: 530 })).toBeGreaterThanOrEqual(6_900)
  })

  it('keeps as many times more for what the first step does not show as the machine is loaded past its cores (issue 31.8)', () => {
    // A machine using no more than its cores: as before, whatever the evidence (a whole run's: 3.5 MB).
    expect(writeReserveMs({ redactedJsonMs: 20, evidenceBytes: 3_500_000, overload: 0.5 })).toBe(
      writeReserveMs({ redactedJsonMs: 20 }),
    )
    // Load 19 on two cores: a 2 MB report drafted and written in 18 s after a step of 352 ms, 2.1 MB of evidence joined
    // in 1.1 s of it; the first step alone kept 8 s.
    expect(writeReserveMs({ redactedJsonMs: 352, evidenceBytes: 2_100_000, overload: 9.5 })).toBeGreaterThanOrEqual(
      13_000,
    )
    // More evidence, more time; more load, more time.
    const at = (evidenceBytes: number, overload: number) =>
      writeReserveMs({ redactedJsonMs: 50, evidenceBytes, overload })
    expect(at(20_000_000, 4)).toBeGreaterThan(at(2_000_000, 4))
    expect(at(2_000_000, 8)).toBeGreaterThan(at(2_000_000, 4))
  })
})
