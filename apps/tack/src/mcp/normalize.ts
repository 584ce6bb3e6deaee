// One server entry as Claude Code's `.mcp.json` (and tack's own config) writes it, checked and turned
// into a definition: `type` defaults to stdio (a bare `url` means http), stdio needs `command`, http and
// sse need `url`; `${VAR}` references are expanded where asked (`.mcp.json`). A problem names the file,
// the server and the key, never a value (it may be a secret).
import { statSync } from 'node:fs'
import { isAbsolute, relative, resolve } from 'node:path'
import { serverNameProblem } from '@tack/mcp/names'
import { type Expanded, expandVariables } from './expand.ts'
import {
  isRecord,
  type McpServerDefinition,
  type McpSource,
  type SourceEntry,
  unusableEntry,
} from './definition.ts'

export interface NormalizeOptions {
  readonly name: string
  readonly source: McpSource
  readonly file: string
  /** The environment `${VAR}` references are read from; absent: values are taken as written. */
  readonly expandFrom?: NodeJS.ProcessEnv
  /**
   * The folder a relative stdio `cwd` is taken from (tack config's were made absolute against their file's
   * folder when the layer was read; what is left relative came from a flag). With `cwdInside` (a workspace
   * file) the `cwd` must also stay inside that folder (docs/decisions/0260-mcp-hostile-sources.md).
   */
  readonly cwdBase?: string
  readonly cwdInside?: boolean
}

export function normalizeServer(raw: unknown, opts: NormalizeOptions): SourceEntry {
  const fail = (problem: string): SourceEntry => unusableEntry(opts, raw, problem)
  const badName = serverNameProblem(opts.name)
  if (badName) return fail(badName)
  if (!isRecord(raw)) return fail('must be an object')
  const type = raw.type ?? (raw.url !== undefined && raw.command === undefined ? 'http' : 'stdio')
  const secretVariables = new Set<string>()
  const expand = (key: string, text: string, secret: boolean): string | { problem: string } => {
    if (!opts.expandFrom) return text
    const r: Expanded = expandVariables(text, opts.expandFrom)
    if (!r.ok) return { problem: `${key} uses \${${r.variable}}, which is not set and has no default` }
    if (secret) for (const v of r.variables) secretVariables.add(v)
    return r.value
  }
  const text = (key: string, secret = false): string | undefined | { problem: string } => {
    const v = raw[key]
    if (v === undefined) return undefined
    if (typeof v !== 'string' || v === '') return { problem: `${key} must be a non-empty string` }
    return expand(key, v, secret)
  }
  const map = (key: string): Record<string, string> | undefined | { problem: string } => {
    const v = raw[key]
    if (v === undefined) return undefined
    if (!isRecord(v) || !Object.values(v).every((x) => typeof x === 'string'))
      return { problem: `${key} must be an object of strings` }
    const out: Record<string, string> = {}
    for (const [k, x] of Object.entries(v)) {
      // a value of env or headers is a secret (a token, a password): its variables are declared secret
      const e = expand(`${key}.${k}`, x as string, true)
      if (typeof e !== 'string') return e
      out[k] = e
    }
    return out
  }
  const common = timeouts(raw)
  if (typeof common === 'string') return fail(common)
  switch (type) {
    case 'stdio': {
      const command = text('command')
      if (command === undefined) return fail('command is required for a stdio server')
      if (typeof command !== 'string') return fail(command.problem)
      const argsRaw = raw.args
      if (argsRaw !== undefined && !(Array.isArray(argsRaw) && argsRaw.every((a) => typeof a === 'string')))
        return fail('args must be a list of strings')
      const args: string[] = []
      for (const [i, a] of ((argsRaw ?? []) as string[]).entries()) {
        const e = expand(`args[${i}]`, a, false)
        if (typeof e !== 'string') return fail(e.problem)
        args.push(e)
      }
      const env = map('env')
      if (isProblem(env)) return fail(env.problem)
      const cwdText = text('cwd')
      if (isProblem(cwdText)) return fail(cwdText.problem)
      const cwd = cwdText === undefined ? undefined : serverFolder(cwdText, opts)
      if (isProblem(cwd)) return fail(cwd.problem)
      const definition: McpServerDefinition = {
        type: 'stdio',
        command,
        ...(argsRaw !== undefined ? { args } : {}),
        ...(env ? { env } : {}),
        ...(cwd !== undefined ? { cwd } : {}),
        ...common,
      }
      return ok(definition)
    }
    case 'http':
    case 'sse': {
      const url = text('url', true)
      if (url === undefined) return fail(`url is required for an ${type} server`)
      if (typeof url !== 'string') return fail(url.problem)
      const headers = map('headers')
      if (isProblem(headers)) return fail(headers.problem)
      return ok({ type: type as 'http' | 'sse', url, ...(headers ? { headers } : {}), ...common })
    }
    default:
      return fail(`type must be one of stdio, http, sse (got ${JSON.stringify(type)})`)
  }

  function ok(definition: McpServerDefinition): SourceEntry {
    return {
      ok: true,
      name: opts.name,
      source: opts.source,
      file: opts.file,
      definition,
      written: raw,
      secretVariables: [...secretVariables].sort(),
    }
  }
}

/**
 * A stdio server's `cwd` as an absolute folder that exists: a missing one would make the spawn fail as if
 * the command were missing, so it is named here instead. A workspace file's stays inside the workspace
 * (compared as written, `..` resolved: the server is approved with its definition, symlinks included).
 */
function serverFolder(cwd: string, opts: NormalizeOptions): string | { problem: string } {
  const base = opts.cwdBase ?? process.cwd()
  const folder = resolve(base, cwd)
  if (opts.cwdInside) {
    const inside = relative(base, folder)
    if (inside.startsWith('..') || isAbsolute(inside))
      return { problem: `cwd ${cwd} is outside the workspace (a .mcp.json cwd must stay inside it)` }
  }
  let isFolder = false
  try {
    isFolder = statSync(folder).isDirectory()
  } catch {}
  return isFolder ? folder : { problem: `cwd ${folder} is not an existing folder` }
}

function isProblem(v: unknown): v is { problem: string } {
  return isRecord(v) && typeof v.problem === 'string'
}

/** The tunables tack's own config may give a server (`.mcp.json` has none of its own). */
function timeouts(
  raw: Record<string, unknown>,
): Pick<McpServerDefinition, 'startupTimeoutMs' | 'toolTimeoutMs' | 'enabled'> | string {
  const out: Record<string, unknown> = {}
  for (const key of ['startupTimeoutMs', 'toolTimeoutMs'] as const) {
    const v = raw[key]
    if (v === undefined) continue
    if (typeof v !== 'number' || !Number.isInteger(v) || v <= 0) return `${key} must be a positive integer`
    out[key] = v
  }
  if (raw.enabled !== undefined) {
    if (typeof raw.enabled !== 'boolean') return 'enabled must be true or false'
    out.enabled = raw.enabled
  }
  return out
}
