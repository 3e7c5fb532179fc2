import { extensionSuite } from '../lib/vitest/extension-suite.ts'

// Extensions: the operations the shop's published schema declares beyond the spec (each checked for route, store
// code and access against its declared class) and the vendor's endpoints and checks (shop-conformance.config.ts).
// Registered from what the run learned at its start; reported apart, never in the spec's verdict.
await extensionSuite()
