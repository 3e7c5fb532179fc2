import { describe, expect, it } from 'vitest'
import { UsageError } from '../base/usage-error.ts'
import { loadConfig } from '../settings/config.ts'
import { parseTargetSchema, shownUrl } from './setting.ts'

const THIS_FILE = new URL(import.meta.url).pathname

function refused(raw: string): string {
  try {
    parseTargetSchema(raw)
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError)
    const message = (error as Error).message
    expect(message).not.toContain('\n')
    expect(message).toMatch(/^--target-schema \/ SHOP_TARGET_SCHEMA: /)
    return message
  }
  throw new Error(`"${raw}" was taken`)
}

describe('SHOP_TARGET_SCHEMA / --target-schema', () => {
  it('is auto unless given; auto, off, an http(s) URL or a file that exists', () => {
    expect(parseTargetSchema(undefined)).toEqual({ kind: 'auto' })
    expect(parseTargetSchema('auto')).toEqual({ kind: 'auto' })
    expect(parseTargetSchema(' OFF ')).toEqual({ kind: 'off' })
    expect(parseTargetSchema('https://docs.example.com/shop/schema.json')).toEqual({
      kind: 'url',
      url: 'https://docs.example.com/shop/schema.json',
    })
    expect(parseTargetSchema('http://127.0.0.1:8080/rest/default/schema?services=all')).toMatchObject({ kind: 'url' })
    expect(parseTargetSchema(THIS_FILE)).toEqual({ kind: 'file', path: THIS_FILE })
  })

  it('refuses anything else in one line, before any request (exit status 2)', () => {
    expect(refused('ftp://example.com/schema.json')).toMatch(/ftp: URLs are not read/)
    expect(refused('file:///tmp/schema.json')).toMatch(/file: URLs are not read/)
    expect(refused('https://')).toMatch(/is not a valid URL/)
    expect(refused('/no/such/schema.json')).toMatch(/no such file "\/no\/such\/schema.json"/)
    expect(refused('C:\\shop\\schema.json')).toMatch(/no such file/)
    expect(refused(new URL('.', import.meta.url).pathname)).toMatch(/is not a file/)
    expect(refused('')).toMatch(/an empty value/)
  })

  it('never shows a password a URL carries', () => {
    expect(refused('https://qa:Sup3r-Secret@')).not.toContain('Sup3r-Secret')
    expect(shownUrl('https://qa:Sup3r-Secret@docs.example.com/s.json')).toBe('https://docs.example.com/s.json')
  })

  it('is a setting of the run: the flag wins over the environment, a bad value stops loading the settings', () => {
    const load = (argv: string[], env: Record<string, string>) => loadConfig(argv, env, {}, [], [])
    expect(load([], {}).targetSchema).toEqual({ kind: 'auto' })
    expect(load([], { SHOP_TARGET_SCHEMA: 'off' }).targetSchema).toEqual({ kind: 'off' })
    expect(load(['--target-schema', 'auto'], { SHOP_TARGET_SCHEMA: 'off' }).targetSchema).toEqual({ kind: 'auto' })
    expect(() => load(['--target-schema', 'gopher://x'], {})).toThrow(UsageError)
  })
})
