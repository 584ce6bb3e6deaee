// A definition's identity for trust records: JSON with object keys sorted at every level (absent keys
// left out), hashed with SHA-256. Codex hook trust (`@tack/hooks-codex` trust.ts) and MCP server
// approval (apps/tack/src/mcp/approvals.ts) both bind a recorded decision to it, so an edit to what was
// trusted makes it untrusted again while a reordering of keys does not.
import { createHash } from 'node:crypto'

/** JSON with object keys sorted at every level, so equal definitions hash equally. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (value !== null && typeof value === 'object') {
    const obj = value as Record<string, unknown>
    const keys = Object.keys(obj)
      .filter((k) => obj[k] !== undefined)
      .sort()
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`).join(',')}}`
  }
  return JSON.stringify(value)
}

/** `sha256:` and the hex SHA-256 of `value`'s canonical JSON. */
export function canonicalHash(value: unknown): string {
  return `sha256:${createHash('sha256').update(canonicalJson(value)).digest('hex')}`
}
