// A Claude Code mod folder for tests that load mods into the real binary (65-mod-host.md requirement 1):
// `.claude-plugin/plugin.json`, and `hooks/hooks.json` naming one TypeScript entry with `source`.
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'

/** Writes the mod `name` under `parent`; returns its folder. */
export async function writeMod(parent: string, name: string, source: string): Promise<string> {
  const dir = join(parent, name)
  await mkdir(join(dir, '.claude-plugin'), { recursive: true })
  await mkdir(join(dir, 'hooks'), { recursive: true })
  await writeFile(join(dir, '.claude-plugin', 'plugin.json'), JSON.stringify({ name, version: '1.0.0' }))
  await writeFile(join(dir, 'hooks', 'hooks.json'), JSON.stringify({ modules: ['./register.ts'] }))
  await writeFile(join(dir, 'hooks', 'register.ts'), source)
  return dir
}
