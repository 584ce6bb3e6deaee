// Plugins of the user's own (issue 8 item 5, docs/decisions/0014-user-plugins.md). Found in three places
// and loaded after every built-in, in this order (earlier = upstream on a waterfall seam):
//   1. `$TACK_HOME/plugins/*`            — the user's own, always;
//   2. `plugins:` entries that are paths or package names, in merged config order;
//   3. `<workspace>/.tack/plugins/*`     — the project's, only in a trusted workspace.
// A folder entry is a `*.ts|*.mts|*.js|*.mjs` file or a folder with an `index.*` of those, by name. A
// module exports a cordis plugin: `default` (an object with `apply`, or a function), or `apply` itself
// (with optional `name`, `Config`, `inject`). Its `Config` (a `@tack/kernel` Schema object, or any Standard
// Schema) validates its settings like a built-in's; without one, settings are an error.
import { sortedEntries } from './dir-entries.ts'
import { existsSync, readFileSync, statSync } from 'node:fs'
import { basename, dirname, extname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { ConfigIssue } from '@tack/kernel'
import type { Settings } from './config/load.ts'
import { importWorkspaceFromBuild } from './built-workspace-imports.ts'
import { findPackageDir, isPathSpec, packageEntry } from './config/user-plugin-keys.ts'
import { CliError } from './errors.ts'
import type { TackPaths } from './paths.ts'
import { projectPluginsPath } from './paths.ts'

export type PluginPlace = 'home' | 'config' | 'project'

export interface UserPluginRef {
  /** Absolute file path, or a package name (from config). */
  readonly spec: string
  readonly place: PluginPlace
  readonly config: Record<string, unknown>
  /** The config file that named it (config plugins). */
  readonly namedIn?: string
}

export interface FoundPlugins {
  /** The plugins that will load, in load order. */
  readonly refs: readonly UserPluginRef[]
  /** Project plugins that do not load because the workspace is untrusted. */
  readonly heldBack: readonly string[]
}

const EXTENSIONS = ['.ts', '.mts', '.js', '.mjs']

/** The plugin files of a folder, by name: files with a plugin extension, and folders with an index file. */
export function pluginFilesIn(dir: string): string[] {
  const out: string[] = []
  for (const name of sortedEntries(dir)) {
    if (name.endsWith('.d.ts')) continue
    const path = join(dir, name)
    let isDir = false
    try {
      isDir = statSync(path).isDirectory()
    } catch {
      continue
    }
    if (isDir) {
      const index = EXTENSIONS.map((ext) => join(path, `index${ext}`)).find((p) => existsSync(p))
      if (index) out.push(index)
    } else if (EXTENSIONS.includes(extname(name))) out.push(path)
  }
  return out
}

export function findUserPlugins(
  settings: Settings,
  paths: TackPaths,
  cwd: string,
  trusted: boolean,
): FoundPlugins {
  const configured = new Map(settings.userPlugins.map((p) => [p.spec, p]))
  const refs: UserPluginRef[] = []
  const seen = new Set<string>()
  const push = (spec: string, place: PluginPlace) => {
    if (seen.has(spec)) return
    seen.add(spec)
    const named = configured.get(spec)
    if (named?.config === false) return // turned off in config
    refs.push({
      spec,
      place,
      config: named?.config || {},
      ...(named?.file ? { namedIn: named.file } : {}),
    })
  }
  for (const file of pluginFilesIn(paths.plugins)) push(file, 'home')
  for (const p of settings.userPlugins) push(p.spec, 'config')
  const project = pluginFilesIn(projectPluginsPath(cwd))
  if (trusted) for (const file of project) push(file, 'project')
  return { refs, heldBack: trusted ? [] : project }
}

// biome-ignore lint/suspicious/noExplicitAny: a user plugin is any cordis plugin shape
type AnyPlugin = any

export interface LoadedUserPlugin {
  readonly ref: UserPluginRef
  readonly name: string
  /** The file the module was loaded from. */
  readonly file: string
  readonly plugin: AnyPlugin
  /** The validated config (the schema's output) handed to `ctx.plugin`. */
  readonly config: unknown
}

/** Imports and validates one plugin; any failure is a one-line `CliError` naming the file. */
export async function importUserPlugin(ref: UserPluginRef): Promise<LoadedUserPlugin> {
  const file = isPathSpec(ref.spec) ? ref.spec : resolvePackage(ref.spec, ref.namedIn)
  const fail = (message: string): never => {
    throw new CliError(`plugin ${file}: ${message}`)
  }
  if (!existsSync(file)) fail(`not found${ref.namedIn ? ` (named in ${ref.namedIn})` : ''}`)
  let mod: Record<string, unknown>
  try {
    importWorkspaceFromBuild()
    mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>
  } catch (error) {
    return fail(`cannot be loaded: ${firstLine(error)}`)
  }
  const plugin =
    pluginOf(mod) ?? fail('exports no plugin (a default export with apply(ctx, config), or apply)')
  const name = typeof plugin.name === 'string' && plugin.name ? plugin.name : basename(file, extname(file))
  const config = await validate(plugin.Config, ref.config, fail)
  return { ref, name, file, plugin, config }
}

function pluginOf(mod: Record<string, unknown>): AnyPlugin | undefined {
  const d = mod.default as AnyPlugin
  if (d && (typeof d === 'function' || typeof d.apply === 'function')) return d
  if (typeof mod.apply === 'function')
    return { name: mod.name, Config: mod.Config, inject: mod.inject, apply: mod.apply }
  return undefined
}

async function validate(
  schema: AnyPlugin,
  config: Record<string, unknown>,
  fail: (message: string) => never,
): Promise<unknown> {
  if (schema && typeof schema.check === 'function') {
    const r = schema.check(config, '') as { ok: true; value: unknown } | { ok: false; issues: ConfigIssue[] }
    if (!r.ok) fail(r.issues.map((i) => `${i.path || '(config)'}: ${i.message}`).join('; '))
    return r.ok ? r.value : undefined
  }
  if (schema?.['~standard']?.validate) {
    const r = await schema['~standard'].validate(config)
    if (r.issues) fail(r.issues.map((i: { message: string }) => i.message).join('; '))
    return r.value
  }
  if (Object.keys(config).length > 0)
    fail('has settings in config but exports no Config schema to check them')
  return config
}

/** A package's entry as Node imports it (`exports` with the import conditions, else `main`), found from the naming config file's folder up. */
function resolvePackage(name: string, namedIn: string | undefined): string {
  const from = namedIn ? dirname(namedIn) : process.cwd()
  const root = findPackageDir(name, from)
  if (!root)
    throw new CliError(`plugin "${name}": no package of that name in node_modules from ${from} upwards`)
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    exports?: unknown
    main?: unknown
  }
  const entry = packageEntry(pkg)
  if (entry === undefined)
    throw new CliError(
      `plugin "${name}": its package.json exports nothing for import (${join(root, 'package.json')})`,
    )
  return join(root, entry)
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
  return text.split('\n')[0]
}
