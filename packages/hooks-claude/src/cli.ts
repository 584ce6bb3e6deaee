// What the CLI asks of the bridge without booting a session (80-cli.md §7): `tack hooks list` rows and
// `tack hooks trust --project`. The CLI imports these lazily and passes its resolved settings.
import { homedir } from 'node:os'
import { HooksClaudeConfig } from './config.ts'
import { defaultDataDir } from './plugin.ts'
import { HookRegistry } from './settings/registry.ts'
import { projectKey, trustProject } from './trust.ts'

export interface ClaudeHookRow {
  readonly dialect: 'claude'
  readonly event: string
  readonly matcher?: string
  readonly command: string
  readonly source: string
  readonly willRun: boolean
  readonly why?: string
  readonly id: string
}

export interface CliOptions {
  /** The plugin's config as the settings files give it (validated here). */
  readonly settings?: unknown
  /** tack's data folder (`$TACK_HOME`); the plugin's `dataDir` wins when set. */
  readonly tackHome?: string
  readonly env?: NodeJS.ProcessEnv
  readonly cwd: string
  readonly project?: boolean
}

function resolve(opts: CliOptions) {
  const config = HooksClaudeConfig.parse(opts.settings ?? {})
  const env = opts.env ?? process.env
  const home = config.home ?? (env.HOME?.startsWith('/') ? env.HOME : homedir())
  const dataDir = config.dataDir ?? opts.tackHome ?? defaultDataDir(home, env)
  return { config, home, dataDir }
}

function describe(handler: Readonly<Record<string, unknown>>): string {
  if (typeof handler.command === 'string') {
    const args = Array.isArray(handler.args) ? handler.args.map((a) => JSON.stringify(String(a))) : []
    return [handler.command, ...args].join(' ')
  }
  return `(${String(handler.type ?? 'unknown')} hook)`
}

/**
 * Every Claude Code hook found for `cwd`, its source file and whether it will run. Seen from an
 * interactive session unless the settings say `interactive: false` (headless runs trusted-less).
 */
export function listClaudeHooks(opts: CliOptions): ClaudeHookRow[] {
  const { config, home, dataDir } = resolve(opts)
  const registry = new HookRegistry({
    discover: config.discover,
    sources: config.sources,
    home,
    dataDir,
    interactive: (opts.settings as { interactive?: unknown } | undefined)?.interactive !== false,
    warn: () => {},
    info: () => {},
  })
  return registry.list(opts.cwd).map((h) => ({
    dialect: 'claude',
    event: h.event,
    ...(h.matcher !== undefined ? { matcher: h.matcher } : {}),
    command: describe(h.handler),
    source: h.source,
    willRun: h.runs,
    ...(h.why ? { why: h.why } : {}),
    id: h.id,
  }))
}

/** `tack hooks trust --project`: trusts `cwd` for project-level hooks in interactive sessions. */
export async function trustClaudeProject(opts: CliOptions): Promise<string> {
  if (!opts.project) return 'claude: project hooks are trusted per folder with `tack hooks trust --project`'
  const { dataDir } = resolve(opts)
  trustProject(opts.cwd, dataDir)
  return `claude: project hooks in ${projectKey(opts.cwd)} are trusted`
}
