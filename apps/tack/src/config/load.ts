// Configuration layering (80-cli §3): built-in defaults → `$TACK_HOME/config.yml` → `<cwd>/.tack/config.yml`
// → `--config FILE` → `--profile NAME` → flags. Every layer is validated on its own, so an error names the
// file, the key path and the allowed range; an unknown key is an error, never a silent default. A project
// file of an untrusted workspace keeps only its harmless keys (`untrusted.ts`), and which layer set each
// base URL is kept for `@tack/llm` (`origins.ts`), so a key never goes to a URL a project chose.
import { existsSync } from 'node:fs'
import { readBoundedText } from '@tack/kernel/bounded-file'
import { ConfigError, type ConfigIssue } from '@tack/kernel'
import type { LlmOrigins } from '@tack/llm'
import { REASONING_EFFORTS, type ReasoningEffort } from '@tack/session'
import { PERMISSION_MODES, type PermissionMode } from '@tack/permissions/modes'
import { TOOLS_MODES, type ToolsMode } from '@tack/tools/modes'
import { CATALOG, catalogEntry } from '../plugin-catalog.ts'
import { type LayerOrigin, llmOriginsOf, type SourcedLayer } from './origins.ts'
import { ConfigSyntaxError } from './syntax-error.ts'
import { keepHarmless } from './untrusted.ts'
import { dirname, join } from 'node:path'
import { normalizeLayerPaths } from './layer-paths.ts'
import { findPackageDir, isPathSpec, isUserPluginKey } from './user-plugin-keys.ts'

export { PERMISSION_MODES, type PermissionMode, TOOLS_MODES, type ToolsMode }

/** One layer as written in a file (validated). */
export interface ConfigLayer {
  model?: string
  effort?: ReasoningEffort
  baseUrl?: string
  permissionMode?: PermissionMode
  toolsMode?: ToolsMode
  plugins?: Record<string, Record<string, unknown> | boolean>
  profiles?: Record<string, Omit<ConfigLayer, 'profiles'>>
}

/** A plugin of the user's own named under `plugins:` (a path made absolute, or a package name). */
export interface ConfiguredUserPlugin {
  readonly spec: string
  readonly config: Record<string, unknown> | false
  /** The config file that named it first. */
  readonly file: string
}

export interface Settings {
  readonly model?: string
  /** The reasoning effort new sessions ask for (85-skills-and-commands.md I3); absent: the provider's default. */
  readonly effort?: ReasoningEffort
  readonly baseUrl?: string
  readonly permissionMode?: PermissionMode
  readonly toolsMode?: ToolsMode
  /** Per built-in plugin key: its merged config, or `false` when turned off. */
  readonly plugins: Readonly<Record<string, Record<string, unknown> | false>>
  /** Plugins of the user's own from `plugins:`, in merged order. */
  readonly userPlugins: readonly ConfiguredUserPlugin[]
  /** The config files that were read, in layer order. */
  readonly files: readonly string[]
  /** Which layer set each base URL (for `createLlmPlugin({origins})`). */
  readonly llmOrigins: LlmOrigins
  /** An untrusted workspace's project file and the keys dropped from it. */
  readonly refused?: { readonly file: string; readonly keys: readonly string[] }
}

export interface LoadOptions {
  readonly userConfig: string
  readonly projectConfig: string
  /** Whether the workspace is trusted; an untrusted project file keeps only harmless keys. */
  readonly projectTrusted: boolean
  /** `--config FILE` (the CLI's one), or a library session's `configFiles`, in order: user-owned layers. */
  readonly extraConfigs?: readonly string[]
  /**
   * A layer given as a value rather than a file (a library session's options: `mcpServers`, `storeUrl`),
   * after the files and before the profile; `name` is what its errors name, paths resolve from `baseDir`.
   */
  readonly inline?: {
    readonly name: string
    readonly baseDir: string
    readonly layer: Record<string, unknown>
  }
  readonly profile?: string
  readonly flags: Omit<ConfigLayer, 'plugins' | 'profiles'>
  /** Expands `~/` in config-file paths (plugin keys and path-valued fields). */
  readonly userHome?: string
  /**
   * Given, a config file that cannot be read or is invalid is reported here and skipped, and the
   * others still load (`tack doctor` lists every broken file and goes on); absent, it throws.
   */
  readonly onBrokenFile?: (file: string, error: unknown) => void
}

const TOP_KEYS = ['model', 'effort', 'baseUrl', 'permissionMode', 'toolsMode', 'plugins', 'profiles']

export async function loadSettings(opts: LoadOptions): Promise<Settings> {
  const files: string[] = []
  const layers: SourcedLayer[] = []
  let refused: Settings['refused']
  const add = async (file: string, origin: LayerOrigin) => {
    if (!opts.onBrokenFile) return addLayer(file, origin)
    try {
      await addLayer(file, origin)
    } catch (error) {
      opts.onBrokenFile(file, error)
    }
  }
  const addLayer = async (file: string, origin: LayerOrigin) => {
    let raw = await readYaml(file)
    if (origin === 'project' && !opts.projectTrusted) {
      const user = layers.find((l) => l.origin === 'user')?.layer
      const filtered = keepHarmless(raw, {
        userPermissionMode: user?.permissionMode ?? readMode(user?.plugins?.permissions),
        userAgent: user?.plugins?.agent as Record<string, unknown> | undefined,
      })
      raw = filtered.kept
      if (filtered.refused.length) refused = { file, keys: filtered.refused }
    }
    // Relative paths mean the file's folder, before layers merge (docs/decisions/0130-config-relative-paths.md).
    const layer = normalizeLayerPaths(raw, file, opts.userHome)
    await checkLayer(layer, file)
    layers.push({ layer: (layer ?? {}) as ConfigLayer, origin, file })
    files.push(file)
  }
  if (existsSync(opts.userConfig)) await add(opts.userConfig, 'user')
  if (existsSync(opts.projectConfig)) await add(opts.projectConfig, 'project')
  for (const extra of opts.extraConfigs ?? []) {
    if (existsSync(extra)) await add(extra, 'user')
    else if (opts.onBrokenFile)
      opts.onBrokenFile(extra, new ConfigError([{ path: '', message: 'file not found' }], extra))
    else throw new ConfigError([{ path: '', message: 'file not found' }], extra)
  }
  if (opts.inline) {
    // The caller's own values, like a file of theirs (origin `user`): checked and named the same way.
    const { name, baseDir, layer: raw } = opts.inline
    const layer = normalizeLayerPaths(raw, join(baseDir, name), opts.userHome)
    await checkLayer(layer, name)
    layers.push({ layer: (layer ?? {}) as ConfigLayer, origin: 'user', file: name })
  }
  const ordered: SourcedLayer[] = [...layers]
  if (opts.profile) {
    // A profile merges across files like the files themselves; each part keeps its file's origin.
    const parts = layers.flatMap((l) => {
      const p = l.layer.profiles?.[opts.profile as string]
      return p ? [{ layer: p as ConfigLayer, origin: l.origin, file: l.file }] : []
    })
    if (parts.length === 0) {
      const known = [...new Set(layers.flatMap((l) => Object.keys(l.layer.profiles ?? {})))]
      throw new ConfigError([
        {
          path: 'profile',
          message: `no profile named "${opts.profile}" (known: ${known.join(', ') || 'none'})`,
        },
      ])
    }
    ordered.push(...parts)
  }
  const flags: ConfigLayer = {}
  for (const [k, v] of Object.entries(opts.flags))
    if (v !== undefined) (flags as Record<string, unknown>)[k] = v
  await checkFlags(flags)
  ordered.push({ layer: flags, origin: 'flag' })
  const merged = ordered.reduce<ConfigLayer>((acc, l) => mergeLayer(acc, l.layer), {})
  const permissionMode = settledPermissionMode(ordered)
  delete merged.profiles
  await checkLayer(merged as Record<string, unknown>, MERGED_LAYERS)
  refuseProjectKeyRoutes(ordered)

  const plugins: Record<string, Record<string, unknown> | false> = {}
  for (const entry of CATALOG) {
    const v = merged.plugins?.[entry.key]
    if (v === false || (v === undefined && !entry.defaultOn)) plugins[entry.key] = false
    else plugins[entry.key] = typeof v === 'object' ? v : {}
  }
  const userPlugins: ConfiguredUserPlugin[] = []
  for (const [spec, v] of Object.entries(merged.plugins ?? {})) {
    if (!isUserPluginKey(spec)) continue
    const file = ordered.find((l) => l.file && l.layer.plugins && spec in l.layer.plugins)?.file ?? ''
    userPlugins.push({ spec, config: v === false ? false : typeof v === 'object' ? v : {}, file })
  }
  return {
    ...(merged.model !== undefined ? { model: merged.model } : {}),
    ...(merged.effort !== undefined ? { effort: merged.effort } : {}),
    ...(merged.baseUrl !== undefined ? { baseUrl: merged.baseUrl } : {}),
    ...(permissionMode !== undefined ? { permissionMode } : {}),
    ...(merged.toolsMode !== undefined ? { toolsMode: merged.toolsMode } : {}),
    plugins,
    userPlugins,
    files,
    llmOrigins: llmOriginsOf(ordered, merged.baseUrl !== undefined),
    ...(refused ? { refused } : {}),
  }
}

/**
 * The permission mode a run uses (issue 10 item 6): the last layer that sets one, by `permissionMode`
 * or by `plugins.permissions.mode` (the top-level key wins within one layer), so a mode in a config
 * file is honoured by `tack run` exactly like `--permission-mode`.
 */
function settledPermissionMode(layers: readonly SourcedLayer[]): PermissionMode | undefined {
  let mode: PermissionMode | undefined
  for (const { layer } of layers) {
    const set = layer.permissionMode ?? readMode(layer.plugins?.permissions)
    if (set !== undefined) mode = set as PermissionMode
  }
  return mode
}

function readMode(permissions: unknown): string | undefined {
  const mode = (permissions as { mode?: unknown } | undefined)?.mode
  return typeof mode === 'string' ? mode : undefined
}

/**
 * The most of a config file tack reads. A constant, not a setting: it guards the reading of the settings
 * themselves, and a real config file is a few KiB.
 */
export const MAX_CONFIG_FILE_BYTES = 1024 * 1024

/** A config file's YAML (JSON is YAML too); a syntax or read error is one line naming `file:line:column`. */
async function readYaml(file: string): Promise<unknown> {
  // bounded and non-blocking: a workspace's `.tack/config.yml` that is a FIFO or /dev/zero must not hang
  // tack or fill its memory before anything is trusted
  const read = readBoundedText(file, MAX_CONFIG_FILE_BYTES)
  if (!read.ok) throw new ConfigSyntaxError(file, new Error(read.problem))
  let value: unknown
  try {
    const { parse } = await import('yaml')
    value = parse(read.text)
  } catch (error) {
    throw new ConfigSyntaxError(file, error)
  }
  return value === null || value === undefined ? {} : value
}

/** What the check of the merged configuration names as its "file" in an error. */
const MERGED_LAYERS = '--flags and merged layers'

/** The command-line flag each key of the flags layer came from: what an error about it names. */
const FLAG_OF: Record<string, string> = {
  model: '--model',
  effort: '--effort',
  baseUrl: '--base-url',
  permissionMode: '--permission-mode',
  toolsMode: '--tools-mode',
}

/**
 * The flags' values, checked before they merge with the files: a bad `--model x` is the person's typing,
 * so the error names the flag they typed, not the merged configuration the value would have landed in.
 */
async function checkFlags(flags: ConfigLayer): Promise<void> {
  const issues: ConfigIssue[] = []
  await checkShape(flags, '', issues, false, MERGED_LAYERS)
  if (issues.length === 0) return
  throw new ConfigError(
    issues.map((i) => {
      const key = i.path.split('.')[0]
      return { path: FLAG_OF[key] ?? i.path, message: i.message }
    }),
  )
}

/** Validates a layer; throws ConfigError naming `file`, each key path and its allowed range. */
export async function checkLayer(value: unknown, file: string): Promise<void> {
  const issues: ConfigIssue[] = []
  await checkShape(value, '', issues, true, file)
  if (issues.length) throw new ConfigError(issues, file)
}

async function checkShape(
  value: unknown,
  base: string,
  issues: ConfigIssue[],
  topLevel: boolean,
  file: string,
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
  if (v.effort !== undefined && !(REASONING_EFFORTS as readonly unknown[]).includes(v.effort)) {
    issues.push({
      path: at('effort'),
      message: `must be one of ${REASONING_EFFORTS.join(', ')} (got ${JSON.stringify(v.effort)})`,
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
        // A bare name is a package only when one is installed where the file is: a typo stays an error.
        // The merged layer holds only keys that a file named, each already checked against its file.
        const known =
          isPathSpec(key) ||
          file === MERGED_LAYERS ||
          (file.startsWith('/') && findPackageDir(key, dirname(file)) !== undefined)
        if (!entry && !(isUserPluginKey(key) && known)) {
          const builtIns = CATALOG.map((e) => e.key).join(', ')
          const notInstalled =
            isUserPluginKey(key) && file.startsWith('/')
              ? `no package "${key}" in node_modules from ${dirname(file)} upwards, and `
              : ''
          issues.push({
            path,
            message: `unknown plugin: ${notInstalled}no built-in of that name (built-in: ${builtIns}; a plugin of your own is a path like ./my-plugin.ts or an installed package's name)`,
          })
          continue
        }
        if (typeof cfg === 'boolean') continue
        if (!entry) {
          // A user plugin's fields are checked against its own Config when it is imported (boot, doctor).
          if (cfg !== null && (typeof cfg !== 'object' || Array.isArray(cfg)))
            issues.push({ path, message: 'must be a mapping (the plugin’s config), true or false' })
          continue
        }
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
        await checkShape(p, `profiles.${name}`, issues, false, file)
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

/**
 * Keys that are the user's choice alone: a project config, trusted or not, that names one is refused.
 * Where the web-search key goes and which variable it is read from (issue 9 item 1), so a cloned
 * repository can never route `BRAVE_API_KEY` (or any other variable) to a server it picked; and
 * `plugins.mcp.approve`, so a repository cannot approve its own `.mcp.json` servers past the per-server
 * question (55-mcp.md M6, docs/decisions/0250-mcp-approval-prompt.md).
 */
const USER_ONLY_KEYS: Readonly<Record<string, { readonly keys: readonly string[]; readonly why: string }>> = {
  web: {
    keys: ['searchBaseUrl', 'searchApiKeyEnv'],
    why: 'a project config cannot choose where the search key is sent or which variable it comes from; set it in $TACK_HOME/config.yml or a --config file',
  },
  mcp: {
    keys: ['approve'],
    why: 'a project config cannot approve its own MCP servers; approve each (tack mcp approve NAME, or the question at start), or set it in $TACK_HOME/config.yml or a --config file',
  },
}

function refuseProjectKeyRoutes(layers: readonly SourcedLayer[]): void {
  for (const { layer, origin, file } of layers) {
    if (origin !== 'project') continue
    const issues: ConfigIssue[] = []
    for (const [plugin, { keys, why }] of Object.entries(USER_ONLY_KEYS)) {
      const config = layer.plugins?.[plugin]
      if (typeof config !== 'object' || config === null) continue
      for (const key of keys)
        if ((config as Record<string, unknown>)[key] !== undefined)
          issues.push({ path: `plugins.${plugin}.${key}`, message: why })
    }
    if (issues.length) throw new ConfigError(issues, file)
  }
}
