/**
 * How verdicts name a shape and say it broken: the one sentence of the shape rules (judge-shape.ts judges them), for
 * the shape check, the body-keys check's documented call and the workflows' steps alike.
 */
import { failuresText, type Expectation } from './judge-shape.ts'

/**
 * The shape rule broken, as every verdict says it: `the answer is not CreditmemoInterface: /qty: expected number, …`.
 */
export function notOfShape(what: string, expectation: Expectation | string, failures: readonly string[]): string {
  return `${what} is not ${typeof expectation === 'string' ? expectation : describeExpectation(expectation)}: ${failuresText(failures)}`
}

/** What an expectation names: its tabled type, or its kind (`int`, `array`, …). */
export function describeExpectation(e: Expectation): string {
  return e.kind === 'tabled' ? (TABLED_TYPE_NAMES[e.shape] ?? e.shape) : e.kind
}

const TABLED_TYPE_NAMES: Record<string, string> = {
  creditmemo: 'CreditmemoInterface',
  orderAddress: 'OrderAddressInterface',
  cartAddress: 'a cart address as the spec tables it',
  attributeSet: 'AttributeSetInterface',
}
