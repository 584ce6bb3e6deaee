// Configuration layering (80-cli §3): built-in defaults → `$TACK_HOME/config.yml` → `<cwd>/.tack/config.yml`
// → `--config FILE` → `--profile NAME` → flags. Every layer is validated on its own, so an error names the
// file, the key path and the allowed range; an unknown key is an error, never a silent default.
import { existsSync, readFileSync } from 'node:fs'
import { ConfigError, type ConfigIssue } from '@tack/kernel'
import { CATALOG, catalogEntry } from '../plugin-catalog.ts'

export const PERMISSION_MODES = ['ask', 'workspace-write', 'read-only', 'yolo'] as const
export const TOOLS_MODES = ['native', 'code', 'both'] as const
export type PermissionMode = (typeof PERMISSION_MODES)[number]
export type ToolsMode = (typeof TOOLS_MODES)[number]

/** One layer as written in a file (validated). */
export interface ConfigLayer {
  model?: string
  baseUrl?: string
  permissionMode?: PermissionMode
  toolsMode?: ToolsMode
  plugins?: Record<string, Record<string, unknown> | boolean>
  profiles?: Record<string, Omit<ConfigLayer, 'profiles'>>
}

export interface Settings {
  readonly model?: string
  readonly baseUrl?: string
  readonly permissionMode?: PermissionMode
  readonly toolsMode?: ToolsMode
  /** Per plugin key: its merged config, or `false` when turned off. */
  readonly plugins: Readonly<Record<string, Record<string, unknown> | false>>
  /** The config files that were read, in layer order. */
  readonly files: readonly string[]
}

export interface LoadOptions {
  readonly userConfig: string
  readonly projectConfig: string
  readonly extraConfig?: string
  readonly profile?: string
  readonly flags: Omit<ConfigLayer, 'plugins' | 'profiles'>
}

const TOP_KEYS = ['model', 'baseUrl', 'permissionMode', 'toolsMode', 'plugins', 'profiles']

export async function loadSettings(opts: LoadOptions): Promise<Settings> {
  const files: string[] = []
  const layers: ConfigLayer[] = []
  for (const path of [opts.userConfig, opts.projectConfig]) {
    if (existsSync(path)) {
      layers.push(await readLayer(path))
      files.push(path)
    }
  }
  if (opts.extraConfig) {
    if (!existsSync(opts.extraConfig))
      throw new ConfigError([{ path: '', message: 'file not found' }], opts.extraConfig)
    layers.push(await readLayer(opts.extraConfig))
    files.push(opts.extraConfig)
  }
  const merged = layers.reduce<ConfigLayer>((acc, l) => mergeLayer(acc, l), {})
  if (opts.profile) {
    const profile = merged.profiles?.[opts.profile]
    if (!profile) {
      const known = Object.keys(merged.profiles ?? {})
      throw new ConfigError([
        {
          path: 'profile',
          message: `no profile named "${opts.profile}" (known: ${known.join(', ') || 'none'})`,
        },
      ])
    }
    Object.assign(merged, mergeLayer(merged, profile))
  }
  for (const [k, v] of Object.entries(opts.flags))
    if (v !== undefined) (merged as Record<string, unknown>)[k] = v
  await checkLayer(merged as Record<string, unknown>, '--flags and merged layers')

  const plugins: Record<string, Record<string, unknown> | false> = {}
  for (const entry of CATALOG) {
    const v = merged.plugins?.[entry.key]
    if (v === false || (v === undefined && !entry.defaultOn)) plugins[entry.key] = false
    else plugins[entry.key] = typeof v === 'object' ? v : {}
  }
  return {
    ...(merged.model !== undefined ? { model: merged.model } : {}),
    ...(merged.baseUrl !== undefined ? { baseUrl: merged.baseUrl } : {}),
    ...(merged.permissionMode !== undefined ? { permissionMode: merged.permissionMode } : {}),
    ...(merged.toolsMode !== undefined ? { toolsMode: merged.toolsMode } : {}),
    plugins,
    files,
  }
}

async function readLayer(file: string): Promise<ConfigLayer> {
  let value: unknown
  try {
    const { parse } = await import('yaml')
    value = parse(readFileSync(file, 'utf8'))
  } catch (error) {
    throw new ConfigError([{ path: '', message: `cannot read YAML: ${(error as Error).message}` }], file)
  }
  if (value === null || value === undefined) return {}
  await checkLayer(value, file)
  return value as ConfigLayer
}

/** Validates a layer; throws ConfigError naming `file`, each key path and its allowed range. */
export async function checkLayer(value: unknown, file: string): Promise<void> {
  const issues: ConfigIssue[] = []
  await checkShape(value, '', issues, true)
  if (issues.length) throw new ConfigError(issues, file)
}

async function checkShape(
  value: unknown,
  base: string,
  issues: ConfigIssue[],
  topLevel: boolean,
): Promise<void> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    issues.push({ path: base, message: 'must be a mapping of keys to values' })
    return
  }
  const v = value as Record<string, unknown>
  const at = (k: string) => (base ? `${base}.${k}` : k)
  for (const key of Object.keys(v)) {
    if (!TOP_KEYS.includes(key) || (!topLevel && key === 'profiles')) {
      issues.push({
        path: at(key),
        message: `unknown key (known keys: ${TOP_KEYS.filter((k) => topLevel || k !== 'profiles').join(', ')})`,
      })
    }
  }
  for (const key of ['model', 'baseUrl'] as const) {
    if (v[key] !== undefined && (typeof v[key] !== 'string' || v[key] === '')) {
      issues.push({ path: at(key), message: `must be a non-empty string (got ${JSON.stringify(v[key])})` })
    }
  }
  if (typeof v.model === 'string' && !/^[^/\s]+\/\S+$/.test(v.model)) {
    issues.push({
      path: at('model'),
      message: `must be provider/model, e.g. deepseek/deepseek-chat (got "${v.model}")`,
    })
  }
  if (
    v.permissionMode !== undefined &&
    !(PERMISSION_MODES as readonly unknown[]).includes(v.permissionMode)
  ) {
    issues.push({
      path: at('permissionMode'),
      message: `must be one of ${PERMISSION_MODES.join(', ')} (got ${JSON.stringify(v.permissionMode)})`,
    })
  }
  if (v.toolsMode !== undefined && !(TOOLS_MODES as readonly unknown[]).includes(v.toolsMode)) {
    issues.push({
      path: at('toolsMode'),
      message: `must be one of ${TOOLS_MODES.join(', ')} (got ${JSON.stringify(v.toolsMode)})`,
    })
  }
  if (v.plugins !== undefined) {
    if (typeof v.plugins !== 'object' || v.plugins === null || Array.isArray(v.plugins)) {
      issues.push({
        path: at('plugins'),
        message: 'must be a mapping of plugin names to their config (or false)',
      })
    } else {
      for (const [key, cfg] of Object.entries(v.plugins)) {
        const entry = catalogEntry(key)
        const path = at(`plugins.${key}`)
        if (!entry) {
          issues.push({ path, message: `unknown plugin (known: ${CATALOG.map((e) => e.key).join(', ')})` })
          continue
        }
        if (typeof cfg === 'boolean') continue
        const { Config } = await entry.load()
        const r = Config.check(cfg, path)
        if (!r.ok) issues.push(...r.issues)
      }
    }
  }
  if (topLevel && v.profiles !== undefined) {
    if (typeof v.profiles !== 'object' || v.profiles === null || Array.isArray(v.profiles)) {
      issues.push({ path: 'profiles', message: 'must be a mapping of profile names to settings' })
    } else {
      for (const [name, p] of Object.entries(v.profiles))
        await checkShape(p, `profiles.${name}`, issues, false)
    }
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

function deepMerge(a: unknown, b: unknown): unknown {
  if (!isObject(a) || !isObject(b)) return b
  const out: Record<string, unknown> = { ...a }
  for (const [k, v] of Object.entries(b)) out[k] = k in out ? deepMerge(out[k], v) : v
  return out
}

function mergeLayer(a: ConfigLayer, b: ConfigLayer): ConfigLayer {
  return deepMerge(a, b) as ConfigLayer
}
