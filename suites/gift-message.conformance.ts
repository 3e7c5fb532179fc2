import { moduleSuite } from '../lib/vitest/module-suite.ts'

// GiftMessage: the 12 endpoints of lib/spec/catalog/gift-message.ts, each with every check that applies to it.
moduleSuite({ module: 'gift-message', workflows: [] })
