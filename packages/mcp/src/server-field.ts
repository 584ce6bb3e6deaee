// The `servers` config field: a map of server name → McpServerDefinition, checked key by key so a
// mistake names the server and the key (`servers.github.url: must be an http or https URL`).
import type { ConfigIssue, Field } from '@tack/kernel'
import type { McpServerDefinition, McpServers } from './definition.ts'

export const SERVER_TIMEOUT_MAX_MS = 3_600_000

const ALLOWED =
  'an object of server name → {type: "stdio", command, args?, env?, cwd?} or {type: "http" | "sse", url, headers?}, each with optional startupTimeoutMs, toolTimeoutMs, enabled'

const isRecord = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v)
const isStringMap = (v: unknown): v is Record<string, string> =>
  isRecord(v) && Object.values(v).every((x) => typeof x === 'string')
const isHttpUrl = (v: unknown): boolean => {
  if (typeof v !== 'string') return false
  try {
    const { protocol } = new URL(v)
    return protocol === 'http:' || protocol === 'https:'
  } catch {
    return false
  }
}

const KEYS: Record<McpServerDefinition['type'], readonly string[]> = {
  stdio: ['type', 'command', 'args', 'env', 'cwd', 'startupTimeoutMs', 'toolTimeoutMs', 'enabled'],
  http: ['type', 'url', 'headers', 'startupTimeoutMs', 'toolTimeoutMs', 'enabled'],
  sse: ['type', 'url', 'headers', 'startupTimeoutMs', 'toolTimeoutMs', 'enabled'],
}

/** What is wrong with one server's definition, as issues under `path`. */
export function serverProblems(value: unknown, path: string): ConfigIssue[] {
  if (!isRecord(value)) return [{ path, message: 'must be an object' }]
  const type = value.type ?? 'stdio'
  if (type !== 'stdio' && type !== 'http' && type !== 'sse')
    return [
      { path: `${path}.type`, message: `must be "stdio", "http" or "sse" (got ${JSON.stringify(type)})` },
    ]
  const issues: ConfigIssue[] = []
  const at = (key: string, message: string) => issues.push({ path: `${path}.${key}`, message })
  for (const key of Object.keys(value))
    if (!KEYS[type].includes(key))
      at(key, `is not a key of a ${type} server (allowed: ${KEYS[type].join(', ')})`)
  if (type === 'stdio') {
    if (typeof value.command !== 'string' || value.command === '') at('command', 'must be a non-empty string')
    if (
      value.args !== undefined &&
      !(Array.isArray(value.args) && value.args.every((a) => typeof a === 'string'))
    )
      at('args', 'must be a list of strings')
    if (value.env !== undefined && !isStringMap(value.env)) at('env', 'must be an object of string values')
    if (value.cwd !== undefined && typeof value.cwd !== 'string') at('cwd', 'must be a string')
  } else {
    if (!isHttpUrl(value.url)) at('url', 'must be an http or https URL')
    if (value.headers !== undefined && !isStringMap(value.headers))
      at('headers', 'must be an object of string values')
  }
  for (const key of ['startupTimeoutMs', 'toolTimeoutMs'] as const) {
    const ms = value[key]
    if (
      ms !== undefined &&
      !(Number.isInteger(ms) && (ms as number) >= 1 && (ms as number) <= SERVER_TIMEOUT_MAX_MS)
    )
      at(key, `must be an integer 1–${SERVER_TIMEOUT_MAX_MS}`)
  }
  if (value.enabled !== undefined && typeof value.enabled !== 'boolean') at('enabled', 'must be a boolean')
  return issues
}

export const serversField: Field<McpServers> = {
  kind: 'json',
  allowed: ALLOWED,
  description:
    'The MCP servers to connect, by name (their tools are `mcp__<name>__<tool>`). They run programs or reach URLs: only tack config the user owns, or sources apps/tack has trusted and approved, fill it.',
  hasDefault: true,
  defaultValue: {},
  check(value, path) {
    if (value === undefined) return { ok: true, value: {} }
    if (!isRecord(value)) return { ok: false, issues: [{ path, message: `must be ${ALLOWED}` }] }
    const issues = Object.entries(value).flatMap(([name, def]) => serverProblems(def, `${path}.${name}`))
    if (issues.length > 0) return { ok: false, issues }
    const servers: McpServers = {}
    for (const [name, def] of Object.entries(value))
      servers[name] = { type: 'stdio', ...(def as object) } as McpServerDefinition
    return { ok: true, value: servers }
  },
  describe(path) {
    return [{ path, allowed: ALLOWED, default: {}, description: this.description }]
  },
}
