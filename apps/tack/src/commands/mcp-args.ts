// The command line of `tack mcp …`, parsed here rather than by tack's common parser: `add` takes
// `-e K=V`, `--header 'K: V'` and, after `--`, a server command whose own flags are not tack's.
import { parseArgs } from 'node:util'
import { UsageError } from '../args.ts'

export const MCP_USAGE =
  'usage: tack mcp list [--no-connect] | get NAME | add NAME [--scope user|project] [--transport stdio|http|sse] [-e K=V] [--header "K: V"] -- CMD [ARGS…] | add --transport http|sse NAME URL | remove NAME [--scope user|project] | approve NAME'

export interface McpArgs {
  readonly sub: string | undefined
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
} as const

export function parseMcpArgs(argv: readonly string[]): McpArgs {
  const dash = argv.indexOf('--')
  const own = dash < 0 ? argv : argv.slice(0, dash)
  const command = dash < 0 ? [] : argv.slice(dash + 1)
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
