import { defineConfig } from 'vitest/config'

// The project's own tests. The conformance suites (suites/*.conformance.ts) are not tests of this
// project: `shop-conformance run` runs them against a target with its own configuration.
export default defineConfig({
  test: {
    include: ['lib/**/*.test.ts', 'fixtures/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
})
