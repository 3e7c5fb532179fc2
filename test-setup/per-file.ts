/**
 * Set-up of every test file of the node project. Its test files share the modules of a worker (isolate off,
 * vitest.config.ts): a helper's `afterAll` at module level would run after the first file that imported it
 * only. What must happen around each test and after each file is registered here.
 */
import { afterAll, afterEach, beforeAll } from 'vitest'
import { removeRunDirs } from '../lib/cli/testing.ts'
import { endAll, leaveTest, ownByTests } from './child-processes.ts'

// The processes a test starts end with it, passed, failed or timed out (child-processes.ts).
// (vitest reads a beforeAll's first parameter as the fixtures it uses: none here)
beforeAll(({}, file) => ownByTests(file))
afterEach((context) => leaveTest(context.task))
afterAll(() => {
  endAll()
  removeRunDirs()
})
