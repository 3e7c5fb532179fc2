import type { PathAlias } from '../settings/config.ts'

/** The path a target serves for a spec path, after the configured prefix aliases (first match wins). */
export function applyAliases(specPath: string, aliases: readonly PathAlias[]): string {
  for (const { from, to } of aliases) {
    if (specPath === from || specPath.startsWith(`${from}/`)) return to + specPath.slice(from.length)
  }
  return specPath
}
