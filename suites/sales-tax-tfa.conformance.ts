import { registerModule } from '../lib/run/register.ts'

registerModule('sales-tax-tfa')
