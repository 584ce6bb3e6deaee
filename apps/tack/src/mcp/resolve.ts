// Where this run's MCP servers come from and which of them may start
// (docs/decisions/0225-mcp-server-sources.md): tack config `plugins.mcp.servers` (the user's own), the
// workspace's `.mcp.json`, and on opt-in Codex's `[mcp_servers]`. Equal names: tack config wins over the
// project over Codex; the source that wins owns the name even when its server is skipped. Project
// servers start only in a trusted workspace, each approved by name and definition hash (approvals.ts)
// or by the user's `plugins.mcp.approve: all`. A function of its inputs and the files they name:
// boot, `tack mcp` and `tack doctor` all call it, so they agree.
import type { Settings } from '../config/load.ts'
import type { TackPaths } from '../paths.ts'
import type { WorkspaceTrust } from '../workspace-trust.ts'
import { type Approvals, type ApprovalState, approvalState, readApprovals } from './approvals.ts'
import { readCodexServers } from './codex-file.ts'
import {
  isRecord,
  type McpServerDefinition,
  type McpSource,
  SOURCE_PRECEDENCE,
  type SourceEntry,
} from './definition.ts'
import { normalizeServer } from './normalize.ts'
import { readProjectServers } from './project-file.ts'

/** What `plugins.mcp.servers` holds is the user's: `tack config` stands for every config file. */
export const USER_SOURCE_FILE = 'tack config'

export interface ResolveInput {
  readonly settings: Pick<Settings, 'plugins'>
  readonly paths: Pick<TackPaths, 'home'>
  readonly cwd: string
  readonly env: NodeJS.ProcessEnv
  readonly trust: Pick<WorkspaceTrust, 'trusted'>
  /** The approval records; default: read from `$TACK_HOME`. */
  readonly approvals?: Approvals
}

/** A server this run starts: its source entry (definition.ts), and for a project server how it was allowed. */
export type ResolvedServer = Omit<ReadableEntry, 'ok'> & {
  readonly approval?: 'approved' | 'approve: all'
}

type ReadableEntry = Extract<SourceEntry, { ok: true }>

export type SkipReason = 'untrusted' | Exclude<ApprovalState, 'approved'> | 'shadowed' | 'invalid'

export interface SkippedServer {
  readonly name: string
  readonly source: McpSource
  readonly file: string
  readonly reason: SkipReason
  /** One line for a person (never a value from `env` or `headers`). */
  readonly message: string
  /** The definition as written (`tack mcp approve` records a project server's). */
  readonly written: unknown
}

export interface McpResolution {
  readonly servers: Readonly<Record<string, ResolvedServer>>
  readonly skipped: readonly SkippedServer[]
  /** Files that could not be read as a whole. */
  readonly problems: readonly string[]
}

/** `plugins.mcp` as the user's config merged it; `false`: the plugin is off. */
export interface McpSourceSettings {
  readonly servers: Readonly<Record<string, unknown>>
  readonly approve: 'none' | 'all'
  readonly codexServers: boolean
}

export function mcpSourceSettings(settings: Pick<Settings, 'plugins'>): McpSourceSettings | undefined {
  const mcp = settings.plugins.mcp
  if (mcp === false) return undefined
  const m = isRecord(mcp) ? mcp : {}
  return {
    servers: isRecord(m.servers) ? m.servers : {},
    approve: m.approve === 'all' ? 'all' : 'none',
    codexServers: m.codexServers === true,
  }
}

export function resolveMcpServers(input: ResolveInput): McpResolution {
  const own = mcpSourceSettings(input.settings)
  if (!own) return { servers: {}, skipped: [], problems: [] }
  const problems: string[] = []
  const bySource: Record<McpSource, readonly SourceEntry[]> = {
    user: Object.entries(own.servers).map(([name, raw]) =>
      normalizeServer(raw, { name, source: 'user', file: USER_SOURCE_FILE, cwdBase: input.cwd }),
    ),
    project: collect(readProjectServers(input.cwd, input.env), problems),
    codex: own.codexServers ? collect(readCodexServers(input.env), problems) : [],
  }
  // no prototype: a server name is only ever its own key (`toString`, `constructor` are names like others)
  const servers: Record<string, ResolvedServer> = Object.create(null)
  const skipped: SkippedServer[] = []
  const owner = new Map<string, McpSource>()
  const approvals = () => input.approvals ?? readApprovals(input.paths.home)
  for (const source of SOURCE_PRECEDENCE) {
    for (const entry of bySource[source]) {
      const winner = owner.get(entry.name)
      if (winner !== undefined) {
        skipped.push({
          ...where(entry),
          reason: 'shadowed',
          message: `MCP server ${entry.name} in ${entry.file} is not used: the one in ${SOURCE_LABEL[winner]} has the same name`,
        })
        continue
      }
      owner.set(entry.name, source)
      if (!entry.ok) {
        skipped.push({ ...where(entry), reason: 'invalid', message: `${entry.problem} — skipped` })
        continue
      }
      const admitted = admit(entry, own, input, approvals)
      if (admitted.ok) servers[entry.name] = admitted.server
      else skipped.push(admitted.skipped)
    }
  }
  return { servers, skipped, problems }
}

export const SOURCE_LABEL: Readonly<Record<McpSource, string>> = {
  user: 'tack config',
  project: '.mcp.json',
  codex: "Codex's config.toml",
}

function where(entry: SourceEntry): Pick<SkippedServer, 'name' | 'source' | 'file' | 'written'> {
  return { name: entry.name, source: entry.source, file: entry.file, written: entry.written }
}

function collect(
  read: { entries: readonly SourceEntry[]; problem?: string },
  problems: string[],
): readonly SourceEntry[] {
  if (read.problem) problems.push(read.problem)
  return read.entries
}

/** Whether a readable server may start: the user's own always; a project's only when trusted and approved. */
function admit(
  entry: ReadableEntry,
  own: McpSourceSettings,
  input: ResolveInput,
  approvals: () => Approvals,
): { ok: true; server: ResolvedServer } | { ok: false; skipped: SkippedServer } {
  const { ok: _ok, ...server } = entry
  if (entry.source !== 'project') return { ok: true, server }
  const skip = (reason: SkipReason, message: string) => ({
    ok: false as const,
    skipped: { ...where(entry), reason, message },
  })
  if (!input.trust.trusted)
    return skip(
      'untrusted',
      `MCP server ${entry.name} in .mcp.json does not start: the workspace is not trusted (tack trust, then tack mcp approve ${entry.name})`,
    )
  if (own.approve === 'all') return { ok: true, server: { ...server, approval: 'approve: all' } }
  const state = approvalState(approvals(), input.cwd, entry.name, entry.written)
  switch (state) {
    case 'approved':
      return { ok: true, server: { ...server, approval: 'approved' } }
    case 'unapproved':
      return skip(
        'unapproved',
        `MCP server ${entry.name} in .mcp.json is not approved: tack mcp approve ${entry.name}`,
      )
    case 'changed':
      return skip(
        'changed',
        `MCP server ${entry.name} in .mcp.json changed since it was approved: tack mcp approve ${entry.name}`,
      )
    default:
      return state satisfies never
  }
}

/** The lines a run prints once on stderr: servers it skips and files it cannot read (a shadowed one is no news). */
export function resolutionWarnings(r: McpResolution): string[] {
  return [...r.problems, ...r.skipped.filter((s) => s.reason !== 'shadowed').map((s) => s.message)]
}

/** What `@tack/mcp` gets under `servers`: the definitions alone, expanded, trusted and approved. */
export function pluginServers(r: McpResolution): Record<string, McpServerDefinition> {
  return Object.fromEntries(Object.entries(r.servers).map(([name, s]) => [name, s.definition]))
}
