// Codex's own MCP servers, `[mcp_servers.<name>]` in `$CODEX_HOME/config.toml` (default `~/.codex`), read
// only when the user opts in (`plugins.mcp.codexServers: true`). Fields as Codex documents them:
// `command`, `args`, `env` (stdio); `url`, `bearer_token_env_var` (its value sent as
// `Authorization: Bearer …`; streamable HTTP); `startup_timeout_sec`, `tool_timeout_sec`, `enabled`.
// Codex does not expand `${VAR}` in its config, so neither does tack here.
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { isRecord, type SourceEntry, unusableEntry } from './definition.ts'
import { normalizeServer } from './normalize.ts'
import type { SourceRead } from './project-file.ts'

export function codexConfigFile(env: NodeJS.ProcessEnv): string {
  return join(env.CODEX_HOME || join(env.HOME || homedir(), '.codex'), 'config.toml')
}

export function readCodexServers(env: NodeJS.ProcessEnv): SourceRead {
  const file = codexConfigFile(env)
  if (!existsSync(file)) return { entries: [] }
  let doc: unknown
  try {
    doc = parseToml(readFileSync(file, 'utf8'))
  } catch (error) {
    return {
      entries: [],
      problem: `${file}: not readable as TOML (${(error as Error).message.split('\n')[0]})`,
    }
  }
  const servers = isRecord(doc) ? (doc.mcp_servers ?? {}) : {}
  if (!isRecord(servers)) return { entries: [], problem: `${file}: mcp_servers must be a table` }
  return { entries: Object.entries(servers).map(([name, raw]) => codexServer(name, raw, file, env)) }
}

/**
 * The TOML parser, loaded only when Codex's servers are read: the boot role that resolves servers is
 * synchronous (boot-role.ts), and every config load would pay for a static import.
 */
function parseToml(text: string): unknown {
  const { parse } = createRequire(import.meta.url)('smol-toml') as typeof import('smol-toml')
  return parse(text)
}

function codexServer(name: string, raw: unknown, file: string, env: NodeJS.ProcessEnv): SourceEntry {
  const fail = (problem: string): SourceEntry => unusableEntry({ name, source: 'codex', file }, raw, problem)
  if (!isRecord(raw)) return fail('must be a table')
  const seconds = (key: string): number | undefined | string => {
    const v = raw[key]
    if (v === undefined) return undefined
    return typeof v === 'number' && Number.isFinite(v) && v > 0
      ? Math.round(v * 1000)
      : `${key} must be a positive number`
  }
  const startup = seconds('startup_timeout_sec')
  const tool = seconds('tool_timeout_sec')
  for (const v of [startup, tool]) if (typeof v === 'string') return fail(v)
  const headers: Record<string, string> = {}
  const secretVariables: string[] = []
  const tokenVar = raw.bearer_token_env_var
  if (tokenVar !== undefined) {
    if (typeof tokenVar !== 'string' || tokenVar === '')
      return fail('bearer_token_env_var must be a variable name')
    const token = env[tokenVar]
    if (!token) return fail(`bearer_token_env_var names ${tokenVar}, which is not set`)
    headers.Authorization = `Bearer ${token}`
    secretVariables.push(tokenVar)
  }
  const shaped = {
    ...(raw.url !== undefined ? { type: 'http', url: raw.url } : { command: raw.command, args: raw.args }),
    ...(raw.env !== undefined ? { env: raw.env } : {}),
    ...(Object.keys(headers).length ? { headers } : {}),
    ...(typeof startup === 'number' ? { startupTimeoutMs: startup } : {}),
    ...(typeof tool === 'number' ? { toolTimeoutMs: tool } : {}),
    ...(raw.enabled !== undefined ? { enabled: raw.enabled } : {}),
  }
  const entry = normalizeServer(shaped, { name, source: 'codex', file })
  // the table as Codex's file has it, whatever tack made of it
  return entry.ok ? { ...entry, written: raw, secretVariables } : { ...entry, written: raw }
}
