// Loading a mod (65-mod-host.md requirements 1–5): read the folder, scan the source, check the
// options, then import an instance and run `register(on, options)`. At boot one probe instance
// validates the mod and is discarded; each session then gets its own instance. Import and `register`
// together get `hookBudgetMs`: a top-level await or a `register` that never settles turns the mod off
// (warned) instead of holding up boot or a session's first event for ever.
import { BudgetClock } from './budget.ts'
import { ModsConfig } from './config.ts'
import { importInstance } from './loader.ts'
import { ModLoadError } from './errors.ts'
import { readModFolder, type ModManifest } from './manifest.ts'
import { resolveOptions } from './options.ts'
import { collectRegistrations, type HookEntry } from './registration.ts'
import { scanMod, type ScanResult } from './scan.ts'

export interface LoadedMod {
  readonly manifest: ModManifest
  readonly options: Readonly<Record<string, unknown>>
  readonly scan: ScanResult
  /** Events the probe instance registered hooks for. */
  readonly events: string[]
}

let instanceCounter = 0

/** Imports a fresh instance and runs its `register` within `budgetMs`; returns its hooks per event. */
export async function registerInstance(
  manifest: ModManifest,
  options: Readonly<Record<string, unknown>>,
  label: string,
  budgetMs: number,
): Promise<Map<string, HookEntry[]>> {
  // A ref'd timer (BudgetClock's): a load awaiting what never settles leaves nothing else in the event
  // loop at boot, and Node would end the run (exit 13) instead of this bound turning the mod off.
  const clock = new BudgetClock(budgetMs, false)
  try {
    return await Promise.race([importAndRegister(manifest, options, label), clock.expired])
  } catch (error) {
    if (!clock.controller.signal.aborted) throw error
    throw new ModLoadError(
      manifest.name,
      `loading did not settle within plugins.mods.hookBudgetMs (${budgetMs} ms): its top-level code or register() awaits what never settles`,
    )
  } finally {
    clock.stop()
  }
}

async function importAndRegister(
  manifest: ModManifest,
  options: Readonly<Record<string, unknown>>,
  label: string,
): Promise<Map<string, HookEntry[]>> {
  let module: Record<string, unknown>
  try {
    module = await importInstance(manifest.entry, `${label}-${++instanceCounter}`)
  } catch (error) {
    throw new ModLoadError(manifest.name, `import failed: ${(error as Error).message.split('\n')[0]}`)
  }
  const register = module.register
  if (typeof register !== 'function')
    throw new ModLoadError(manifest.name, 'the hooks module exports no register(on, options) function')
  const collector = collectRegistrations(manifest.name)
  try {
    await register(collector.on, options)
  } catch (error) {
    if (error instanceof ModLoadError) throw error
    throw new ModLoadError(manifest.name, `register() threw: ${(error as Error)?.message ?? String(error)}`)
  } finally {
    collector.close()
  }
  return collector.byEvent
}

/**
 * Reads, scans, checks and probes one mod folder within `budgetMs` (`hookBudgetMs`, its default where no
 * config is at hand); throws `ModLoadError` naming the mod and the cause.
 */
export async function loadMod(
  dir: string,
  given?: Readonly<Record<string, unknown>>,
  budgetMs: number = ModsConfig.parse({}).hookBudgetMs,
): Promise<LoadedMod> {
  const manifest = readModFolder(dir)
  const scan = scanMod(manifest.entry)
  if (scan.problems.length) throw new ModLoadError(manifest.name, scan.problems[0])
  const options = resolveOptions(manifest, given)
  const byEvent = await registerInstance(manifest, options, 'probe', budgetMs)
  return { manifest, options, scan, events: [...byEvent.keys()] }
}
