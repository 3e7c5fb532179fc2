import { configDefaults, defineConfig } from 'vitest/config'

// The project's own tests. The conformance suites (suites/*.conformance.ts) are not tests of this
// project: `shop-conformance run` runs them against a target with its own configuration.
const TESTS = ['lib/**/*.test.ts', 'fixtures/**/*.test.ts']
const BROWSER_TESTS = ['lib/**/*.browser.test.ts']
const timeouts = { testTimeout: 60_000, hookTimeout: 60_000 }

export default defineConfig({
  test: {
    ...timeouts,
    globalSetup: ['test-setup/temp-dir.ts'],
    projects: [
      // First, and checked before it starts: a missing browser is said at once, not after the other tests.
      { test: { name: 'browser', include: BROWSER_TESTS, globalSetup: ['test-setup/chromium.ts'], sequence: { groupOrder: 0 }, ...timeouts } },
      { test: { name: 'node', include: TESTS, exclude: [...configDefaults.exclude, ...BROWSER_TESTS], sequence: { groupOrder: 1 }, ...timeouts } },
    ],
  },
})
