/** What the suite files call, as one module: the worker loads it as one bundle of plain JavaScript (plugin.ts). */
export { moduleSuite } from './module-suite.ts'
export { extensionSuite } from './extension-suite.ts'
