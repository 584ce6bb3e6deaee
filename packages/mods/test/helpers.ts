// Test helpers: mod folders written into temporary directories, and a scripted tack session with the
// real file and bash tools and the mod host loaded.
import type { ConfigInput } from '@tack/kernel'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createTestAgent, type ScriptEntry, type TestAgent, type TestPlugin } from '@tack/agent/testing'
import { BashToolPlugin } from '@tack/tool-bash'
import { FsToolsPlugin } from '@tack/tool-fs'
import type { ModsConfig, ModSpec } from '../src/config.ts'
import { modsTestPlugin } from '../src/testing.ts'

export function tempDir(prefix = 'tack-mods-'): string {
  return mkdtempSync(join(tmpdir(), prefix))
}

export interface ModFiles {
  readonly name: string
  /** The hooks module's source. */
  readonly source: string
  readonly entry?: string
  readonly userConfig?: Record<string, unknown>
  /** Extra files, relative to the mod folder. */
  readonly files?: Record<string, string>
  readonly modules?: unknown
}

/** Writes a mod folder under `parent` (default a new temp dir); returns its path. */
export function writeMod(mod: ModFiles, parent = tempDir()): string {
  const dir = join(parent, mod.name)
  mkdirSync(join(dir, '.claude-plugin'), { recursive: true })
  mkdirSync(join(dir, 'hooks'), { recursive: true })
  writeFileSync(
    join(dir, '.claude-plugin', 'plugin.json'),
    JSON.stringify({
      name: mod.name,
      version: '1.0.0',
      ...(mod.userConfig ? { userConfig: mod.userConfig } : {}),
    }),
  )
  const entry = mod.entry ?? 'register.mjs'
  writeFileSync(join(dir, 'hooks', 'hooks.json'), JSON.stringify({ modules: mod.modules ?? [`./${entry}`] }))
  writeFileSync(join(dir, 'hooks', entry), mod.source)
  for (const [rel, text] of Object.entries(mod.files ?? {})) {
    mkdirSync(join(dir, rel, '..'), { recursive: true })
    writeFileSync(join(dir, rel), text)
  }
  return dir
}

export interface ModSession extends TestAgent {
  readonly dataDir: string
}

/** A scripted session with the real fs and bash tools, any `plugins` of the test's own, and the given mods. */
export async function modSession(
  mods: readonly ModSpec[],
  script: readonly ScriptEntry[],
  config: Omit<ConfigInput<typeof ModsConfig>, 'mods'> = {},
  cwd: string = tempDir('tack-mods-ws-'),
  plugins: readonly TestPlugin[] = [],
): Promise<ModSession> {
  const dataDir = tempDir('tack-mods-data-')
  const agent = await createTestAgent({
    cwd,
    script,
    plugins: [
      { plugin: FsToolsPlugin },
      { plugin: BashToolPlugin },
      ...plugins,
      modsTestPlugin(mods, { dataDir, ...config }),
    ],
  })
  return Object.assign(agent, { dataDir })
}
