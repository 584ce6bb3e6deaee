// Secrets (API keys, credential headers) must never reach an error message, a log or output
// (90-quality.md, security 1). Providers sometimes echo a key back in an error body ("Incorrect API
// key provided: sk-…"), so every message we build from provider text passes through `redact`.

export const REDACTED = '[redacted]'

/** Header names whose values are credentials. */
const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'x-api-key', 'api-key', 'cookie'])

export function isSecretHeader(name: string): boolean {
  const lower = name.toLowerCase()
  return SECRET_HEADERS.has(lower) || /(key|token|secret|auth)/.test(lower)
}

/** Replaces every occurrence of each secret (and of its long fragments) in `text`. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text
  for (const secret of secrets) {
    // Very short values would redact ordinary words; real keys are long.
    if (secret.length < 8) continue
    out = out.split(secret).join(REDACTED)
    // A provider may show a key partly masked ("sk-abc…wxyz"); cover the visible head.
    const head = secret.slice(0, Math.min(12, secret.length - 4))
    if (head.length >= 8) out = out.split(head).join(REDACTED)
  }
  return out
}
