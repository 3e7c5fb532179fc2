import { moduleSuite } from '../lib/vitest/module-suite.ts'

// Analytics, AsynchronousOperations, Backend: the 6 endpoints of lib/spec/catalog/analytics-async-backend.ts, each with
// every check that applies to it.
moduleSuite({ module: 'analytics-async-backend', workflows: [] })
