// What `tack hooks list` and `tack hooks trust` (80-cli.md §7) call without booting a session: the
// same discovery and trust store as the plugin, from the plugin's config as the CLI resolved it.
import { resolve } from 'node:path'
import { HooksCodexConfig } from './config.ts'
import { loadCodexRegistry } from './load-registry.ts'
import type { CodexHookRegistry, CodexHookStatus } from './registry.ts'

export interface CodexCliOptions {
  /** The `hooksCodex` plugin config from the config files (`false`: the plugin is turned off). */
  readonly settings?: unknown
  /** tack's home (`TACK_HOME`): the default for `dataDir`, and the workspace trust store (over `tackHome`). */
  readonly tackHome?: string
  readonly env?: NodeJS.ProcessEnv
  /**
   * The workspace (`--cwd`): the default `projectDir`, nothing else. Relative paths in `settings` resolve as
   * a run resolves them (against the process cwd); tack's CLI has made config-file paths absolute already.
   */
  readonly cwd?: string
}

/** One row of `tack hooks list`. */
export interface CodexHookRow {
  readonly dialect: 'codex'
  readonly event: string
  readonly matcher?: string
  readonly command: string
  readonly source: string
  readonly willRun: boolean
  readonly why?: string
  readonly key: string
  readonly status: CodexHookStatus | 'broken-file'
  /** Set on the row of a file that could not be read. */
  readonly broken?: true
  /** Set on a hook for a Codex event tack never fires (`NOT_FIRED_CODEX_EVENTS`). */
  readonly notFired?: true
}

async function registryFor(opts: CodexCliOptions): Promise<{ registry: CodexHookRegistry; off: boolean }> {
  const off = opts.settings === false
  const config = HooksCodexConfig.parse(off || opts.settings === undefined ? {} : opts.settings)
  const { registry } = await loadCodexRegistry(config, {
    workspace: resolve(opts.cwd ?? process.cwd()),
    ...(opts.tackHome !== undefined ? { tackHome: opts.tackHome } : {}),
    ...(opts.env !== undefined ? { env: opts.env } : {}),
  })
  return { registry, off }
}

/** Every discovered Codex hook with its source and whether it will run, and why. */
export async function listCodexHooks(opts: CodexCliOptions = {}): Promise<CodexHookRow[]> {
  const { registry, off } = await registryFor(opts)
  const broken: CodexHookRow[] = registry.problems().map((p) => ({
    dialect: 'codex',
    event: '(file)',
    command: '(not read)',
    source: p.path,
    willRun: false,
    why: `${p.problem} — fix the file; until then none of its hooks run`,
    key: p.path,
    status: 'broken-file',
    broken: true,
  }))
  return [
    ...broken,
    ...registry.list().map(
      (l): CodexHookRow => ({
        dialect: 'codex',
        event: l.event,
        ...(l.matcher !== undefined ? { matcher: l.matcher } : {}),
        command: l.command,
        source: l.source,
        willRun: l.runs && !off,
        why: off ? 'the hooksCodex plugin is turned off' : l.reason,
        key: l.key,
        status: l.status,
        ...(l.status === 'not-fired' ? { notFired: true as const } : {}),
      }),
    ),
  ]
}

/** Records the current hash of every trustable Codex hook; returns a line for the user. */
export async function trustCodexHooks(opts: CodexCliOptions = {}): Promise<string> {
  const { registry } = await registryFor(opts)
  const result = await registry.trust()
  if (result.trusted.length === 0) return 'codex: no hooks to trust'
  return `codex: trusted ${result.trusted.length} hook(s) in ${result.storePath}`
}
