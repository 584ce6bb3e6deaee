// Paths in a config file mean what they mean where the file is (docs/decisions/0130-config-relative-paths.md):
// when a layer is read, before layers merge, every relative path in it is made absolute against the
// folder of the file that wrote it — a plugin key (`./my-plugin.ts`, docs/decisions/0014-user-plugins.md)
// and every path-valued field of a built-in plugin (`mods.mods[].dir`, `hooksCodex.dataDir`, …, as
// untrusted-fields.ts marks them). So `~/.tack/config.yml` saying `mods/helper` names
// `~/.tack/mods/helper`, never a folder of whatever repository tack runs in. `~` and `~/…` are the user's
// home. Flags and environment variables are not layers read here: their paths keep the process cwd.
import { homedir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { type PathShape, pathShapeOf } from './untrusted-fields.ts'
import { isPathSpec } from './user-plugin-keys.ts'

/** `value` as an absolute path: `~` / `~/…` under `userHome`, a relative one against `baseDir`. */
export function absoluteFrom(baseDir: string, value: string, userHome: string): string {
  if (value === '~') return userHome
  if (value.startsWith('~/')) return join(userHome, value.slice(2))
  return resolve(baseDir, value)
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/** One field's value with its paths made absolute; a value of the wrong type is left for validation. */
function resolveShape(value: unknown, shape: PathShape, abs: (p: string) => string): unknown {
  const one = (v: unknown) => (typeof v === 'string' && v !== '' ? abs(v) : v)
  if (shape === 'path') return one(value)
  if (shape === 'program') return typeof value === 'string' && value.includes('/') ? abs(value) : value
  const keysOf = (item: unknown, keys: readonly string[]) => {
    if (!isObject(item)) return item
    const out = { ...item }
    for (const key of keys) if (key in out) out[key] = one(out[key])
    return out
  }
  if (typeof shape === 'object' && 'eachValue' in shape)
    return isObject(value)
      ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, keysOf(v, shape.eachValue)]))
      : value
  if (!Array.isArray(value)) return value
  if (shape === 'paths') return value.map(one)
  return value.map((item) => keysOf(item, shape.each))
}

/** A built-in plugin's config with each path-valued field made absolute against `baseDir`. */
export function resolvePathFields(
  plugin: string,
  config: Record<string, unknown>,
  baseDir: string,
  userHome: string = homedir(),
): Record<string, unknown> {
  const abs = (p: string) => absoluteFrom(baseDir, p, userHome)
  return Object.fromEntries(
    Object.entries(config).map(([field, value]) => {
      const shape = pathShapeOf(plugin, field)
      return [field, shape ? resolveShape(value, shape, abs) : value]
    }),
  )
}

/** A layer read from `file` with every relative path in `plugins:` (its own and each profile's) made absolute. */
export function normalizeLayerPaths(layer: unknown, file: string, userHome: string = homedir()): unknown {
  if (!isObject(layer)) return layer
  const baseDir = dirname(resolve(file))
  const out: Record<string, unknown> = { ...layer }
  if (isObject(out.plugins)) {
    out.plugins = Object.fromEntries(
      Object.entries(out.plugins).map(([key, v]) => {
        if (isPathSpec(key)) return [absoluteFrom(baseDir, key, userHome), v]
        return [key, isObject(v) ? resolvePathFields(key, v, baseDir, userHome) : v]
      }),
    )
  }
  if (isObject(out.profiles)) {
    out.profiles = Object.fromEntries(
      Object.entries(out.profiles).map(([name, p]) => [name, normalizeLayerPaths(p, file, userHome)]),
    )
  }
  return out
}
