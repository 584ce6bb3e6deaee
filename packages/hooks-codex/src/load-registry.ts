// The one way the bridge turns its config into a hook registry, shared by the plugin (a run) and the CLI
// (`tack hooks list|trust`), so both read the same files and the same trust store. A relative path in
// the config resolves against the process cwd, as it does for any embedder; tack's CLI has already made
// every path from a config file absolute against that file's folder
// (docs/decisions/0130-config-relative-paths.md), so `--cwd` never changes which store is meant.
import { resolve } from 'node:path'
import { dataDirOf } from '@tack/kernel'
import { isWorkspaceTrusted } from '@tack/kernel/workspace-trust'
import type { HooksCodexConfig } from './config.ts'
import { defaultCodexHome } from './discovery.ts'
import { CodexHookRegistry } from './registry.ts'

export interface RegistryContext {
  /** The workspace: the default `projectDir`. Default the process cwd. */
  readonly workspace?: string
  /** tack's home: the default `dataDir` when the config sets none, and the workspace trust store when the
   * config names no `tackHome`; else `$TACK_HOME`, else `~/.tack`. */
  readonly tackHome?: string
  readonly env?: NodeJS.ProcessEnv
}

export interface LoadedRegistry {
  readonly registry: CodexHookRegistry
  readonly projectDir: string
  readonly dataDir: string
}

export async function loadCodexRegistry(
  config: HooksCodexConfig,
  at: RegistryContext = {},
): Promise<LoadedRegistry> {
  const env = at.env ?? process.env
  const projectDir = resolve(config.projectDir ?? at.workspace ?? '.')
  const dataDir = dataDirOf(config.dataDir ?? at.tackHome, env)
  const registry = await CodexHookRegistry.load({
    sources: config.sources,
    discover: config.discover,
    codexHome: config.codexHome ? resolve(config.codexHome) : defaultCodexHome(env),
    projectDir,
    dataDir,
    trust: config.trust,
    // Workspace trust is tack's, not the bridge's data: read from tack's home wherever dataDir points.
    projectTrusted:
      config.assumeTrusted || isWorkspaceTrusted(projectDir, dataDirOf(config.tackHome ?? at.tackHome, env)),
  })
  return { registry, projectDir, dataDir }
}
