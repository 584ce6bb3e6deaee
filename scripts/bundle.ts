// The bundle the `tack` command runs (docs/decisions/0326-one-bundle-per-entry.md): esbuild turns the
// ~800 modules a `tack run` loads (each resolved, read and compiled on its own) into a few dozen files in
// `apps/tack/build/bundle/`, with code splitting so every lazy `import()` of the sources stays lazy.
// Run by scripts/build.ts after the per-file build, which stays: worker threads, the products' own
// commands and the packed workspaces load it, and it is the launcher's fallback.
//
// Entry points: `main` (the command), and one per module a workspace package exports (`@tack/kernel`,
// `@tack/tools/testing`, `tack`'s own — and so a library entry, when the `tack` package exports one),
// so a plugin of your own that imports them gets the bundle's instances (built-workspace-imports.ts);
// the entry files only re-export from the shared chunks.
//
// What a bundle would otherwise break, and how it is kept:
// - A module's `import.meta.url` is rewritten to the URL of its twin in the per-file build
//   (`packages/mods/build/plugin.js`), relative to the bundle's folder, so files found next to a module
//   (`../package.json`, worker files, the mod shim, agent-dice's data) resolve as before — in a checkout
//   and in a packed install alike.
// - A CommonJS package reached by a dynamic `import('yaml')` gets its named exports, as Node gives them
//   (esbuild's split output would give only `default`); a package installed twice at one version is
//   bundled once.
// - `require` of a Node built-in inside a bundled CommonJS package works through a lazy `createRequire`.
// - Class and function names are kept (`keepNames`): errors are told apart by name.
// - Packages that load native or optional code at run time stay outside (EXTERNAL).
import { readdirSync, readFileSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, relative } from 'node:path'
import { BUNDLE_DIR, bundleEntryFile } from '../apps/tack/src/bundle-layout.ts'
import { workspaceGroups } from './lib/workspace-groups.ts'

type Esbuild = typeof import('esbuild')

/** Loaded at run time by Node itself: native addons, optional drivers, a wasm-backed stripper. */
const EXTERNAL = ['pg', 'pg-boss', 'pg-native', 'amaro', '@lydell/node-pty', 'koffi']

/** Marks the plugin's own resolve call, so it does not answer itself. */
const SELF = Symbol('tack-packages')

const SOURCE = /^(packages|products|apps)\/([^/]+)\/src\/(.+)\.ts$/

/**
 * Every chunk gets a `require` for the bundled CommonJS packages' `require('buffer')` and the like,
 * made on first use (a `createRequire` per chunk at load would cost every start for a handful of calls).
 */
const BANNER =
  "import { createRequire as __tackCreateRequire } from 'node:module'; let __tackRequire; const require = (id) => (__tackRequire ??= __tackCreateRequire(import.meta.url))(id);"

export interface BundleOutcome {
  /** The command's entry, relative to `apps/tack/build/`. */
  readonly main: string
  readonly files: number
}

/** The entry points: the command and every module a workspace package exports. */
export function bundleEntries(root: string): Record<string, string> {
  const out: Record<string, string> = { main: join(root, 'apps', 'tack', 'src', 'main.ts') }
  for (const group of workspaceGroups(root)) {
    for (const name of readdirSync(join(root, group))) {
      let pkg: { exports?: Record<string, unknown> }
      try {
        pkg = JSON.parse(readFileSync(join(root, group, name, 'package.json'), 'utf8'))
      } catch {
        continue
      }
      for (const value of Object.values(pkg.exports ?? {})) {
        if (typeof value !== 'string' || !value.startsWith('./src/') || !value.endsWith('.ts')) continue
        const file = bundleEntryFile(group, name, value.slice('./src/'.length, -'.ts'.length))
        out[file.slice(0, -'.mjs'.length)] = join(root, group, name, value)
      }
    }
  }
  return out
}

/**
 * Writes `apps/tack/build/bundle/`. Undefined when esbuild is not installed (an install without dev
 * dependencies): the launcher then runs the per-file build, as before bundling.
 */
export async function bundle(root: string): Promise<BundleOutcome | undefined> {
  let esbuild: Esbuild
  try {
    esbuild = await import('esbuild')
  } catch {
    return undefined
  }
  const outdir = join(root, 'apps', 'tack', 'build', BUNDLE_DIR)
  rmSync(outdir, { recursive: true, force: true })
  try {
    const result = await esbuild.build({
      entryPoints: bundleEntries(root),
      outdir,
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node22.16',
      keepNames: true,
      external: EXTERNAL,
      chunkNames: 'chunk-[hash]',
      // `.mjs`: Node knows the format from the name, instead of looking up the nearest package.json for
      // each of the few dozen files a start loads (0326).
      outExtension: { '.js': '.mjs' },
      banner: { js: BANNER },
      metafile: true,
      logLevel: 'silent',
      plugins: [moduleUrls(root, outdir), packages()],
    })
    const files = Object.keys(result.metafile.outputs).filter((f) => f.endsWith('.mjs')).length
    return { main: `${BUNDLE_DIR}/main.mjs`, files }
  } catch (error) {
    rmSync(outdir, { recursive: true, force: true }) // never half a bundle
    throw error
  }
}

/** Each workspace source's `import.meta.url` becomes its per-file twin's URL; `bundled.ts` says true. */
function moduleUrls(root: string, outdir: string): import('esbuild').Plugin {
  return {
    name: 'tack-module-urls',
    setup(build) {
      build.onLoad({ filter: /\/(packages|products|apps)\/[^/]+\/src\/.+\.ts$/ }, (args) => {
        const source = SOURCE.exec(relative(root, args.path).replaceAll('\\', '/'))
        if (!source) return undefined
        const [, group, pkg, path] = source
        if (group === 'apps' && pkg === 'tack' && path === 'bundled')
          return { contents: 'export const BUNDLED = true\n', loader: 'ts' }
        const twin = relative(outdir, join(root, group, pkg, 'build', `${path}.js`)).replaceAll('\\', '/')
        const text = readFileSync(args.path, 'utf8').replaceAll(
          'import.meta.url',
          `new URL(${JSON.stringify(twin)}, import.meta.url).href`,
        )
        return { contents: text, loader: 'ts' }
      })
    },
  }
}

/**
 * How bare specifiers resolve. Two things differ from esbuild's own resolution:
 * - One copy per package version: npm installs a workspace's dependency inside that workspace when it
 *   cannot be hoisted (`packages/skills/node_modules/yaml` beside `apps/tack/node_modules/yaml`, both
 *   2.9.0); the bundle keeps the first copy it meets, so the same code is not loaded and run twice.
 * - `await import('yaml')` of a CommonJS package: Node gives its named exports (`parse`), esbuild's split
 *   output only `default`. Such an import gets a small ES module re-exporting each of its names, read by
 *   loading the package here once.
 */
function packages(): import('esbuild').Plugin {
  const canonical = new Map<string, string>()
  return {
    name: 'tack-packages',
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, async (args) => {
        if (args.path.startsWith('node:') || args.pluginData === SELF) return undefined
        const resolved = await build.resolve(args.path, {
          kind: args.kind,
          resolveDir: args.resolveDir,
          importer: args.importer,
          pluginData: SELF,
        })
        if (resolved.errors.length > 0 || resolved.external) return undefined
        const path = oneCopy(resolved.path, canonical)
        if (args.kind === 'dynamic-import' && isCommonJs(path))
          return { path, namespace: 'tack-commonjs-namespace' }
        return path === resolved.path ? undefined : { path, sideEffects: resolved.sideEffects }
      })
      build.onLoad({ filter: /.*/, namespace: 'tack-commonjs-namespace' }, (args) => {
        const names = Object.keys(createRequire(args.path)(args.path) as object).filter(
          (key) => key !== 'default' && /^[A-Za-z_$][\w$]*$/.test(key),
        )
        return {
          contents: `import m from ${JSON.stringify(args.path)}\nexport default m\nexport const { ${names.join(', ')} } = m\n`,
          resolveDir: dirname(args.path),
          loader: 'js',
        }
      })
    },
  }
}

/** `file` inside the first-met folder of its package's name and version (`canonical` remembers them). */
function oneCopy(file: string, canonical: Map<string, string>): string {
  const match = /^(.*\/node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(file)
  if (!match) return file
  const dir = match[1]
  let version: string
  try {
    version = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version
  } catch {
    return file
  }
  const key = `${dir.slice(dir.lastIndexOf('/node_modules/') + '/node_modules/'.length)}@${version}`
  const first = canonical.get(key)
  if (first === undefined) canonical.set(key, dir)
  return first === undefined ? file : first + file.slice(dir.length)
}

/** A `.cjs` file, or a `.js` file whose nearest package.json does not say `"type": "module"`. */
function isCommonJs(file: string): boolean {
  if (file.endsWith('.cjs')) return true
  if (!file.endsWith('.js')) return false
  for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir)) {
    let pkg: { type?: string }
    try {
      pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))
    } catch {
      continue
    }
    return pkg.type !== 'module'
  }
  return true
}
