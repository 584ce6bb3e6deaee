// The hook environment (40-hooks.md B2): every run gets `CLAUDE_PROJECT_DIR`; plugin sources add
// `CLAUDE_PLUGIN_ROOT` and `CLAUDE_PLUGIN_DATA`. The `${…}` forms of the three are substituted
// textually in `command` and `args`, as Claude Code does (other `${…}` are left to the shell).
import { basename, join } from 'node:path'
import { privateFolder } from '@tack/kernel/private-files'

export interface HookVariables {
  readonly CLAUDE_PROJECT_DIR: string
  readonly CLAUDE_PLUGIN_ROOT?: string
  readonly CLAUDE_PLUGIN_DATA?: string
}

/** A plugin's data folder in tack's data dir (`<dataDir>/claude-plugins/<plugin>/data`), created on demand. */
export function pluginDataDir(dataDir: string, pluginRoot: string): string {
  const name = basename(pluginRoot).replace(/[^A-Za-z0-9._-]/g, '_') || 'plugin'
  const dir = join(dataDir, 'claude-plugins', name, 'data')
  try {
    privateFolder(dir)
  } catch {
    // The hook will find it missing and say so; the run goes on.
  }
  return dir
}

export function hookVariables(projectDir: string, plugin?: { root: string; data: string }): HookVariables {
  return {
    CLAUDE_PROJECT_DIR: projectDir,
    ...(plugin ? { CLAUDE_PLUGIN_ROOT: plugin.root, CLAUDE_PLUGIN_DATA: plugin.data } : {}),
  }
}

const FORMS = /\$\{(CLAUDE_PROJECT_DIR|CLAUDE_PLUGIN_ROOT|CLAUDE_PLUGIN_DATA)\}/g

/** Replaces `${CLAUDE_PROJECT_DIR}` and, when defined, the plugin variables in `text`. */
export function substitute(text: string, vars: HookVariables): string {
  return text.replace(FORMS, (whole, name: keyof HookVariables) => vars[name] ?? whole)
}

/** The environment additions for a run (only defined variables). */
export function hookEnv(vars: HookVariables): Record<string, string> {
  const env: Record<string, string> = {}
  for (const [k, v] of Object.entries(vars)) if (typeof v === 'string') env[k] = v
  return env
}
