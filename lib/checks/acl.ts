import { ACL_RULES } from '../spec/rules.ts'
import { defined } from '../base/defined.ts'
import type { EndpointRow } from '../spec/types.ts'
import { judgeAccess } from '../spec/admission.ts'
import type { Probe, ProbeAnswers, SequenceAnswers } from '../shop/probe.ts'
import { cellOf, serverErrorReason } from './access.ts'
import { accessSequence } from './access-sequence.ts'
import { exchangesOf, type ProbeSettings } from './probe.ts'
import type { Verdict } from '../results/verdict.ts'
import type { ProbeCheck } from './types.ts'
import { probeCheck } from './probe-check.ts'

/** Where a run without a limited admin is told what it lacks: every format shows it, and the certification. */
export const ACL_NOT_CONFIGURED =
  'not configured: the ACL rule needs a second admin whose role lacks some of the detail table\'s ACL resources; set SHOP_LIMITED_ADMIN_USERNAME, SHOP_LIMITED_ADMIN_PASSWORD and SHOP_LIMITED_ADMIN_RESOURCES to judge it (README, "The ACL check: a limited admin")'

/**
 * Authentication 2: at an endpoint whose ACL resource the detail table names, the limited admin
 * (SHOP_LIMITED_ADMIN_USERNAME) is refused (401/403) when its role lacks the resource and let through when it has it.
 * It is sent the access check's valid request (access-sequence.ts), and the run's own admin's success with the same
 * request is the witness its answer is read against (lib/spec/admission.ts, `judgeAccess`): without that success,
 * nothing about the resource can be read.
 */
export function judgeAcl(row: EndpointRow, answers: ProbeAnswers, settings: ProbeSettings): Verdict {
  const resource = defined(row.acl, 'the ACL resource of a row the acl check applies to')
  const rules = [ACL_RULES.of(row)]
  const limited = settings.limitedAdmin
  const s = answers.sequence
  if (limited === undefined || s === undefined)
    return { status: 'skipped', message: ACL_NOT_CONFIGURED, exchanges: [], rules, reason: 'not-configured' }
  const has = limited.resources.includes(resource)
  const who = `the limited admin (${limited.username}), whose role ${has ? 'has' : 'lacks'} ${resource},`
  const { mine, admin } = pairOf(s)
  const exchanges = [...(s.unbuilt?.exchanges ?? []), ...exchangesOf(mine, admin)]
  const placeholder = s.unbuilt === undefined ? '' : ` (probed with placeholder values: ${s.unbuilt.message})`
  const limitedCell = cellOf('limited admin', has ? 'accept' : 'refuse', mine)
  const adminCell = cellOf('admin', 'accept', admin)
  const details = detailsOf(resource, has, limitedCell, adminCell)
  const verdict = (status: Verdict['status'], message: string, extra: Partial<Verdict> = {}): Verdict => ({
    status,
    message: `${message}${placeholder}`,
    exchanges,
    details,
    rules,
    ...extra,
  })
  // The run's admin refused is the access check's failure; here it only means no answer is about the resource.
  if (adminCell.seen === 'refused')
    return verdict(
      'skipped',
      `not judged: the run's admin was refused too (${adminCell.answer}; see the access check), so a refusal here says nothing about ${resource}`,
      { reason: 'unusable-answer' },
    )
  const judged = judgeAccess([limitedCell, adminCell], 'admin', {
    who: (c) => (c === 'limited admin' ? who : "the run's admin"),
  })
  if (judged.status === 'not judged') {
    const reason = serverErrorReason(judged, 'admin') ?? s.unbuilt?.reason ?? judged.reason ?? 'unusable-answer'
    return verdict('skipped', judged.message, { reason })
  }
  const ok = defined(judged.cells[0], "the limited admin's judged cell (the first given)").ok
  if (ok === false) return verdict('failed', `${who} was ${wrongAnswer(resource, has, limitedCell)}`)
  const witness =
    adminCell.seen === 'accepted'
      ? `, where the run's admin got ${adminCell.answer.split(' ')[0]} for the same request`
      : ''
  return verdict('passed', `${who} was ${has ? 'let through' : 'refused'} (${limitedCell.answer})${witness}`)
}

type AclCell = ReturnType<typeof cellOf>

/** The run's admin's answer (the witness) and the limited admin's, or a cell not sent for want of its token. */
function pairOf(s: SequenceAnswers): { mine: Probe; admin: Probe } {
  const admin = defined(s.probes.get('admin'), "the run's admin's answer (the witness of an admin endpoint's request)")
  const mine: Probe = s.probes.get('limited admin') ?? {
    caller: 'limited admin',
    store: admin.store,
    path: '',
    unavailable: 'no limited admin token',
    unavailableReason: 'not-configured',
  }
  return { mine, admin }
}

/** What the verdict records: the resource, whether the role has it, the limited admin's cell, the admin's answer. */
function detailsOf(resource: string, has: boolean, limitedCell: AclCell, adminCell: AclCell): Record<string, unknown> {
  return {
    resource,
    roleHas: has,
    expected: limitedCell.expected,
    seen: limitedCell.seen,
    answer: limitedCell.answer,
    admin: { seen: adminCell.seen, answer: adminCell.answer },
  }
}

/** How the limited admin's answer went against its role: what it was given, and what its token carries. */
function wrongAnswer(resource: string, has: boolean, limitedCell: AclCell): string {
  let what = 'given the no-route answer'
  if (limitedCell.seen === 'accepted') what = 'let through'
  else if (limitedCell.seen === 'refused') what = 'refused'
  const why = has
    ? 'where its token carries the resource the detail table names'
    : `where the token must carry ${resource}`
  return `${what} (${limitedCell.answer}) ${why}`
}

export const aclCheck: ProbeCheck = probeCheck({
  name: 'acl',
  description:
    'An admin whose role lacks the ACL resource the detail table names is refused; one whose role has it is let through.',
  spec: ['Authentication 2', 'Endpoints with detailed shape (ACL)'],
  rules: [ACL_RULES.resource],
  appliesTo: (row) =>
    row.acl !== undefined ? true : 'the spec names no ACL resource for this endpoint (Authentication 8: "not shown")',
  needs: (settings) => (settings.limitedAdmin ? true : ACL_NOT_CONFIGURED),
  // Sent the access check's valid request; nothing without a limited admin.
  probes: (row, settings) => {
    const sequence = settings.limitedAdmin !== undefined ? accessSequence(row, settings) : undefined
    return { calls: [], ...(sequence !== undefined ? { sequence } : {}) }
  },
  judge: judgeAcl,
})
