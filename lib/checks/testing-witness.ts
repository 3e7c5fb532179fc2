/**
 * A developer's look at the access probes (not a test): which restricted endpoints get a valid request the admitted
 * caller succeeds with on the reference target, and what the access and acl checks say, clean or under a fault.
 *
 *   npx tsx lib/checks/testing-witness.ts [--module ID ...] [--fault NAME[@METHOD /V1/path | @*] ...] [--all]
 *
 * Prints one line per restricted endpoint that is not witnessed (or, with --all, every one), then the totals.
 */
import { parseFaultSwitch, startReferenceTarget, type FaultSwitch } from '../../reference-target/index.ts'
import { CATALOG, rowId } from '../spec/catalog/index.ts'
import { accessCheck } from './access.ts'
import { aclCheck } from './acl.ts'
import { limitedAdminEnv, openSession } from './testing.ts'

const args = process.argv.slice(2)
const modules: string[] = []
const faults: FaultSwitch[] = []
let all = false
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--module') modules.push(args[++i]!)
  else if (args[i] === '--fault') faults.push(parseFaultSwitch(args[++i]!))
  else if (args[i] === '--all') all = true
}
const rows = CATALOG.filter((r) => r.access !== 'anon' && (modules.length === 0 || modules.includes(r.module)))
const target = await startReferenceTarget({ faults })
const session = await openSession(target, [], limitedAdminEnv(target))
const counts = { witnessed: 0, failed: 0, passed: 0, skipped: 0, error: 0, aclFailed: 0 }
for (const row of rows) {
  const v = await accessCheck.run(row, session)
  const witnessed = (v.details as { witnessed?: boolean } | undefined)?.witnessed === true
  if (witnessed) counts.witnessed++
  counts[v.status]++
  const acl = row.acl !== undefined ? await aclCheck.run(row, session) : undefined
  if (acl?.status === 'failed') counts.aclFailed++
  if (all || !witnessed || (faults.length > 0 && v.status !== 'failed')) {
    console.log(
      `${witnessed ? 'W' : '-'} ${v.status.padEnd(7)} ${rowId(row)}: ${v.message.slice(0, 220)}${acl !== undefined ? ` | acl ${acl.status}: ${acl.message.slice(0, 120)}` : ''}`,
    )
  }
}
console.log(
  `${rows.length} restricted endpoints: ${counts.witnessed} witnessed; access ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} not judged, ${counts.error} errors; acl failed ${counts.aclFailed}`,
)
await session.close()
await target.close()
