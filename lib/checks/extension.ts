/**
 * A shop's extension operations (declared by its published schema, not named by the spec) as check kinds of the
 * plan: `extension-route`, `extension-store-code` and `extension-access`, judged by the spec's own route,
 * store-code and access judges on the answers `extensionPlan` allows (extension-probes.ts): a write only to
 * callers its declared class must refuse unless the run says `--extensions-probe-writes`, none in read-only mode.
 */
import type { ProbeCheck } from './types.ts'
import { probeCheck } from './probe-check.ts'
import { judgeRoute } from './route.ts'
import { judgeStoreCode } from './store-code.ts'
import { judgeAccessCheck } from './access.ts'
import { extensionPlan, operationOf } from './extension-probes.ts'

export { extensionRow } from './extension-probes.ts'

type ExtensionKind = ProbeCheck & { origin: 'extension' }

function kind(
  name: string,
  description: string,
  spec: readonly string[],
  judge: ProbeCheck['judge'],
  probeWrites: boolean,
): ExtensionKind {
  return {
    ...probeCheck({
      name,
      description,
      spec,
      rules: [],
      appliesTo: (row) => (operationOf(row) !== undefined ? true : "not an extension operation of the shop's schema"),
      probes: (row, settings) => extensionPlan(row, settings, probeWrites),
      judge,
    }),
    origin: 'extension',
  }
}

/** The three kinds, in the order they run and are reported; `probeWrites` is `--extensions-probe-writes`. */
export function extensionKinds(options: { probeWrites: boolean }): ExtensionKind[] {
  const { probeWrites } = options
  return [
    kind(
      'extension-route',
      "An operation the shop's schema declares is served at its declared method and path (a refusal is not the no-route answer).",
      ['What the service does (payloads are JSON)'],
      judgeRoute,
      probeWrites,
    ),
    kind(
      'extension-store-code',
      "A declared operation is served under the run's second store code as under the configured one.",
      ['What the service does (a store code can replace `default`)'],
      judgeStoreCode,
      probeWrites,
    ),
    kind(
      'extension-access',
      'A declared operation admits and refuses callers as the access class its schema declares says.',
      ['Authentication 1–4'],
      judgeAccessCheck,
      probeWrites,
    ),
  ]
}
