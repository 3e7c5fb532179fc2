// Plain JavaScript: the GitHub Action's script (action/run.mjs) runs it before anything is installed, and the
// suite's settings import it too, so that both hide the same part of a URL.

/**
 * The part of a URL that is a user and password, or could be: whatever stands between the scheme and the last
 * `@` (a URL that does not parse is not split the way a parser would). Undefined without an `@`.
 */
export function userInfoOf(raw) {
  const at = raw.lastIndexOf('@')
  if (at < 0) return undefined
  const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.exec(raw)?.[0] ?? ''
  return raw.slice(scheme.length, at)
}

/** The URL as it may be shown: its user info (userInfoOf) replaced by `[redacted]`. */
export function withoutUserInfo(raw) {
  const userInfo = userInfoOf(raw)
  if (userInfo === undefined) return raw
  const at = raw.lastIndexOf('@')
  return `${raw.slice(0, at - userInfo.length)}[redacted]${raw.slice(at)}`
}

/** Every URL in a text (`scheme://user:password@host…`) shown without its user info. */
export function textWithoutUserInfo(text) {
  return text.replace(/\b([A-Za-z][A-Za-z0-9+.-]*:\/\/)[^\s/?#]*@/g, '$1[redacted]@')
}
