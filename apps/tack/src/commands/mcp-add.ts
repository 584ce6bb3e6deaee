// `tack mcp add` and `tack mcp remove`: a server's definition from the command line, as `claude mcp add`
// takes it, written to the scope's file (config-edit.ts). Bad input is a usage error (exit 2) naming the
// flag, never echoing a value given with `-e` or `--header`.
import { serverNameProblem } from '@tack/mcp/names'
import { UsageError } from '../args.ts'
import type { TackPaths } from '../paths.ts'
import { editProjectServer, editUserServer, projectServerNames, userServerNames } from '../mcp/config-edit.ts'
import { normalizeServer } from '../mcp/normalize.ts'
import { projectMcpFile } from '../mcp/project-file.ts'
import type { McpArgs } from './mcp-args.ts'

/** Server names as Claude Code accepts them in tool names: letters, digits, `_`, `-`. */
const SERVER_NAME = /^[A-Za-z0-9_-]{1,64}$/
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/

export interface ScopeFiles {
  readonly paths: TackPaths
  readonly cwd: string
}

export async function addServer(args: McpArgs, at: ScopeFiles): Promise<string> {
  const [name, ...rest] = args.positionals
  if (name === undefined) throw new UsageError('mcp add: a server name is required')
  assertName(name)
  const transport = args.transport ?? 'stdio'
  const definition =
    transport === 'stdio' ? stdioDefinition(args, rest) : remoteDefinition(args, rest, transport)
  const scope = args.scope ?? 'user'
  const file = scope === 'user' ? at.paths.userConfig : projectMcpFile(at.cwd)
  // the same checks a run applies, so what is written is what loads (values are not expanded here)
  const checked = normalizeServer(definition, { name, source: scope === 'user' ? 'user' : 'project', file })
  if (!checked.ok) throw new UsageError(`mcp add: ${checked.problem}`)
  const existing = scope === 'user' ? await userServerNames(file) : projectServerNames(file)
  if (existing.includes(name))
    throw new UsageError(
      `mcp add: ${name} already exists in ${file} (tack mcp remove ${name} --scope ${scope} first)`,
    )
  if (scope === 'user') await editUserServer(file, at.paths.home, name, definition)
  else editProjectServer(file, name, definition)
  const next = scope === 'project' ? `; it starts once approved: tack mcp approve ${name}` : ''
  return `added ${transport} MCP server ${name} to ${file}${next}`
}

export async function removeServer(args: McpArgs, at: ScopeFiles): Promise<string> {
  const [name, extra] = args.positionals
  if (name === undefined || extra !== undefined)
    throw new UsageError('usage: tack mcp remove NAME [--scope user|project]')
  const user = at.paths.userConfig
  const project = projectMcpFile(at.cwd)
  const inUser = args.scope !== 'project' && (await userServerNames(user)).includes(name)
  const inProject = args.scope !== 'user' && projectServerNames(project).includes(name)
  if (inUser && inProject)
    throw new UsageError(
      `mcp remove: ${name} is in ${user} and in ${project}; say which with --scope user|project`,
    )
  if (inUser) {
    await editUserServer(user, at.paths.home, name, undefined)
    return `removed MCP server ${name} from ${user}`
  }
  if (inProject) {
    editProjectServer(project, name, undefined)
    return `removed MCP server ${name} from ${project}`
  }
  const where = args.scope === 'user' ? user : args.scope === 'project' ? project : `${user} or ${project}`
  throw new UsageError(`mcp remove: no MCP server named ${name} in ${where}`)
}

function assertName(name: string): void {
  const problem = serverNameProblem(name)
  if (problem) throw new UsageError(`mcp add: ${problem}`)
  if (!SERVER_NAME.test(name))
    throw new UsageError(
      `mcp add: server name "${name}" must be 1–64 letters, digits, "_" or "-" (it becomes part of tool names mcp__<server>__<tool>)`,
    )
}

function stdioDefinition(args: McpArgs, rest: readonly string[]): Record<string, unknown> {
  if (args.headers.length)
    throw new UsageError('mcp add: --header is for http and sse servers (--transport http|sse)')
  const [command, ...commandArgs] = args.command.length ? args.command : rest
  if (command === undefined)
    throw new UsageError('mcp add: a stdio server needs its command: tack mcp add NAME -- CMD [ARGS…]')
  const env = pairs(args.env, '-e', '=', (k) => ENV_NAME.test(k))
  return { type: 'stdio', command, args: commandArgs, ...(Object.keys(env).length ? { env } : {}) }
}

function remoteDefinition(
  args: McpArgs,
  rest: readonly string[],
  type: 'http' | 'sse',
): Record<string, unknown> {
  if (args.env.length)
    throw new UsageError('mcp add: -e is for stdio servers; an http or sse server takes --header')
  const [url, extra] = [...rest, ...args.command]
  if (url === undefined || extra !== undefined)
    throw new UsageError(
      `mcp add: an ${type} server takes one URL: tack mcp add --transport ${type} NAME URL`,
    )
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    throw new UsageError(`mcp add: "${url}" is not a URL`)
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new UsageError(`mcp add: the URL must be http:// or https:// (got ${parsed.protocol})`)
  const headers = pairs(args.headers, '--header', ':', (k) => /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(k))
  return { type, url, ...(Object.keys(headers).length ? { headers } : {}) }
}

/** `K=V` / `K: V` pairs; a malformed one is named by its key alone (its value may be a secret). */
function pairs(
  items: readonly string[],
  flag: string,
  separator: string,
  validKey: (k: string) => boolean,
): Record<string, string> {
  const out: Record<string, string> = {}
  for (const item of items) {
    const at = item.indexOf(separator)
    const key = (at < 0 ? '' : item.slice(0, at)).trim()
    if (at < 0 || !validKey(key))
      throw new UsageError(
        `mcp add: ${flag} takes ${separator === '=' ? 'NAME=VALUE' : '"Name: value"'}${key ? ` (got key "${key}")` : ''}`,
      )
    const value = item.slice(at + 1)
    out[key] = separator === ':' ? value.trim() : value
  }
  return out
}
