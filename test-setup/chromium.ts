/**
 * Before any test of the browser project: the browser the HTML report's test drives. Without it the message
 * came after minutes of other tests; now it is the first and only thing a run says.
 */
import { accessSync, constants } from 'node:fs'

export default function setup(): void {
  const chromium = process.env.SHOP_CHROMIUM ?? '/usr/bin/chromium'
  try {
    accessSync(chromium, constants.X_OK)
  } catch {
    throw new Error(
      `Chromium is not at ${chromium}: the HTML report is tested in a real browser. Install Debian's (apt-get install chromium) or name another with SHOP_CHROMIUM=/path/to/chromium.`,
    )
  }
}
