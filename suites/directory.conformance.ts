import { moduleSuite } from '../lib/vitest/module-suite.ts'

// Directory: the 3 endpoints of lib/spec/catalog/directory.ts, each with every check that applies to it.
moduleSuite({ module: 'directory', workflows: [] })
