// Boots a cordis context with the plugins a command needs: one loop over the core plugins
// (core-plugins.ts) and the catalog (plugin-catalog.ts), each loaded as its declaration says
// (boot-role.ts) with its validated config, then the user's own plugins (user-plugins.ts) in their
// configured order. Before the loop, the entries this run loads start their `early` work (the MCP
// servers' processes, so they start while the plugins load: docs/decisions/0240-mcp-early-start.md). Plugin warnings are printed to stderr (log-sink.ts). The order of the entries
// changes nothing a test can see (docs/decisions/0206-boot-loop.md): seam order comes from the seams'
// phases, and a plugin that needs another's service waits for it (cordis `inject`).
import { builtinScope } from '@tack/kernel'
import { makeTackHome } from '@tack/kernel/home'
import type { Context, Fiber } from 'cordis'
import type { BootEntry, BootOptions } from './boot-role.ts'
import { withInject } from './boot-role.ts'
import { catalogOrder } from './catalog-order.ts'
import { CORE_PLUGINS } from './core-plugins.ts'
import { CliError } from './errors.ts'
import { CATALOG } from './plugin-catalog.ts'
import { importUserPlugin } from './user-plugins.ts'

export type { BootOptions } from './boot-role.ts'

export interface Booted {
  readonly ctx: Context
  close(): Promise<void>
}

// biome-ignore lint/suspicious/noExplicitAny: plugins of any config shape are loaded through one path
type AnyPlugin = any

export async function boot(opts: BootOptions): Promise<Booted> {
  const { Context } = await import('@tack/kernel')
  const ctx = new Context()
  // A boot that fails part way (a plugin that throws, a home that cannot be made) disposes what it
  // already started: a long-running `tack acp` boots one context per session folder and must not keep a
  // failed folder's store, hook bridges or mods open for the rest of the connection.
  // What entries started before any plugin loaded (`early`), undone if the boot fails.
  const undo: Array<() => Promise<void>> = []
  try {
    await loadPlugins(ctx, opts, undo)
  } catch (error) {
    try {
      await dispose(ctx)
      await Promise.all(undo.map((u) => u()))
    } catch {
      // the boot's own error is the one worth reporting
    }
    throw error
  }
  return { ctx, close: () => dispose(ctx) }
}

/** Every plugin boot may load, core first, in the order this run uses (catalog-order.ts). */
export function bootEntries(env: NodeJS.ProcessEnv): readonly BootEntry[] {
  const catalog = CATALOG.map((entry): BootEntry => ({ ...entry, configurable: true }))
  return catalogOrder([...CORE_PLUGINS, ...catalog], env)
}

async function loadPlugins(ctx: Context, opts: BootOptions, undo: Array<() => Promise<void>>): Promise<void> {
  if (opts.warn) {
    const { printWarnings } = await import('./log-sink.ts')
    printWarnings(ctx, opts.warn, opts.verbose === true)
  }
  // $TACK_HOME holds the session log, transcripts and scratch output: owner-only from its creation
  // (an existing folder keeps the mode its owner gave it). A home that cannot be made is one line, exit 2.
  if (opts.makeHome !== false) makeTackHome(opts.paths.home)

  // Built-ins are ordered on each seam by its phases and their names, not by this loop's order.
  const builtins = builtinScope(ctx)
  const loaded: Loaded[] = []
  const entries = bootEntries(opts.env).filter((entry) => loadsIn(entry, opts))
  await startEarly(entries, opts, undo)
  for (const entry of entries) {
    const role = entry.boot ?? {}
    const configured = entry.configurable ? opts.settings.plugins[entry.key] : undefined
    if (configured === false) {
      const needed = role.neededBy?.(opts)
      if (needed) throw new CliError(needed)
      continue
    }
    const merged = { ...role.defaults?.(opts), ...configured }
    const config = { ...merged, ...role.overrides?.(opts, merged) }
    const plugin = role.plugin ? await role.plugin(opts) : (await entry.load()).plugin
    const fiber = await load(builtins, entry.key, withInject(plugin, role.inject?.(opts) ?? []), config)
    loaded.push({ entry, fiber })
  }
  await settleAll(ctx, loaded)
  for (const { entry, fiber } of loaded) entry.boot?.loaded?.(ctx, opts, fiber.config)
  if (opts.storeOnly) return

  for (const ref of opts.userPlugins ?? []) {
    const loaded = await importUserPlugin(ref)
    try {
      await ctx.plugin(loaded.plugin, loaded.config)
    } catch (error) {
      throw new CliError(`plugin ${loaded.file} failed to load: ${(error as Error).message.split('\n')[0]}`)
    }
  }
  if (opts.env.TACK_DEV === '1') {
    const { installRequestInvariant, installStructureInvariant } = await import('@tack/agent/invariants')
    installStructureInvariant(ctx)
    installRequestInvariant(ctx)
  }
  const { addCoreSystemPrompt } = await import('./system-prompt.ts')
  addCoreSystemPrompt(ctx, opts.cwd)
}

/** Whether this run loads `entry` unless its config turns it off. */
function loadsIn(entry: BootEntry, opts: BootOptions): boolean {
  const role = entry.boot ?? {}
  if (opts.storeOnly && !role.storeOnly) return false
  return !role.loads || role.loads(opts)
}

/**
 * Each loaded entry's early work (boot-role.ts `early`), before any plugin loads; if the boot fails
 * after it, what it started is undone (the boot's own error is the one reported).
 */
async function startEarly(
  entries: readonly BootEntry[],
  opts: BootOptions,
  undo: Array<() => Promise<void>>,
): Promise<void> {
  for (const entry of entries) {
    if (!entry.boot?.early || (entry.configurable && opts.settings.plugins[entry.key] === false)) continue
    const undoIt = await entry.boot.early(opts)
    if (undoIt) undo.push(undoIt)
  }
}

async function load(ctx: Context, key: string, plugin: AnyPlugin, config: unknown): Promise<Fiber> {
  return settled(key, ctx.plugin(plugin, config))
}

/** `fiber` once cordis has applied it (or left it waiting for a service); its failure as a CliError. */
async function settled(key: string, fiber: Fiber): Promise<Fiber> {
  try {
    // `await()`, not `await fiber`: only the object `ctx.plugin` returns is a thenable, not the fiber
    await fiber.await()
  } catch (error) {
    // The stores' own errors already name the file or database and the fix (a damaged, read-only or
    // full disk; an unreachable database, a refused password, a newer schema).
    const name = (error as Error).name
    if (name === 'SqliteStoreError' || name === 'PostgresStoreError')
      throw new CliError((error as Error).message)
    throw new CliError(`plugin "${key}" failed to load: ${(error as Error).message}`)
  }
  return fiber
}

interface Loaded {
  readonly entry: BootEntry
  readonly fiber: Fiber
}

/**
 * Waits until every loaded plugin has applied. One that waited for another's service (`inject`) applied
 * when that one loaded, maybe later in the loop, and may let a third apply in turn: passes repeat until
 * one changes nothing. A plugin still waiting then needs a service nothing provides: the run is refused.
 */
async function settleAll(ctx: Context, loaded: readonly Loaded[]): Promise<void> {
  const states = () => loaded.map(({ fiber }) => fiber.state).join()
  for (let before = ''; before !== states(); ) {
    before = states()
    for (const { entry, fiber } of loaded) await settled(entry.key, fiber)
  }
  for (const { entry, fiber } of loaded) assertApplied(ctx, entry.key, fiber)
}

/** cordis's `FiberState.PENDING` (a `const enum` in its types only): applied never yet, waiting for `inject`. */
const PENDING = 0

/** Refuses a plugin still waiting, once every plugin is loaded, for a service nothing provides. */
function assertApplied(ctx: Context, key: string, fiber: Fiber): void {
  if (fiber.state !== PENDING) return
  const missing = Object.keys(fiber.inject).filter((name) => ctx.get(name) === undefined)
  throw new CliError(`plugin "${key}" needs ${missing.join(', ')}, which no loaded plugin provides`)
}

async function dispose(ctx: Context): Promise<void> {
  try {
    await ctx.agents?.disposeAll('exit')
  } catch {
    // the agents service may not be loaded (store-only boots)
  }
  await ctx.registry.plugin
  for (const runtime of [...ctx.registry.values()].reverse()) {
    for (const fiber of [...runtime.fibers]) await fiber.dispose()
  }
}
