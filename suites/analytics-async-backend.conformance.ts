import { registerModule } from '../lib/run/register.ts'

registerModule('analytics-async-backend')
