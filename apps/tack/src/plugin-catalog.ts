// The plugins a tack profile can load, keyed by the name their config uses under `plugins:` in a
// config file. Each entry imports its package only when asked, so a command pays only for what it uses.
import type { ObjectSchema, Field } from '@tack/kernel'

export interface CatalogEntry {
  /** Config key under `plugins:`. */
  readonly key: string
  readonly description: string
  /** Loaded by default (a config may set the key to `false` to turn it off). */
  readonly defaultOn: boolean
  load(): Promise<{ plugin: unknown; Config: ObjectSchema<Record<string, Field<unknown>>> }>
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
  },
  {
    key: 'codeRuntime',
    description: "Code Mode's sandbox (QuickJS): budgets of run_code programs",
    defaultOn: true,
    load: async () => {
      const m = await import('@tack/code-runtime')
      return { plugin: m.CodeRuntimePlugin, Config: m.CodeRuntimeConfig }
    },
  },
  {
    key: 'llm',
    description: 'model providers and retries',
    defaultOn: true,
    load: async () => {
      const m = await import('@tack/llm')
      // boot replaces this with createLlmPlugin({env, cwd}), which carries the keys
      return { plugin: m.LlmPlugin, Config: m.LlmConfig }
    },
  },
  {
    key: 'store',
    description: 'SQLite session store',
    defaultOn: true,
    load: async () => {
      const m = await import('@tack/store-sqlite')
      return { plugin: m.SqliteStorePlugin, Config: m.SqliteStoreConfig }
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
  },
  {
    key: 'web',
    description: 'web_fetch and web_search (network access; private addresses refused)',
    defaultOn: true,
    load: async () => {
      const m = await import('@tack/tool-web')
      return { plugin: m.WebToolsPlugin, Config: m.WebToolsConfig }
    },
  },
  {
    key: 'permissions',
    description: 'permission modes and rules',
    defaultOn: true,
    load: async () => {
      const m = await import('@tack/permissions')
      return { plugin: m.PermissionsPlugin, Config: m.PermissionsConfig }
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
  },
  {
    key: 'hooksCodex',
    description: "the Codex hooks bridge (runs the user's Codex hooks; hash-trusted)",
    defaultOn: true,
    load: async () => {
      const m = await import('@tack/hooks-codex')
      return { plugin: m.HooksCodexPlugin, Config: m.HooksCodexConfig }
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
  },
  {
    key: 'dice',
    description: 'agent-dice: probabilistic nudges at turn ends (slots from `tack dice …`)',
    defaultOn: true,
    load: async () => {
      const m = await import('agent-dice/tack')
      return { plugin: { name: m.name, Config: m.Config, apply: m.apply }, Config: m.Config }
    },
  },
  {
    key: 'mods',
    description: "the Claude Code mod host: unmodified mods (register(on, options)) on tack's seams",
    defaultOn: true,
    load: async () => {
      const m = await import('@tack/mods')
      return { plugin: m.ModsPlugin, Config: m.ModsConfig }
    },
  },
]

export function catalogEntry(key: string): CatalogEntry | undefined {
  return CATALOG.find((e) => e.key === key)
}
