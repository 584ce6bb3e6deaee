// Loading a mod (65-mod-host.md requirements 1–5): read the folder, scan the source, check the
// options, then import an instance and run `register(on, options)`. At boot one probe instance
// validates the mod and is discarded; each session then gets its own instance.
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

/** Imports a fresh instance and runs its `register`; returns its hooks per event. */
export async function registerInstance(
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

/** Reads, scans, checks and probes one mod folder; throws `ModLoadError` naming the mod and the cause. */
export async function loadMod(dir: string, given?: Readonly<Record<string, unknown>>): Promise<LoadedMod> {
  const manifest = readModFolder(dir)
  const scan = scanMod(manifest.entry)
  if (scan.problems.length) throw new ModLoadError(manifest.name, scan.problems[0])
  const options = resolveOptions(manifest, given)
  const byEvent = await registerInstance(manifest, options, 'probe')
  return { manifest, options, scan, events: [...byEvent.keys()] }
}
