// Options from tack's config checked against the manifest's `userConfig` (65-mod-host.md
// requirement 3): defaults filled, a missing required key or a wrong type fails the load, and the
// result is deep-frozen before `register` sees it.
import { deepFreeze } from '@tack/kernel'
import { ModLoadError } from './errors.ts'
import type { ModManifest } from './manifest.ts'

export function resolveOptions(
  manifest: ModManifest,
  given: Readonly<Record<string, unknown>> = {},
): Readonly<Record<string, unknown>> {
  const out: Record<string, unknown> = { ...given }
  for (const [key, field] of Object.entries(manifest.userConfig)) {
    if (out[key] === undefined && field.default !== undefined) out[key] = field.default
    if (out[key] === undefined) {
      if (field.required) throw new ModLoadError(manifest.name, `option "${key}" is required (${field.type})`)
      continue
    }
    if (typeof out[key] !== field.type)
      throw new ModLoadError(
        manifest.name,
        `option "${key}" must be a ${field.type}, got ${JSON.stringify(out[key])}`,
      )
  }
  return deepFreeze(structuredClone(out))
}
