// Where the bundle of the `tack` command lives and how its entry files are named
// (docs/decisions/0326-one-bundle-per-entry.md). Shared by the bundler (scripts/bundle.ts), which writes
// them, and the resolve hook that sends a plugin's `@tack/*` imports to them (built-workspace-imports.ts).
// Every output sits in one flat folder, so a module's path back to its own package is the same from
// whichever chunk the bundler put it in.

/** The bundle's folder, relative to `apps/tack/build/`. */
export const BUNDLE_DIR = 'bundle'

/**
 * The entry file of a workspace module: `packages`, `kernel`, `index` → `ws.packages.kernel.index.mjs`;
 * `packages`, `llm`, `testing/index` → `ws.packages.llm.testing.index.mjs`. Characters a file URL keeps
 * as they are, so stack traces read plainly.
 */
export function bundleEntryFile(group: string, pkg: string, pathInSrc: string): string {
  return `ws.${group}.${pkg}.${pathInSrc.replaceAll('/', '.')}.mjs`
}
