// What `tack mcp list|get`, `--json`, `tack doctor` and the approval questions show of a server: its
// definition as its file wrote it, with every literal value of `env` and `headers` (and a Codex bearer
// token's variable's value, which never is in a file) hidden, so a token never reaches a terminal, a log
// or a pasted bug report (docs/decisions/0225-mcp-server-sources.md). A `${VAR}` reference as written is
// no secret and is shown: it says which of the person's variables the server is sent
// (docs/decisions/0265-mcp-secret-values.md) — `X-Trace=${OPENAI_API_KEY}` must be visible before an
// approval. A default (`${VAR:-x}`) is literal text, so it is hidden like any literal.
import { SECRET_NAME } from '../secrets.ts'
import { isRecord } from './definition.ts'

export const MASK = '<hidden>'

const SECRET_MAPS = new Set(['env', 'headers', 'http_headers', 'env_http_headers'])
const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-[^}]*)?\}/g

/** One value as shown: the references as written when it is nothing else, else hidden naming them. */
export function maskedValue(value: unknown): string {
  if (typeof value !== 'string') return MASK
  const refs = [...value.matchAll(REFERENCE)]
  if (refs.length === 0) return MASK
  const onlyPlainRefs = value.replace(/\$\{[A-Za-z_][A-Za-z0-9_]*\}/g, '') === ''
  if (onlyPlainRefs) return value
  return `<hidden, from ${refs.map((r) => `\${${r[1]}}`).join(' ')}>`
}

/**
 * The variables a definition's `env`/`headers` send that are secret: named so (`*_KEY`, …) or in `known`
 * (the variables configured model endpoints read their keys from, `apiKeyEnv`).
 */
export function secretReferences(written: unknown, known: ReadonlySet<string> = new Set()): string[] {
  if (!isRecord(written)) return []
  const names = new Set<string>()
  for (const [key, map] of Object.entries(written)) {
    if (!SECRET_MAPS.has(key) || !isRecord(map)) continue
    for (const v of Object.values(map))
      if (typeof v === 'string')
        for (const r of v.matchAll(REFERENCE))
          if (SECRET_NAME.test(r[1] ?? '') || known.has(r[1] ?? '')) names.add(r[1] ?? '')
  }
  return [...names]
}

/** The `apiKeyEnv` variables of the configured model endpoints (`plugins.llm.endpoints.*`). */
export function endpointKeyVariables(plugins: Readonly<Record<string, unknown>>): Set<string> {
  const llm = plugins.llm
  const endpoints = isRecord(llm) && isRecord(llm.endpoints) ? Object.values(llm.endpoints) : []
  return new Set(
    endpoints.flatMap((e) => (isRecord(e) && typeof e.apiKeyEnv === 'string' ? [e.apiKeyEnv] : [])),
  )
}

export function maskedDefinition(written: unknown): unknown {
  if (!isRecord(written)) return written
  return Object.fromEntries(
    Object.entries(written).map(([key, value]) => [
      key,
      SECRET_MAPS.has(key) && isRecord(value)
        ? Object.fromEntries(
            Object.entries(value).map(([k, v]) => [k, key === 'env_http_headers' ? v : maskedValue(v)]),
          )
        : value,
    ]),
  )
}
