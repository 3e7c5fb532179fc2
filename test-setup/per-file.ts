/**
 * Set-up of every test file of the integration and browser projects. Their test files share the modules of a
 * worker (isolate off, vitest.config.ts): a helper's `afterAll` at module level would run after the first file
 * that imported it only. What must happen around each test and after each file is registered here.
 */
import { afterAll, afterEach, aroundAll, aroundEach } from 'vitest'
import { asFile, asTest, endAll, leaveTest } from './child-processes.ts'
import { removeRunDirs } from './run-dirs.ts'

// The processes a test starts end with it, passed, failed or timed out (child-processes.ts).
aroundAll((runFile) => asFile(runFile))
aroundEach((runTest, context) => asTest(context.task, runTest))
afterEach((context) => leaveTest(context.task))
afterAll(() => {
  endAll()
  removeRunDirs()
})
