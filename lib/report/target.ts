import { headline } from './certify.ts'
import type { Report } from './model.ts'
import { runStory } from './outcome.ts'

type Target = Pick<Report['target'], 'baseUrl' | 'bundledReferenceTarget' | 'name' | 'version'>

/**
 * What the target runs, as every format names it: `Platform 2.4.7-p7`, `Platform`, `version 2.4.7-p7`; undefined when
 * the report says neither.
 */
export function implementationOf(target: Pick<Target, 'name' | 'version'>): string | undefined {
  if (target.name !== undefined) return target.version !== undefined ? `${target.name} ${target.version}` : target.name
  return target.version !== undefined ? `version ${target.version}` : undefined
}

/** The target as every format names it: what it runs next to its URL, `Platform 2.4.7-p7 at https://shop.example`. */
export function targetText(target: Target): string {
  const what = implementationOf(target)
  if (what === undefined)
    return `${target.baseUrl}${target.bundledReferenceTarget ? ' (bundled reference target)' : ''}`
  return `${what} at ${target.baseUrl}${target.bundledReferenceTarget ? ' (bundled)' : ''}`
}

/**
 * What a signature states of its report: the target, then the verdict line (`… at https://shop.example: conforms · 100%
 * …`), and of a run cut short, its story (`a run cut short after 412 requests by …`).
 */
export function statementOf(
  report: Pick<Report, 'target' | 'certification'> & Partial<Pick<Report, 'exit' | 'partial' | 'runErrors'>>,
): string {
  const story = runStory(report)
  return `${targetText(report.target)}: ${headline(report.certification)}${story.kind === 'cut short' ? `; ${story.text}` : ''}`
}
