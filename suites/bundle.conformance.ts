import { moduleSuite } from '../lib/vitest/module-suite.ts'

// Bundle: the 8 endpoints of lib/spec/catalog/bundle.ts, each with every check that applies to it.
moduleSuite({ module: 'bundle', workflows: [] })
