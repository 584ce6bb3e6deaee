// `tack mods check DIR` (65-mod-host.md requirement 12): a mod folder's scan (events, calls) and
// every reason it would not load, without running a session. The register() probe runs only when
// the folder and the scan are sound, since importing runs the mod's top-level code.
import { ModLoadError } from './errors.ts'
import { loadMod } from './instance.ts'
import { readModFolder } from './manifest.ts'
import { scanMod, type ScanResult } from './scan.ts'

export interface ModCheck {
  readonly ok: boolean
  readonly name?: string
  readonly scan?: Pick<ScanResult, 'events' | 'calls' | 'env'>
  /** Every problem found, each naming the mod. */
  readonly problems: string[]
}

export async function checkModFolder(
  dir: string,
  options?: Readonly<Record<string, unknown>>,
): Promise<ModCheck> {
  let name: string | undefined
  let scan: ScanResult | undefined
  try {
    const manifest = readModFolder(dir)
    name = manifest.name
    scan = scanMod(manifest.entry)
    if (scan.problems.length)
      return {
        ok: false,
        name,
        scan: pick(scan),
        problems: scan.problems.map((p) => `mod "${manifest.name}": ${p}`),
      }
    await loadMod(dir, options)
    return { ok: true, name, scan: pick(scan), problems: [] }
  } catch (error) {
    const message =
      error instanceof ModLoadError ? error.message : `mod at ${dir}: ${(error as Error).message}`
    return {
      ok: false,
      ...(name ? { name } : {}),
      ...(scan ? { scan: pick(scan) } : {}),
      problems: [message],
    }
  }
}

const pick = (s: ScanResult) => ({ events: s.events, calls: s.calls, env: s.env })
