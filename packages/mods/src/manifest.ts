// Reads a mod folder as Claude Code does (65-mod-host.md requirement 1; claude-code-mods.md §5):
// `.claude-plugin/plugin.json` and `hooks/hooks.json`, whose one `modules` path is resolved relative to
// the `hooks/` folder. Nothing is imported here.
import { existsSync, readFileSync, statSync } from 'node:fs'
import { basename, extname, join, resolve } from 'node:path'
import { ModLoadError } from './errors.ts'

export interface UserConfigField {
  readonly type: 'string' | 'number' | 'boolean'
  readonly required?: boolean
  readonly default?: unknown
  readonly description?: string
}

export interface ModManifest {
  /** The mod id: the manifest's `name`. */
  readonly name: string
  readonly version: string
  readonly description?: string
  readonly root: string
  /** Absolute path of the hooks module. */
  readonly entry: string
  readonly userConfig: Readonly<Record<string, UserConfigField>>
}

const LOADABLE = new Set(['.js', '.mjs', '.ts', '.mts'])
const NEEDS_TRANSFORM = new Set(['.tsx', '.jsx', '.cjs', '.cts'])

function readJson(file: string, label: string, mod: string): unknown {
  if (!existsSync(file)) throw new ModLoadError(mod, `${label} is missing (${file})`)
  try {
    return JSON.parse(readFileSync(file, 'utf8'))
  } catch (error) {
    throw new ModLoadError(mod, `${label} is not valid JSON (${file}): ${(error as Error).message}`)
  }
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

function readUserConfig(raw: unknown, mod: string): Record<string, UserConfigField> {
  if (raw === undefined) return {}
  if (!isObject(raw)) throw new ModLoadError(mod, 'plugin.json userConfig must be an object')
  const out: Record<string, UserConfigField> = {}
  for (const [key, field] of Object.entries(raw)) {
    if (!isObject(field) || !['string', 'number', 'boolean'].includes(String(field.type)))
      throw new ModLoadError(
        mod,
        `plugin.json userConfig.${key}.type must be "string", "number" or "boolean"`,
      )
    out[key] = field as unknown as UserConfigField
  }
  return out
}

/** Reads and checks a mod folder; throws `ModLoadError` naming the mod (or the folder) and the cause. */
export function readModFolder(dir: string): ModManifest {
  const root = resolve(dir)
  const folderLabel = basename(root)
  if (!existsSync(root) || !statSync(root).isDirectory())
    throw new ModLoadError(folderLabel, `${root} is not a folder`)
  const manifest = readJson(
    join(root, '.claude-plugin', 'plugin.json'),
    '.claude-plugin/plugin.json',
    folderLabel,
  )
  if (!isObject(manifest) || typeof manifest.name !== 'string' || manifest.name === '')
    throw new ModLoadError(folderLabel, '.claude-plugin/plugin.json needs a non-empty "name"')
  const name = manifest.name
  if (typeof manifest.version !== 'string' || manifest.version === '')
    throw new ModLoadError(name, '.claude-plugin/plugin.json needs a non-empty "version"')
  const hooks = readJson(join(root, 'hooks', 'hooks.json'), 'hooks/hooks.json', name)
  const modules = isObject(hooks) ? hooks.modules : undefined
  if (!Array.isArray(modules) || modules.length !== 1 || typeof modules[0] !== 'string')
    throw new ModLoadError(name, 'hooks/hooks.json "modules" must name exactly one path')
  const entry = resolve(root, 'hooks', modules[0])
  const ext = extname(entry)
  if (NEEDS_TRANSFORM.has(ext))
    throw new ModLoadError(name, `${modules[0]}: JSX/CommonJS needs a transform tack does not ship`)
  if (!LOADABLE.has(ext)) throw new ModLoadError(name, `${modules[0]}: entry must be .js, .mjs, .ts or .mts`)
  if (!existsSync(entry)) throw new ModLoadError(name, `${modules[0]} not found (resolved to ${entry})`)
  return {
    name,
    version: manifest.version,
    ...(typeof manifest.description === 'string' ? { description: manifest.description } : {}),
    root,
    entry,
    userConfig: readUserConfig(manifest.userConfig, name),
  }
}
