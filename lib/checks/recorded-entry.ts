/** What `judge --har`'s judges read of a recording (recorded-judges.ts): its entries as tagged, and the run's facts. */
import type { CallerClass, Exchange } from '../results/exchange.ts'
import type { HarEntry } from '../results/har.ts'
import type { AnswerReading } from '../shop/recorded.ts'
import type { RecordedCarries } from '../shop/request.ts'
import type { ProbeSettings } from './probe.ts'

/** One exchange of a recording, with what the run's evidence tagged it with. */
export interface RecordedEntry {
  exchange: Exchange
  /** `_caller`: whom it was sent as, as a class. */
  caller: CallerClass
  /** `_probe`: the planned call or the role it was sent as (`valid call`). */
  probe?: string
  /** `_carries`: what its answer must carry. */
  carries?: RecordedCarries
  /** `_observed`, `_conflict`: what the body-keys and batch-partial checks read beside its answer. */
  observed?: HarEntry['_observed']
  conflict?: HarEntry['_conflict']
  /** `_items`: the batch-partial check's planned items of the call. */
  items?: HarEntry['_items']
}

/** What of the recorded run every judge reads: its probe settings, its calibration, its store codes. */
export interface RecordedRunFacts {
  settings: ProbeSettings
  reading: AnswerReading
  stores: { first: string; second: string }
}
