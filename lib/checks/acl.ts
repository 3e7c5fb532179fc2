import { ACL_RULES } from '../spec/rules.ts'
import type { EndpointRow } from '../spec/types.ts'
import type { Session } from '../shop/session.ts'
import { describeOpen, judgeCell, seenOf } from './access.ts'
import { isSuccess, SetupError } from '../setup/provision.ts'
import { exchangesOf, probeOne, quoteAnswer, unusable, type Probe, type ProbeRequest } from './probe.ts'
import { validCall } from './scenario-call.ts'
import type { NotJudgedReason, Verdict } from '../results/verdict.ts'
import type { Check } from './types.ts'

/** Where a run without a limited admin is told what it lacks: every format shows it, and the certification. */
export const ACL_NOT_CONFIGURED =
  'not configured: the ACL rule needs a second admin whose role lacks some of the detail table\'s ACL resources; set SHOP_LIMITED_ADMIN_USERNAME, SHOP_LIMITED_ADMIN_PASSWORD and SHOP_LIMITED_ADMIN_RESOURCES to judge it (README, "The ACL check: a limited admin")'

/**
 * Authentication 2: at an endpoint whose ACL resource the detail table names, the limited admin
 * (SHOP_LIMITED_ADMIN_USERNAME) is refused (401/403) when its role lacks the resource and let through when it has it,
 * read as the access check reads a cell. The run's own admin's answer to the same call is what tells a
 * refusal for the resource from an endpoint that is missing, broken, or refuses every admin: then nothing
 * about the resource can be read.
 */
export async function acl(row: EndpointRow, session: Session): Promise<Verdict> {
  const resource = row.acl!
  const rules = [ACL_RULES.of(row)]
  const limited = session.seed.limitedAdmin
  if (limited === undefined) return { status: 'skipped', message: ACL_NOT_CONFIGURED, exchanges: [], rules, reason: 'not-configured' }
  const has = limited.resources.includes(resource)
  const [admin, mine] = await calls(row, session)
  const exchanges = exchangesOf(admin, mine)
  const expected = has ? 'accept' : 'refuse'
  const seen = seenOf(session, mine)
  const who = `the limited admin (${limited.username}), whose role ${has ? 'has' : 'lacks'} ${resource},`
  const details = { resource, roleHas: has, expected, seen, answer: quoteAnswer(mine), admin: { seen: seenOf(session, admin), answer: quoteAnswer(admin) } }
  const notJudged = (why: string, reason: NotJudgedReason): Verdict => ({ status: 'skipped', message: `not judged: ${why}`, exchanges, details, rules, reason })

  if (mine.unavailable !== undefined) return notJudged(`${who} was not sent the call: ${mine.unavailable}`, mine.unavailableReason ?? 'suite-error')
  if (details.admin.seen === 'no-route') return notJudged(`the run's admin got the no-route answer here (${details.admin.answer}; see the route check)`, 'route-missing')
  const broken = unusable(admin)
  if (broken !== undefined) return notJudged(`the run's admin got ${broken}, so no answer here is about access (see the route check)`, admin.answer === undefined ? 'no-answer' : 'unusable-answer')
  if (details.admin.seen === 'refused') return notJudged(`the run's admin was refused too (${details.admin.answer}; see the access check), so a refusal here says nothing about ${resource}`, 'unusable-answer')

  const ok = judgeCell(expected, seen)
  if (ok === true) return { status: 'passed', message: `${who} was ${has ? 'let through' : 'refused'} (${details.answer})`, exchanges, details, rules }
  if (ok === false) {
    const what = seen === 'accepted' ? 'let through' : seen === 'refused' ? 'refused' : 'given the no-route answer'
    const why = has ? 'where its token carries the resource the detail table names' : `where the token must carry ${resource}`
    return { status: 'failed', message: `${who} was ${what} (${details.answer}) ${why}`, exchanges, details, rules }
  }
  return notJudged(`${who} ${describeOpen(details)}`, seen === 'no usable answer' && mine.answer === undefined ? 'no-answer' : 'unusable-answer')
}

/**
 * The admin's and the limited admin's call. A placeholder call is mostly answered with a 4xx about its data,
 * which from a caller that should be refused says nothing (a refusal in a status the spec does not show?): a
 * GET is therefore made with the real data the shape check reads it with (its call, made once), which the
 * admin gets a success for — and a GET changes nothing whoever is let through. Writes, and a GET whose data
 * could not be made (read-only mode), are judged on the access check's placeholder probes.
 */
async function calls(row: EndpointRow, session: Session): Promise<[Probe, Probe]> {
  const store = session.seed.storeCode
  const real = row.method === 'GET' ? await validCall(session, row).catch((err: unknown) => (err instanceof SetupError ? undefined : Promise.reject(err))) : undefined
  if (real === undefined || real.outcome.answer === undefined || !isSuccess(real.outcome.answer)) {
    const [admin, limited] = PLACEHOLDER_CALLS
    return Promise.all([probeOne(session, row, admin), probeOne(session, row, limited)])
  }
  const { path, prepared } = real
  const outcome = await session.send({ method: 'GET', path, store, token: session.tokenFor('limited admin')!, ...(prepared.query !== undefined ? { query: prepared.query } : {}) })
  return [
    { caller: 'admin', store, path, ...real.outcome },
    { caller: 'limited admin', store, path, ...outcome },
  ]
}

/** The access check's placeholder call, by the run's admin and the limited admin. */
const PLACEHOLDER_CALLS: [ProbeRequest, ProbeRequest] = [
  { caller: 'admin', store: 'first' },
  { caller: 'limited admin', store: 'first' },
]

export const aclCheck: Check = {
  name: 'acl',
  description: 'An admin whose role lacks the ACL resource the detail table names is refused; one whose role has it is let through.',
  spec: ['Authentication 2', 'Endpoints with detailed shape (ACL)'],
  rules: [ACL_RULES.resource],
  appliesTo: (row) => (row.acl !== undefined ? true : 'the spec names no ACL resource for this endpoint (Authentication 8: "not shown")'),
  needs: (settings) => (settings.limitedAdmin ? true : ACL_NOT_CONFIGURED),
  // A GET is made with the shape check's data (calls), which depends on the target's answers: --dry-run describes it.
  requests: (row) => (row.method === 'GET' ? [] : PLACEHOLDER_CALLS),
  run: acl,
}
