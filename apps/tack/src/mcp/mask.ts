// What `tack mcp list|get`, `--json` and `tack doctor` show of a server: its definition as its file wrote
// it, with every value of `env` and `headers` (and a Codex bearer token's variable's value, which never
// is in a file) replaced, so a token never reaches a terminal, a log or a pasted bug report
// (docs/decisions/0225-mcp-server-sources.md). The names stay: they say what is configured.
import { isRecord } from './definition.ts'

export const MASK = '<hidden>'

const SECRET_MAPS = new Set(['env', 'headers', 'http_headers', 'env_http_headers'])

export function maskedDefinition(written: unknown): unknown {
  if (!isRecord(written)) return written
  return Object.fromEntries(
    Object.entries(written).map(([key, value]) => [
      key,
      SECRET_MAPS.has(key) && isRecord(value)
        ? Object.fromEntries(Object.keys(value).map((k) => [k, MASK]))
        : value,
    ]),
  )
}
