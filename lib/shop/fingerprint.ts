import type { Answer } from './request.ts'
import { defined } from '../base/defined.ts'

/**
 * What makes two answers "the same kind of answer": the status and the message (JSON `message`), or the
 * body text when there is no message. The requested path is blanked first, since routers often echo it.
 */
export interface Fingerprint {
  status: number
  key: string
}

const MAX_BODY_KEY = 512

export function fingerprint(answer: Pick<Answer, 'status' | 'body' | 'text'>, requestPath: string): Fingerprint {
  const body = answer.body
  if (body !== null && typeof body === 'object' && !Array.isArray(body)) {
    const message = (body as { message?: unknown }).message
    if (typeof message === 'string') return { status: answer.status, key: `message:${blankPath(message, requestPath)}` }
  }
  return { status: answer.status, key: `body:${blankPath(answer.text, requestPath).trim().slice(0, MAX_BODY_KEY)}` }
}

export function sameFingerprint(a: Fingerprint, b: Fingerprint): boolean {
  return a.status === b.status && a.key === b.key
}

export function matchesAny(
  answer: Pick<Answer, 'status' | 'body' | 'text'>,
  requestPath: string,
  set: readonly Fingerprint[],
): boolean {
  const f = fingerprint(answer, requestPath)
  return set.some((g) => sameFingerprint(f, g))
}

export function describeFingerprint(f: Fingerprint): string {
  const text = f.key.replace(/^(message|body):/, '')
  return `${f.status} ${text === '' ? '(empty body)' : JSON.stringify(text.length > 120 ? `${text.slice(0, 120)}…` : text)}`
}

function blankPath(text: string, path: string): string {
  const bare = defined(path.split('?')[0], 'the path without its query')
  return bare.length > 1 ? text.split(bare).join('{path}') : text
}
