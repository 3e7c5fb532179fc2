import { registerModule } from '../lib/run/register.ts'

registerModule('downloadable')
