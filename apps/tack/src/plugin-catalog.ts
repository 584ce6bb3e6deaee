// The plugins a tack profile can load, keyed by the name their config uses under `plugins:` in a
// config file. Each entry imports its package only when asked, so a command pays only for what it uses.
import type { ObjectSchema, Field } from '@tack/kernel'
import { join } from 'node:path'
import type { BootRole } from './boot-role.ts'
import { hasCliRules, withCliRules } from './cli-rules.ts'
import { withSandboxWritable } from './sandbox-writable-flag.ts'
import { MCP_CATALOG_ENTRY } from './mcp/catalog-entry.ts'
import { storeUrl } from './store-url.ts'
import { knowHowFolders } from './skills/folders.ts'
import { trustedForThisRun } from './workspace-trust.ts'

export interface CatalogEntry {
  /** Config key under `plugins:`. */
  readonly key: string
  readonly description: string
  /** Loaded by default (a config may set the key to `false` to turn it off). */
  readonly defaultOn: boolean
  load(): Promise<{ plugin: unknown; Config: ObjectSchema<Record<string, Field<unknown>>> }>
  /** What `boot` derives for it from the run (boot-role.ts); absent: loaded with the user's config. */
  readonly boot?: BootRole
}

/** The tools mode a run settled on (a flag over `plugins.tools.mode`). */
const toolsMode = (opts: Parameters<NonNullable<BootRole['loads']>>[0]) => {
  const tools = opts.settings.plugins.tools
  return opts.settings.toolsMode ?? (tools === false ? undefined : tools?.mode) ?? 'native'
}

export const CATALOG: readonly CatalogEntry[] = [
  {
    key: 'agent',
    description: 'the agent loop',
    defaultOn: true,
    load: async () => {
      const m = await import('@tack/agent')
      return { plugin: m.AgentPlugin, Config: m.AgentConfig }
    },
  },
  {
    key: 'tools',
    description: 'the tool registry and pipeline',
    defaultOn: true,
    load: async () => {
      const m = await import('@tack/tools')
      return { plugin: m.ToolsPlugin, Config: m.ToolsConfig }
    },
    boot: { overrides: (opts) => (opts.settings.toolsMode ? { mode: opts.settings.toolsMode } : {}) },
  },
  {
    key: 'codeRuntime',
    description: "Code Mode's sandbox (QuickJS): budgets of run_code programs",
    defaultOn: true,
    load: async () => {
      const m = await import('@tack/code-runtime')
      return { plugin: m.CodeRuntimePlugin, Config: m.CodeRuntimeConfig }
    },
    boot: {
      // Code Mode's runtime costs nothing until a program runs; in a non-native mode its WebAssembly is
      // compiled now, so the first run_code starts warm (docs/decisions/0080-code-runtime.md).
      loaded: (ctx, opts) => {
        if (toolsMode(opts) !== 'native') (ctx.get('codeRuntime') as { warm?(): void } | undefined)?.warm?.()
      },
    },
  },
  {
    key: 'llm',
    description: 'model providers and retries',
    defaultOn: true,
    load: async () => {
      const m = await import('@tack/llm')
      // boot loads createLlmPlugin({env, cwd, origins}) instead (its role, below), which carries the keys
      return { plugin: m.LlmPlugin, Config: m.LlmConfig }
    },
    boot: {
      plugin: async (opts) =>
        (await import('@tack/llm')).createLlmPlugin({
          env: opts.env,
          cwd: opts.cwd,
          origins: opts.settings.llmOrigins,
        }),
      overrides: (opts) => (opts.settings.baseUrl ? { baseUrl: opts.settings.baseUrl } : {}),
    },
  },
  {
    key: 'store',
    description: 'session store: an SQLite file, or PostgreSQL when `url` is set',
    defaultOn: true,
    load: async () => {
      const m = await import('./session-store-plugin.ts')
      return { plugin: m.createSessionStorePlugin(), Config: m.SessionStoreConfig }
    },
    boot: {
      storeOnly: true,
      // --no-session: the sessions service keeps its memory store instead (core-plugins.ts).
      loads: (opts) => opts.noSession !== true,
      // The password and PG* variables are read from the run's environment.
      plugin: async (opts) => (await import('./session-store-plugin.ts')).createSessionStorePlugin(opts.env),
      // tack's home is the store's default folder (session-store-file.ts computes the same file for doctor).
      defaults: (opts) => ({ dataDir: opts.paths.home }),
      // TACK_STORE_URL wins over plugins.store.url (store-url.ts).
      overrides: (opts) => {
        const chosen = storeUrl(opts.settings, opts.env)
        return chosen ? { url: chosen.url } : {}
      },
    },
  },
  {
    key: 'fs',
    description: 'read, write, edit, glob, grep, todo_write',
    defaultOn: true,
    load: async () => {
      const m = await import('@tack/tool-fs')
      return { plugin: m.FsToolsPlugin, Config: m.FsToolsConfig }
    },
  },
  {
    key: 'bash',
    description: 'the bash tool',
    defaultOn: true,
    load: async () => {
      const m = await import('@tack/tool-bash')
      return { plugin: m.BashToolPlugin, Config: m.BashToolConfig }
    },
    // The sandbox hides $TACK_HOME; what other plugins declare secret it reads from ctx.secrets.
    // --sandbox-writable adds its folders after the config's.
    boot: {
      defaults: (opts) => ({ scratchRoot: opts.paths.scratch, env: opts.env, tackHome: opts.paths.home }),
      overrides: (opts, merged) => withSandboxWritable(merged, opts.sandboxWritable),
    },
  },
  {
    key: 'web',
    description: 'web_fetch and web_search (network access; private addresses refused)',
    defaultOn: true,
    load: async () => {
      const m = await import('@tack/tool-web')
      return { plugin: m.WebToolsPlugin, Config: m.WebToolsConfig }
    },
    // The search key is looked up in the same environment as the providers' ($TACK_HOME/.env included).
    boot: { defaults: (opts) => ({ env: opts.env }) },
  },
  {
    key: 'permissions',
    description: 'permission modes and rules',
    defaultOn: true,
    load: async () => {
      const m = await import('@tack/permissions')
      return { plugin: m.PermissionsPlugin, Config: m.PermissionsConfig }
    },
    boot: {
      // The mode the layers settled on (load.ts: a later layer's `permissionMode` or
      // `plugins.permissions.mode`, flags last) beats an earlier layer's plugin field; --allow/--deny add
      // their rules after the config's.
      overrides: (opts, merged) => ({
        ...(opts.settings.permissionMode ? { mode: opts.settings.permissionMode } : {}),
        ...(hasCliRules(opts.cliRules) ? withCliRules(merged, opts.cliRules) : {}),
      }),
      neededBy: (opts) =>
        hasCliRules(opts.cliRules)
          ? '--allow/--deny need the permissions plugin, which the config turns off (plugins.permissions: false)'
          : undefined,
    },
  },
  {
    key: 'subagent',
    description: 'the subagent tool',
    defaultOn: true,
    load: async () => {
      const m = await import('@tack/subagent')
      return { plugin: m.SubagentPlugin, Config: m.SubagentConfig }
    },
  },
  {
    key: 'instructions',
    description: 'project instructions: AGENTS.md and CLAUDE.md in the session prefix',
    defaultOn: true,
    load: async () => {
      const m = await import('./instructions/plugin.ts')
      return { plugin: m.InstructionsPlugin, Config: m.InstructionsConfig }
    },
    boot: { defaults: (opts) => ({ home: opts.paths.home }) },
  },
  {
    key: 'checkpoints',
    description:
      "checkpoints of the working tree before each turn's first change, for /rewind and tack rewind",
    defaultOn: true,
    load: async () => {
      const m = await import('./checkpoints/plugin.ts')
      return { plugin: m.CheckpointsPlugin, Config: m.CheckpointsConfig }
    },
    boot: { defaults: (opts) => ({ root: join(opts.paths.home, 'checkpoints') }) },
  },
  {
    key: 'compaction',
    description:
      "compaction: keeps a long session inside the model's context window (summary of the older part)",
    defaultOn: true,
    load: async () => {
      const m = await import('@tack/compaction')
      return { plugin: m.CompactionPlugin, Config: m.CompactionConfig }
    },
  },
  {
    key: 'hooksClaude',
    description: "the Claude Code hooks bridge (runs the user's Claude Code hooks unmodified)",
    defaultOn: true,
    load: async () => {
      const m = await import('@tack/hooks-claude')
      return { plugin: m.HooksClaudePlugin, Config: m.HooksClaudeConfig }
    },
    // Their files go to tack's home unless the user's `dataDir` says otherwise (transcripts included);
    // workspace trust is pinned to tack's home, whatever a config says (docs/decisions/0013-workspace-trust.md).
    // Recorded trust is not handed over as `assumeTrusted`: the bridges read the store for each session's
    // own folder, so a session in another folder never runs under this one's trust
    // (docs/decisions/0140-acp-trust-per-session.md).
    boot: {
      defaults: (opts) => ({ dataDir: opts.paths.home, assumeTrusted: trustedForThisRun(opts.trust) }),
      overrides: (opts) => ({ tackHome: opts.paths.home }),
    },
  },
  {
    key: 'hooksCodex',
    description: "the Codex hooks bridge (runs the user's Codex hooks; hash-trusted)",
    defaultOn: true,
    load: async () => {
      const m = await import('@tack/hooks-codex')
      return { plugin: m.HooksCodexPlugin, Config: m.HooksCodexConfig }
    },
    boot: {
      defaults: (opts) => ({
        dataDir: opts.paths.home,
        projectDir: opts.cwd,
        assumeTrusted: trustedForThisRun(opts.trust),
      }),
      overrides: (opts) => ({ tackHome: opts.paths.home }),
    },
  },
  {
    key: 'acp',
    description: 'the Agent Client Protocol server (loaded by `tack acp` only)',
    defaultOn: true,
    load: async () => {
      const m = await import('@tack/acp')
      return { plugin: m.AcpPlugin, Config: m.AcpConfig }
    },
    boot: { loads: () => false },
  },
  {
    key: 'tui',
    description: 'the interactive terminal UI (loaded by `tack`, `tack -c` and `tack -r` only)',
    defaultOn: true,
    load: async () => {
      // The plugin module only: checking a config's plugins.tui must not load the screen.
      const m = await import('@tack/tui/plugin')
      return { plugin: m.TuiPlugin, Config: m.TuiConfig }
    },
    boot: { loads: () => false },
  },
  {
    key: 'serve',
    description:
      '`tack serve`: the web view of sessions and jobs (its address, port, polling and token variable)',
    defaultOn: true,
    load: async () => {
      // The config module only: checking a config's plugins.serve must not load the server.
      const m = await import('@tack/web/config')
      return { plugin: m.ServePlugin, Config: m.ServeConfig }
    },
    // `tack serve` reads `plugins.serve` itself (commands/serve.ts); nothing boots.
    boot: { loads: () => false },
  },
  {
    key: 'run',
    description: "`tack run`'s progress on stderr: failed calls' output tails and the closing summary",
    defaultOn: true,
    load: async () => {
      const m = await import('./progress/config.ts')
      return { plugin: m.RunProgressPlugin, Config: m.RunProgressConfig }
    },
    // `tack run` reads `plugins.run` itself (run/progress.ts); nothing boots.
    boot: { loads: () => false },
  },
  {
    key: 'dice',
    description: 'agent-dice: probabilistic nudges at turn ends (slots from `tack dice …`)',
    defaultOn: true,
    load: async () => {
      const m = await import('agent-dice/tack')
      return { plugin: { name: m.name, Config: m.Config, apply: m.apply }, Config: m.Config }
    },
    boot: {
      defaults: (opts) => ({ base: opts.paths.dice }),
      // At load it tells the bridges to skip agent-dice's own hooks: it waits for every bridge this run
      // loads, whichever comes first in the catalog.
      inject: (opts) => ['hooksClaude', 'hooksCodex'].filter((key) => opts.settings.plugins[key] !== false),
    },
  },
  {
    key: 'skills',
    description:
      'Agent Skills (SKILL.md folders) and prompt command files from tack, Claude Code, ~/.agents and Codex folders',
    defaultOn: true,
    load: async () => {
      const m = await import('@tack/skills')
      return { plugin: m.SkillsPlugin, Config: m.SkillsConfig }
    },
    boot: {
      // The folders and the trust are this run's facts, never a config file's.
      overrides: (opts, merged) => ({
        folders: knowHowFolders({
          home: opts.paths.home,
          cwd: opts.cwd,
          env: opts.env,
          extraPaths: (merged.paths as string[] | undefined) ?? [],
        }),
        trusted: opts.trust.trusted,
        cwd: opts.cwd,
      }),
    },
  },
  // MCP servers from tack config, .mcp.json and Codex: entry and boot role in mcp/catalog-entry.ts
  MCP_CATALOG_ENTRY,
  {
    key: 'mods',
    description: "the Claude Code mod host: unmodified mods (register(on, options)) on tack's seams",
    defaultOn: true,
    load: async () => {
      const m = await import('@tack/mods')
      return { plugin: m.ModsPlugin, Config: m.ModsConfig }
    },
    boot: {
      // Only when there are mods: nothing to pay for otherwise.
      loads: (opts) => (opts.mods?.length ?? 0) > 0,
      defaults: (opts) => ({ dataDir: opts.paths.home }),
      overrides: (opts) => ({ mods: opts.mods }),
    },
  },
  {
    key: 'fleet',
    description: 'jobs and workers on the shared PostgreSQL (`tack jobs`, `tack worker`)',
    defaultOn: false,
    load: async () => {
      const m = await import('@tack/fleet')
      return { plugin: m.FleetSettingsPlugin, Config: m.FleetConfig }
    },
    // Read by `tack jobs` and `tack worker` themselves (fleet-settings.ts); a session has no use for it.
    boot: { loads: () => false },
  },
]

export function catalogEntry(key: string): CatalogEntry | undefined {
  return CATALOG.find((e) => e.key === key)
}
