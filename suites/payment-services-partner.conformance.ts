import { registerModule } from '../lib/run/register.ts'

registerModule('payment-services-partner')
