// Plugins of the user's own named under `plugins:` (issue 8 item 5, docs/decisions/0014-user-plugins.md):
// a path (`./my-plugin.ts`, `../x.js`, `/abs/p.mjs`, `~/p.ts`) or a package name. A path is made absolute
// against the folder of the config file that names it, before layers merge (layer-paths.ts), so the same
// key in two files means two files only when it should.
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { catalogEntry } from '../plugin-catalog.ts'

const PACKAGE_NAME = /^(@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/

export function isPathSpec(key: string): boolean {
  return key.startsWith('./') || key.startsWith('../') || key.startsWith('/') || key.startsWith('~/')
}

/** A key under `plugins:` that is not a built-in plugin: a path or a package name. */
export function isUserPluginKey(key: string): boolean {
  if (catalogEntry(key)) return false
  return isPathSpec(key) || PACKAGE_NAME.test(key)
}

/** The folder of package `name` in a `node_modules` from `fromDir` upwards, if installed. */
export function findPackageDir(name: string, fromDir: string): string | undefined {
  let dir = fromDir
  for (;;) {
    const root = join(dir, 'node_modules', name)
    if (existsSync(join(root, 'package.json'))) return root
    const up = dirname(dir)
    if (up === dir) return undefined
    dir = up
  }
}

/** The conditions Node matches when a plugin is imported (ESM, in Node). */
const IMPORT_CONDITIONS = new Set(['import', 'module-sync', 'node', 'default'])

/** The first target of an `exports` value that matches, in the object's own key order, as Node picks it. */
function exportTarget(value: unknown): string | undefined {
  if (typeof value === 'string') return value
  if (Array.isArray(value)) return value.map(exportTarget).find((t) => t !== undefined)
  if (typeof value !== 'object' || value === null) return undefined
  for (const [condition, target] of Object.entries(value)) {
    if (!IMPORT_CONDITIONS.has(condition)) continue
    const found = exportTarget(target)
    if (found !== undefined) return found
  }
  return undefined
}

/**
 * The file a package's root import loads, relative to the package folder: `exports["."]` (or `exports` itself
 * when it has no subpath keys, Node's shorthand), resolved with the import conditions; without `exports`,
 * `main`, else `index.js`. Undefined when `exports` has nothing for an import.
 */
export function packageEntry(pkg: {
  readonly exports?: unknown
  readonly main?: unknown
}): string | undefined {
  const { exports } = pkg
  if (exports === undefined || exports === null)
    return typeof pkg.main === 'string' && pkg.main !== '' ? pkg.main : 'index.js'
  const subpaths =
    typeof exports === 'object' &&
    !Array.isArray(exports) &&
    Object.keys(exports).some((k) => k.startsWith('.'))
  return exportTarget(subpaths ? (exports as Record<string, unknown>)['.'] : exports)
}
