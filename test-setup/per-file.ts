/**
 * Set-up of every test file of the node project. Its test files share the modules of a worker (isolate off,
 * vitest.config.ts): a helper's `afterAll` at module level would run after the first file that imported it
 * only. What must happen after each file is registered here.
 */
import { afterAll } from 'vitest'
import { removeRunDirs } from '../lib/cli/testing.ts'

afterAll(removeRunDirs)
