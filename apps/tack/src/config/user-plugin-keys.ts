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
