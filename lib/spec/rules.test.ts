import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { CHECKS } from '../checks/index.ts'
import { WORKFLOWS } from '../workflows/index.ts'
import { CATALOG } from './catalog/index.ts'
import {
  ACCESS_RULES,
  ACL_RULES,
  BATCH_RULES,
  BODY_KEYS_RULES,
  ROUTE_RULES,
  SHAPE_RULES,
  STORE_CODE_RULES,
  TABLED_TYPE_WORDS,
  TOKEN_RULES,
  requiredWords,
  type Rule,
} from './rules.ts'
import { endpointText } from './endpoint-id.ts'

const SPEC = readFileSync(new URL('./source/commerce-rest-interface.md', import.meta.url), 'utf8').replace(/\s+/g, ' ')
const inSpec = (words: string) => SPEC.includes(words.replace(/\s+/g, ' '))

function expectQuoted(rule: Rule, where: string): void {
  expect(rule.specWords.length, `${where}: a rule without spec words`).toBeGreaterThan(0)
  for (const words of rule.specWords) expect(inSpec(words), `${where}: "${words}" is not in the spec`).toBe(true)
}

describe('the rules and their spec words', () => {
  it('quote the spec exactly, every one of them', () => {
    for (const [group, rules] of Object.entries({
      ROUTE_RULES,
      STORE_CODE_RULES,
      ACCESS_RULES,
      ACL_RULES,
      TOKEN_RULES,
      BATCH_RULES,
      SHAPE_RULES,
    })) {
      for (const [name, rule] of Object.entries(rules))
        if (typeof rule !== 'function') expectQuoted(rule, `${group}.${name}`)
    }
    for (const [name, words] of Object.entries(TABLED_TYPE_WORDS)) expect(inSpec(words), name).toBe(true)
  })

  it('quote the detail table for every body key rule and every ACL resource of every row', () => {
    for (const row of CATALOG) {
      if (row.acl !== undefined) expectQuoted(ACL_RULES.of(row), `${endpointText(row)} acl`)
      const body = (row.params ?? []).filter((p) => p.in === 'body')
      if (body.length === 0) continue
      expectQuoted(BODY_KEYS_RULES.documented(row), endpointText(row))
      for (const p of body.filter((x) => x.required === true)) {
        expect(inSpec(requiredWords(p)), `${endpointText(row)}: ${requiredWords(p)}`).toBe(true)
        expectQuoted(BODY_KEYS_RULES.required(p), `${endpointText(row)} ${p.name}`)
      }
    }
  })

  it('are given by every check and every workflow', () => {
    for (const check of CHECKS) {
      expect(check.rules.length, check.name).toBeGreaterThan(0)
      for (const rule of check.rules) expectQuoted(rule, check.name)
    }
    for (const w of WORKFLOWS) {
      expect(
        w.steps.some((s) => (s.rules?.length ?? 0) > 0),
        `${w.name} judges nothing`,
      ).toBe(true)
      for (const step of w.steps) for (const rule of step.rules ?? []) expectQuoted(rule, `${w.name} › ${step.title}`)
    }
  })

  it('are each in docs/checks.md, "What is checked, rule by rule", in the same words', () => {
    const section = readFileSync(new URL('../../docs/checks.md', import.meta.url), 'utf8').replace(/\s+/g, ' ')
    const rules = [
      ...CHECKS.flatMap((c) => c.rules),
      ...WORKFLOWS.flatMap((w) => w.steps.flatMap((s) => s.rules ?? [])),
    ]
    const missing = [...new Set(rules.flatMap((r) => r.specWords))].filter(
      (words) => !section.includes(words.replace(/\s+/g, ' ')),
    )
    expect(missing).toEqual([])
  })
})
