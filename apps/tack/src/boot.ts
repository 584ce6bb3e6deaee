// Boots a cordis context with the plugins a command needs: the session store (SQLite under
// $TACK_HOME, or memory with --no-session), the sessions service, and — for commands that run an
// agent — the loop, tools, providers and every enabled plugin with its validated config, then the
// user's own plugins (user-plugins.ts). Plugin warnings are printed to stderr (log-sink.ts).
import { makeTackHome } from '@tack/kernel/home'
import type { ModSpec } from '@tack/mods'
import type { ToolRegistry } from '@tack/tools'
import type { Context } from 'cordis'
import type { Settings } from './config/load.ts'
import { type CliRuleSpecs, hasCliRules, withCliRules } from './cli-rules.ts'
import { readEnvFile } from './env-file.ts'
import { sessionStoreFile, sqliteFiles, storeConfig } from './session-store-file.ts'
import { CliError } from './errors.ts'
import type { TackPaths } from './paths.ts'
import { catalogEntry } from './plugin-catalog.ts'
import { importUserPlugin, type UserPluginRef } from './user-plugins.ts'
import { trustedForThisRun, type WorkspaceTrust } from './workspace-trust.ts'

export interface BootOptions {
  readonly settings: Settings
  readonly paths: TackPaths
  readonly env: NodeJS.ProcessEnv
  readonly cwd: string
  readonly noSession?: boolean
  /** Only the store and the sessions service (for `tack sessions …`). */
  readonly storeOnly?: boolean
  /** Whether the workspace is trusted: project hooks run only then (docs/decisions/0013). */
  readonly trust: WorkspaceTrust
  /** The user's own plugins to load after the built-ins, in order (`findUserPlugins`). */
  readonly userPlugins?: readonly UserPluginRef[]
  /** Where plugin warnings go (stderr); absent: not printed. */
  readonly warn?: (line: string) => void
  readonly verbose?: boolean
  /** `--allow` / `--deny` rules for this run, added to the permission plugin's (cli-rules.ts). */
  readonly cliRules?: CliRuleSpecs
  /** Claude Code mod folders to load last, in order (`findModFolders`). */
  readonly mods?: readonly ModSpec[]
  /** false: do not create $TACK_HOME (`tack doctor` checks it itself and reports it as a problem). */
  readonly makeHome?: boolean
}

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
  try {
    await loadPlugins(ctx, opts)
  } catch (error) {
    try {
      await dispose(ctx)
    } catch {
      // the boot's own error is the one worth reporting
    }
    throw error
  }
  return { ctx, close: () => dispose(ctx) }
}

async function loadPlugins(ctx: Context, opts: BootOptions): Promise<void> {
  const { sessionsPlugin } = await import('@tack/session')
  if (opts.warn) {
    const { printWarnings } = await import('./log-sink.ts')
    printWarnings(ctx, opts.warn, opts.verbose === true)
  }
  const cfg = (key: string) => {
    const v = opts.settings.plugins[key]
    return v === false ? undefined : (v ?? {})
  }
  const load = async (key: string, plugin: AnyPlugin, config: unknown) => {
    try {
      await ctx.plugin(plugin, config)
    } catch (error) {
      // The store's own errors already name the file and the fix (a damaged, read-only or full disk).
      if ((error as Error).name === 'SqliteStoreError') throw new CliError((error as Error).message)
      throw new CliError(`plugin "${key}" failed to load: ${(error as Error).message}`)
    }
  }
  // $TACK_HOME holds the session log, transcripts and scratch output: owner-only from its creation
  // (an existing folder keeps the mode its owner gave it). A home that cannot be made is one line, exit 2.
  if (opts.makeHome !== false) makeTackHome(opts.paths.home)

  let storeFile: string | undefined
  if (opts.noSession) {
    await load('sessions', sessionsPlugin, { store: 'memory' })
  } else {
    const store = await catalogEntry('store')!.load()
    await load('store', store.plugin, storeConfig(opts.settings, opts.paths))
    storeFile = await sessionStoreFile(opts.settings, opts.paths)
    await load('sessions', sessionsPlugin, { store: 'external' })
  }
  if (opts.storeOnly) return

  const tools = await catalogEntry('tools')!.load()
  await load('tools', tools.plugin, {
    ...(cfg('tools') ?? {}),
    ...(opts.settings.toolsMode ? { mode: opts.settings.toolsMode } : {}),
  })
  // Code Mode's runtime costs nothing until a program runs; in a non-native mode its WebAssembly is
  // compiled now, so the first run_code starts warm (docs/decisions/0080-code-runtime.md).
  const codeRuntimeConfig = cfg('codeRuntime')
  if (codeRuntimeConfig !== undefined) {
    const runtime = await catalogEntry('codeRuntime')!.load()
    await load('codeRuntime', runtime.plugin, codeRuntimeConfig)
    const mode = opts.settings.toolsMode ?? cfg('tools')?.mode ?? 'native'
    if (mode !== 'native') (ctx.get('codeRuntime') as { warm?(): void }).warm?.()
  }
  const agent = await catalogEntry('agent')!.load()
  await load('agent', agent.plugin, cfg('agent') ?? {})
  // The slash-command registry every host shares (TUI, `tack run "/name"`, ACP); plugins after it register.
  const { CommandsPlugin } = await import('@tack/commands')
  await load('commands', CommandsPlugin, {})
  const { builtinCommandsPlugin } = await import('./slash/plugin.ts')
  await load(
    'builtin-commands',
    builtinCommandsPlugin({
      home: opts.paths.home,
      permissionMode: opts.settings.permissionMode ?? 'ask',
      permissionsOff: opts.settings.plugins.permissions === false,
    }),
    undefined,
  )
  const llm = await import('@tack/llm')
  await load(
    'llm',
    llm.createLlmPlugin({ env: opts.env, cwd: opts.cwd, origins: opts.settings.llmOrigins }),
    {
      ...(cfg('llm') ?? {}),
      ...(opts.settings.baseUrl ? { baseUrl: opts.settings.baseUrl } : {}),
    },
  )
  // Order is listener order: the hook bridges sit upstream of the permission plugin, so a hook's
  // `allow` can answer the mode's `ask` (40-hooks B6) while a downstream deny still stands; dice comes
  // after the bridges so its skip of agent-dice's own hooks applies.
  const extras: Array<[string, Record<string, unknown>]> = [
    ['fs', {}],
    // The bash sandbox hides $TACK_HOME, and commands never see a variable an endpoint reads a key from.
    ['bash', { scratchRoot: opts.paths.scratch, env: opts.env, tackHome: opts.paths.home }],
    // The search key is looked up in the same environment as the providers' ($TACK_HOME/.env included).
    ['web', { env: opts.env }],
    // Their files go to tack's home unless the user's `dataDir` says otherwise (transcripts included);
    // workspace trust is pinned to tack's home below, whatever a config says. Recorded trust is not
    // handed over as `assumeTrusted`: the bridges read the store for each session's own folder, so a
    // session in another folder never runs under this one's trust (docs/decisions/0140-acp-trust-per-session.md).
    ['hooksClaude', { dataDir: opts.paths.home, assumeTrusted: trustedForThisRun(opts.trust) }],
    [
      'hooksCodex',
      { dataDir: opts.paths.home, projectDir: opts.cwd, assumeTrusted: trustedForThisRun(opts.trust) },
    ],
    ['permissions', { ...(opts.settings.permissionMode ? { mode: opts.settings.permissionMode } : {}) }],
    ['subagent', {}],
    ['instructions', { home: opts.paths.home }],
    ['compaction', {}],
    ['dice', { base: opts.paths.dice }],
  ]
  for (const [key, defaults] of extras) {
    const config = cfg(key)
    if (config === undefined) {
      if (key === 'permissions' && hasCliRules(opts.cliRules))
        throw new CliError(
          '--allow/--deny need the permissions plugin, which the config turns off (plugins.permissions: false)',
        )
      continue
    }
    const entry = await catalogEntry(key)!.load()
    let merged: Record<string, unknown> = { ...defaults, ...config }
    if (key === 'permissions' && hasCliRules(opts.cliRules))
      merged = withCliRules(merged, opts.cliRules, ctx.get('tools') as ToolRegistry | undefined)
    // The mode the layers settled on (load.ts: a later layer's `permissionMode` or
    // `plugins.permissions.mode`, flags last) beats an earlier layer's plugin field.
    if (key === 'permissions' && opts.settings.permissionMode) merged.mode = opts.settings.permissionMode
    // One trust store: the one `tack trust` writes and doctor reports (docs/decisions/0013-workspace-trust.md).
    if (key === 'hooksClaude' || key === 'hooksCodex') merged.tackHome = opts.paths.home
    if (key === 'bash')
      merged.envDeny = [
        ...ctx.llmProviders.keyVariables(),
        // the search key too, whatever its name (the scrub only catches names that look secret)
        String(cfg('web')?.searchApiKeyEnv ?? 'BRAVE_API_KEY'),
        // and every variable $TACK_HOME/.env defines: that file is hidden from bash, so its values are too
        ...Object.keys(readEnvFile(opts.paths.envFile)),
        ...((config.envDeny as string[]) ?? []),
      ]
    // The sandbox hides $TACK_HOME; a store moved out of it (plugins.store.dataDir / path) is hidden too.
    if (key === 'bash' && storeFile)
      merged.sandboxExtraDenyRead = [
        ...((config.sandboxExtraDenyRead as string[]) ?? []),
        ...sqliteFiles(storeFile),
      ]
    await load(key, entry.plugin, merged)
  }
  for (const ref of opts.userPlugins ?? []) {
    const loaded = await importUserPlugin(ref)
    try {
      await ctx.plugin(loaded.plugin, loaded.config)
    } catch (error) {
      throw new CliError(`plugin ${loaded.file} failed to load: ${(error as Error).message.split('\n')[0]}`)
    }
  }
  // Mods load last, after the hook bridges and the user's plugins (docs/architecture.md): their
  // tools/call, tools/pre-execute and prompt-submit listeners are registered first (outermost), so the
  // order here decides only emit and serial seams. Skipped without mods: nothing to pay for.
  const modsConfig = cfg('mods')
  if (modsConfig !== undefined && (opts.mods?.length ?? 0) > 0) {
    const entry = await catalogEntry('mods')!.load()
    await load('mods', entry.plugin, { dataDir: opts.paths.home, ...modsConfig, mods: opts.mods })
  }
  if (opts.env.TACK_DEV === '1') {
    const { installRequestInvariant, installStructureInvariant } = await import('@tack/agent/invariants')
    installStructureInvariant(ctx)
    installRequestInvariant(ctx)
  }
  const { addCoreSystemPrompt } = await import('./system-prompt.ts')
  addCoreSystemPrompt(ctx, opts.cwd)
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
