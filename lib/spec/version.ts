import { readFileSync } from 'node:fs'

/** "The interface as described corresponds to platform version 2.4.9." (spec, Versioning) */
export const SPEC_VERSION = '2.4.9'

/**
 * The suite's name and version are the npm package's (README, "Versions"): read once, at run time, from the
 * package.json beside this code — in a clone and in an installed package alike — so no copy can drift from
 * what `npm publish` released.
 */
export const SUITE: { readonly name: string; readonly version: string } = (() => {
  const { name, version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    name: string
    version: string
  }
  return { name, version }
})()
