// The values tack hands a server through `env` or `headers` are secrets (55-mcp.md M7,
// docs/decisions/0265-mcp-secret-values.md): whether written literally or expanded from `${VAR}`, they
// are declared to `ctx.secrets` and redacted — with the kernel's one redactor, `secretRedactor` — from
// everything a server sends back before it is logged, shown, or read by the model. A server that
// echoes its environment (server-everything's `get-env`) or a request's `Authorization` header in an
// error body then shows `[redacted]`.
import { MIN_SECRET_LENGTH, secretRedactor } from '@tack/kernel'
import type { McpServerDefinition } from './definition.ts'

/** The values of `def`'s `env` and `headers` long enough to redact (`MIN_SECRET_LENGTH`). */
export function definitionSecretValues(def: McpServerDefinition): string[] {
  const maps = [def.type === 'stdio' ? def.env : def.headers]
  const values = maps.flatMap((m) => Object.values(m ?? {}))
  // `Bearer xyz…`: the token alone may be printed without its scheme, so it is redacted alone too.
  const tokens = values.flatMap((v) => /^[A-Za-z]+\s+(\S+)$/.exec(v)?.[1] ?? [])
  return [...new Set([...values, ...tokens])].filter((v) => v.length >= MIN_SECRET_LENGTH)
}

export interface Redact {
  (text: string): string
  /** A redactor for the values declared now, to apply to many strings (one result). */
  snapshot(): (text: string) => string
}

/** Redacts `values()` as they are at each use (a server approved later declares more). */
export function redactorOf(values: () => Iterable<string>): Redact {
  const snapshot = () => secretRedactor(values())
  return Object.assign((text: string) => snapshot()(text), { snapshot })
}

/**
 * `value` with every string in it redacted (a tool result, a prompt, a resource's contents, a list).
 * Base64 `data`/`blob` fields are left whole: a secret is never found in them as written, and a
 * replacement would corrupt the image or file.
 */
export function redactDeep<T>(value: T, redactor: Redact): T {
  const redact = redactor.snapshot()
  const walk = (v: unknown, key?: string): unknown => {
    if (typeof v === 'string') return key === 'data' || key === 'blob' ? v : redact(v)
    if (Array.isArray(v)) return v.map((item) => walk(item))
    if (v !== null && typeof v === 'object')
      return Object.fromEntries(Object.entries(v).map(([k, item]) => [k, walk(item, k)]))
    return v
  }
  return walk(value) as T
}

/** `error` with its message redacted in place (it keeps its class and code: callers tell kinds apart). */
export function redactError(error: unknown, redact: Redact): unknown {
  if (error instanceof Error) {
    const message = redact(error.message)
    if (message !== error.message)
      try {
        error.message = message
      } catch {
        return new Error(message)
      }
  }
  return error
}
