/** The time a run keeps before its printed end (issue 31.7): for stopping, cleanup, and the reports at this machine's load. */
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
    expect(writeReserveMs(0)).toBe(WRITE_RESERVE_MS)
    // A loaded machine's 2 MB report (570–1060 ms to write after a first step of 20–48 ms).
    expect(writeReserveMs(20)).toBeGreaterThanOrEqual(1_060)
    // A loaded machine's 6 MB report (2.5 s to write after a first step of 93 ms), a 20 MB one (up to 6.9 s after 530 ms).
    expect(writeReserveMs(93)).toBeGreaterThanOrEqual(2_500)
    expect(writeReserveMs(530)).toBeGreaterThanOrEqual(6_900)
  })
})
