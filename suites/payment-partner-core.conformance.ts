import { registerModule } from '../lib/run/register.ts'

registerModule('payment-partner-core')
