import { registerModule } from '../lib/run/register.ts'

registerModule('configurable-product')
