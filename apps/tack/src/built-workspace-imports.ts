// In a checkout, the `tack` binary runs the built JavaScript (`<package>/build/…`), while the workspace
// packages' `exports` name their TypeScript sources (`<package>/src/…`) for development and tests. A plugin
// of your own that imports `@tack/kernel` or `@tack/tools` (docs/decisions/0014-user-plugins.md) would then
// get a second copy of those modules: its seams fired on a registry tack never made, its `ToolFailure` not
// the class the pipeline recognises. Before the first plugin of your own is imported, this resolve hook sends
// any workspace source file to the copy tack itself runs, so the plugin shares tack's modules: from the
// bundle (docs/decisions/0326-one-bundle-per-entry.md), the bundle's entry file for that exported module,
// which re-exports the very instances the command uses; from the per-file build, its built twin. Running from sources
// (`TACK_FROM_SOURCE=1`), or from a packed install (whose `exports` already name `build/`), it changes nothing.
// The folder groups are the root package.json's workspaces (scripts/lib/workspace-groups.ts reads them for
// the build); this hook runs in the `tack` process on every import, so it names them instead of reading.
import { existsSync } from 'node:fs'
import { registerHooks } from 'node:module'
import { fileURLToPath } from 'node:url'
import { BUNDLE_DIR, bundleEntryFile } from './bundle-layout.ts'
import { BUNDLED } from './bundled.ts'

let installed = false

/** Installs the hook once, when this module itself runs from `apps/tack/build/`. */
export function importWorkspaceFromBuild(): void {
  if (installed) return
  installed = true
  const root = /^(file:\/\/.+)\/apps\/tack\/build\//.exec(import.meta.url)?.[1]
  if (root === undefined) return
  const prefix = `${root}/`
  registerHooks({
    resolve(specifier, context, nextResolve) {
      const resolved = nextResolve(specifier, context)
      if (!resolved.url.startsWith(prefix)) return resolved
      const source = /^(packages|products|apps)\/([^/]+)\/src\/(.+)\.ts$/.exec(
        resolved.url.slice(prefix.length),
      )
      if (!source) return resolved
      const [, group, pkg, path] = source
      if (BUNDLED) {
        const entry = `${prefix}apps/tack/build/${BUNDLE_DIR}/${bundleEntryFile(group, pkg, path)}`
        if (existsSync(fileURLToPath(entry))) return { ...resolved, url: entry, format: 'module' }
      }
      const built = `${prefix}${group}/${pkg}/build/${path}.js`
      return existsSync(fileURLToPath(built)) ? { ...resolved, url: built, format: 'module' } : resolved
    },
  })
}
