/**
 * `proxy --target URL --har FILE [--port N] [--host HOST] [--token-class PREFIX=admin|customer ...] [--report-dir DIR]
 * [--insecure]`: forwards traffic to the shop (lib/cli/proxy.ts) and writes its redacted HAR as it goes; at Ctrl-C or
 * SIGTERM, judges the capture passively into the report directory, as `judge --har FILE --passive` does, and prints
 * the verdict. Its exit status is the passive report's (0 nothing failed, 1 something did).
 */
import { once } from 'node:events'
import { UsageError } from '../base/usage-error.ts'
import { ensureWritableDir } from '../base/output-dir.ts'
import { args, required, type CommandIo } from './command-io.ts'
import { judgeCapture, tokenHints } from './passive-command.ts'
import { startProxy } from './proxy.ts'

export async function proxyCommand(
  argv: string[],
  io: CommandIo,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  const { values } = args('proxy', argv, {
    target: { type: 'string' },
    har: { type: 'string' },
    port: { type: 'string' },
    host: { type: 'string' },
    'token-class': { type: 'string', multiple: true },
    'report-dir': { type: 'string' },
    insecure: { type: 'boolean' },
  })
  const target = targetUrl(required('proxy', values.target, '--target URL'))
  const har = required('proxy', values.har, '--har FILE')
  const port = values.port === undefined ? 0 : Number(values.port)
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new UsageError(`proxy: --port must be a port number (0–65535; 0: a free one), not "${values.port}"`)
  }
  const hints = tokenHints('proxy', values['token-class'] ?? [])
  const reportDir = values['report-dir'] ?? env.SHOP_REPORT_DIR ?? 'reports'
  ensureWritableDir(reportDir, '--report-dir / SHOP_REPORT_DIR')
  // Loopback unless told otherwise: the traffic carries the shop's tokens.
  const proxy = await startProxy({
    target,
    host: values.host ?? '127.0.0.1',
    port,
    har,
    hints,
    insecure: values.insecure === true,
  })
  io.out(
    `proxy: ${proxy.url} → ${target.href} · writing ${har} · Ctrl-C (or SIGTERM) ends it and judges the traffic passively\n`,
  )
  const stop = new AbortController()
  const signalled = (name: NodeJS.Signals) =>
    once(process, name, { signal: stop.signal }).then(
      () => name,
      () => name,
    )
  const signal = await Promise.race([signalled('SIGINT'), signalled('SIGTERM')])
  stop.abort()
  await proxy.close()
  io.out(
    `proxy: stopped (${signal}) after ${proxy.entries()} exchange${proxy.entries() === 1 ? '' : 's'}; judging ${har} passively\n`,
  )
  return judgeCapture(har, { baseUrl: target.href.replace(/\/+$/, ''), hints, reportDir }, io)
}

function targetUrl(text: string): URL {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw new UsageError(`proxy: --target must be the shop's http(s) URL, not "${text}"`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`proxy: --target must be the shop's http(s) URL, not "${text}"`)
  return url
}
