// What the CLI asks of the bridge without booting a session (80-cli.md §7): `tack hooks list` rows,
// including one row per hooks file that could not be read (issue 9 item 8). Trusting a workspace is
// `tack trust` (`@tack/kernel/workspace-trust`), one notion for every project-level thing.
import { homedir } from 'node:os'
import { resolveTackHome } from '@tack/kernel'
import { HooksClaudeConfig } from './config.ts'
import { HookRegistry } from './settings/registry.ts'

export interface ClaudeHookRow {
  readonly dialect: 'claude'
  readonly event: string
  readonly matcher?: string
  readonly command: string
  readonly source: string
  readonly willRun: boolean
  readonly why?: string
  readonly id: string
  /** Set on the row of a file that could not be read. */
  readonly broken?: true
}

export interface CliOptions {
  /** The plugin's config as the settings files give it (validated here). */
  readonly settings?: unknown
  /** tack's home (`$TACK_HOME`), whose trust store decides; it wins over the plugin's `tackHome`. */
  readonly tackHome?: string
  readonly env?: NodeJS.ProcessEnv
  readonly cwd: string
}

function resolve(opts: CliOptions) {
  const config = HooksClaudeConfig.parse(opts.settings ?? {})
  const env = opts.env ?? process.env
  const home = config.home ?? (env.HOME?.startsWith('/') ? env.HOME : homedir())
  const tackHome = opts.tackHome ?? config.tackHome ?? resolveTackHome(env, { userHome: home })
  return { config, home, tackHome }
}

function describe(handler: Readonly<Record<string, unknown>>): string {
  if (typeof handler.command === 'string') {
    const args = Array.isArray(handler.args) ? handler.args.map((a) => JSON.stringify(String(a))) : []
    return [handler.command, ...args].join(' ')
  }
  return `(${String(handler.type ?? 'unknown')} hook)`
}

/** Every Claude Code hook found for `cwd`, its source file and whether it will run; broken files first. */
export function listClaudeHooks(opts: CliOptions): ClaudeHookRow[] {
  const { config, home, tackHome } = resolve(opts)
  const registry = new HookRegistry({
    discover: config.discover,
    sources: config.sources,
    home,
    tackHome,
    assumeTrusted: config.assumeTrusted,
    warn: () => {},
    info: () => {},
  })
  const broken: ClaudeHookRow[] = registry.problems(opts.cwd).map((p) => ({
    dialect: 'claude',
    event: '(file)',
    command: '(not read)',
    source: p.path,
    willRun: false,
    why: `${p.problem} — fix the file; until then none of its hooks run`,
    id: p.path,
    broken: true,
  }))
  return [
    ...broken,
    ...registry.list(opts.cwd).map((h) => ({
      dialect: 'claude' as const,
      event: h.event,
      ...(h.matcher !== undefined ? { matcher: h.matcher } : {}),
      command: describe(h.handler),
      source: h.source,
      willRun: h.runs,
      ...(h.why ? { why: h.why } : {}),
      id: h.id,
    })),
  ]
}
