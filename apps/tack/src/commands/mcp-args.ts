// The command line of `tack mcp …`, parsed here rather than by tack's common parser: `add` takes
// `-e K=V`, `--header 'K: V'` and, after `--`, a server command whose own flags are not tack's.
import { parseArgs } from 'node:util'
import { UsageError } from '../args.ts'

export const MCP_USAGE =
  'usage: tack mcp list [--no-connect] | get NAME | add NAME [--scope user|project] [--transport stdio|http|sse] [-e K=V] [--header "K: V"] -- CMD [ARGS…] | add --transport http|sse NAME URL | remove NAME [--scope user|project] | approve NAME'

/** `tack mcp --help`, `tack mcp list --help`, …: the mcp command's own usage, one line per subcommand. */
export const MCP_HELP = `usage: tack mcp SUBCOMMAND [--config FILE] [--cwd DIR] [--profile NAME] [--trust]

  tack mcp list [--json] [--no-connect]
      the MCP servers this workspace would start: source (tack config, .mcp.json, Codex), type, approval
      state, and whether each connects, with its tools count (--no-connect: start none)
  tack mcp get NAME [--json]
      one server's definition (env and header values hidden)
  tack mcp add NAME [--scope user|project] [-e K=V]… -- CMD [ARGS…]
  tack mcp add --transport http|sse NAME URL [--header "K: V"]… [--scope user|project]
      add a server to your tack config (user, the default) or to the workspace's .mcp.json (project)
  tack mcp remove NAME [--scope user|project]
      remove a server from your tack config or the workspace's .mcp.json
  tack mcp approve NAME
      approve a project server (.mcp.json) as it is now defined; a changed definition is asked again
`

export interface McpArgs {
  readonly sub: string | undefined
  /** `--help` / `-h` before any `--`: print MCP_HELP, nothing else. */
  readonly help: boolean
  readonly positionals: readonly string[]
  /** What followed `--`: the stdio server's command and arguments. */
  readonly command: readonly string[]
  readonly scope?: 'user' | 'project'
  readonly transport?: 'stdio' | 'http' | 'sse'
  readonly env: readonly string[]
  readonly headers: readonly string[]
  readonly json: boolean
  /** `list --no-connect`: do not start the servers to show whether they connect. */
  readonly noConnect: boolean
  readonly config?: string
  readonly cwd?: string
  readonly profile?: string
  readonly trust?: boolean
}

const OPTIONS = {
  scope: { type: 'string', short: 's' },
  transport: { type: 'string', short: 't' },
  env: { type: 'string', short: 'e', multiple: true },
  header: { type: 'string', short: 'H', multiple: true },
  json: { type: 'boolean' },
  'no-connect': { type: 'boolean' },
  config: { type: 'string' },
  cwd: { type: 'string' },
  profile: { type: 'string' },
  trust: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const

export function parseMcpArgs(argv: readonly string[]): McpArgs {
  const dash = argv.indexOf('--')
  const own = dash < 0 ? argv : argv.slice(0, dash)
  const command = dash < 0 ? [] : argv.slice(dash + 1)
  // Asked for help, the rest of the line is not checked: `tack mcp add --help` is not a usage error.
  if (own.includes('--help') || own.includes('-h'))
    return {
      sub: undefined,
      help: true,
      positionals: [],
      command,
      env: [],
      headers: [],
      json: false,
      noConnect: false,
    }
  let parsed: ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>
  try {
    parsed = parseArgs({ args: [...own], options: OPTIONS, allowPositionals: true, strict: true })
  } catch (error) {
    throw new UsageError(`mcp: ${(error as Error).message.split(/\.\s/)[0]} (${MCP_USAGE})`)
  }
  const { values, positionals } = parsed
  const scope = oneOf('--scope', values.scope, ['user', 'project'] as const)
  const transport = oneOf('--transport', values.transport, ['stdio', 'http', 'sse'] as const)
  return {
    sub: positionals[0],
    help: false,
    positionals: positionals.slice(1),
    command,
    ...(scope ? { scope } : {}),
    ...(transport ? { transport } : {}),
    env: values.env ?? [],
    headers: values.header ?? [],
    json: values.json === true,
    noConnect: values['no-connect'] === true,
    ...(values.config !== undefined ? { config: values.config } : {}),
    ...(values.cwd !== undefined ? { cwd: values.cwd } : {}),
    ...(values.profile !== undefined ? { profile: values.profile } : {}),
    ...(values.trust !== undefined ? { trust: values.trust } : {}),
  }
}

function oneOf<const V extends string>(
  flag: string,
  value: string | undefined,
  allowed: readonly V[],
): V | undefined {
  if (value === undefined) return undefined
  if ((allowed as readonly string[]).includes(value)) return value as V
  throw new UsageError(`mcp: ${flag} must be one of ${allowed.join(', ')} (got "${value}")`)
}
