// `npm run pack`: a self-contained `tack` package for `npm install -g` (issue 10 item 7,
// docs/decisions/0025-install-and-build.md). The tarball holds the built JavaScript of every workspace
// package in the repository's own layout (the build's relative specifiers stay valid), no TypeScript
// sources (so the launcher always runs the build), and every runtime dependency bundled
// (`bundleDependencies`), so installing it needs no registry and no repository:
//
//   npm run pack                                   → dist/tack-<version>.tgz
//   npm install -g ./dist/tack-<version>.tgz         → `tack` on PATH, for Node 22.16+ or 24+
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { buildState } from '../apps/tack/bin/freshness.js'
import { build, MANIFEST, MANIFEST_VERSION, ROOT } from './build.ts'
import { workspaceGroups } from './lib/workspace-groups.ts'

const STAGE = join(ROOT, '.tmp', 'pack', 'tack')
export const DIST = join(ROOT, 'dist')

/**
 * The library's declarations (`import … from 'tack'`, docs/library.md): a file of declarations only,
 * shipped beside the built entry as its `.d.ts` (docs/decisions/0345-tack-as-a-library.md).
 */
const LIBRARY_TYPES = join('apps', 'tack', 'src', 'library', 'api.ts')

/** Folders of a workspace package that run (besides `build/`): CLIs and hook scripts, schemas, the web view's page. */
const RUNTIME_DIRS = ['bin', 'hooks', 'schema', 'mod', 'static']

interface LockEntry {
  readonly version?: string
  readonly dev?: boolean
  readonly link?: boolean
  readonly optional?: boolean
  /** A link's target: the workspace folder. */
  readonly resolved?: string
}

function readJson<T>(file: string): T {
  return JSON.parse(readFileSync(file, 'utf8')) as T
}

/** A workspace's package.json for the tarball: exports point at the build, no dev tooling. */
function packedManifest(pkg: Record<string, unknown>): Record<string, unknown> {
  const toBuild = (v: unknown) =>
    typeof v === 'string' && v.startsWith('./src/')
      ? v.replace(/^\.\/src\//, './build/').replace(/\.ts$/, '.js')
      : v
  const exports = Object.fromEntries(
    Object.entries((pkg.exports as Record<string, unknown> | undefined) ?? {}).map(([k, v]) => [
      k,
      toBuild(v),
    ]),
  )
  const { devDependencies: _dev, scripts: _scripts, files: _files, ...rest } = pkg
  return { ...rest, exports }
}

function stageWorkspaces(): void {
  for (const group of workspaceGroups(ROOT)) {
    for (const name of readdirSync(join(ROOT, group))) {
      const dir = join(ROOT, group, name)
      if (!existsSync(join(dir, 'package.json')) || !existsSync(join(dir, 'build'))) continue
      const out = join(STAGE, group, name)
      mkdirSync(out, { recursive: true })
      const pkg = readJson<Record<string, unknown>>(join(dir, 'package.json'))
      writeFileSync(join(out, 'package.json'), `${JSON.stringify(packedManifest(pkg), null, 2)}\n`)
      cpSync(join(dir, 'build'), join(out, 'build'), { recursive: true })
      for (const extra of [...RUNTIME_DIRS, 'README.md'])
        if (existsSync(join(dir, extra))) cpSync(join(dir, extra), join(out, extra), { recursive: true })
      // agent-dice's own bin and hooks load `dist/` (its published layout); its build has no workspace imports
      if (pkg.name === 'agent-dice') cpSync(join(dir, 'build'), join(out, 'dist'), { recursive: true })
    }
  }
  const entry = libraryEntry()
  cpSync(join(ROOT, LIBRARY_TYPES), join(STAGE, entry.replace(/\.js$/, '.d.ts')))
  // Sources are not shipped, so the launcher never weighs build against sources; the manifest says so,
  // and names the bundle the launcher runs (docs/decisions/0326-one-bundle-per-entry.md).
  const { bundle } = readJson<{ bundle?: string }>(MANIFEST)
  writeFileSync(
    join(STAGE, 'apps', 'tack', 'build', '.manifest.json'),
    JSON.stringify({ version: MANIFEST_VERSION, packed: true, files: [], ...(bundle ? { bundle } : {}) }),
  )
}

/** The built library entry in the tarball: apps/tack's `exports["."]`, moved to its build. */
function libraryEntry(): string {
  const pkg = readJson<{ exports: Record<string, string> }>(join(ROOT, 'apps', 'tack', 'package.json'))
  const built = packedManifest({ exports: { '.': pkg.exports['.'] } }).exports as Record<string, string>
  return `./apps/tack/${built['.'].replace(/^\.\//, '')}`
}

/**
 * Optional dependencies tack never loads where it runs: pi-tui's `koffi` (28 MB of FFI binaries) serves
 * only its Windows console input, and tack runs on Linux and macOS.
 */
const NOT_SHIPPED: ReadonlySet<string> = new Set(['node_modules/koffi'])

/**
 * Every runtime (non-dev) dependency in the lockfile, copied flat under the stage's node_modules:
 * a workspace's nested copy (`packages/tool-fs/node_modules/diff`) is hoisted, because the packed
 * workspaces all resolve from the package root. Two different versions of one name would be a conflict.
 */
function stageDependencies(): Record<string, string> {
  const lock = readJson<{ packages: Record<string, LockEntry> }>(join(ROOT, 'package-lock.json'))
  const top: Record<string, string> = {}
  for (const [key, entry] of Object.entries(lock.packages)) {
    if (entry.link && entry.resolved && key.startsWith('node_modules/')) {
      const plain = stagePlainWorkspace(key.slice('node_modules/'.length), join(ROOT, entry.resolved))
      if (plain) top[plain.name] = plain.version
      continue
    }
    if (!key || entry.dev || entry.link || !key.includes('node_modules/')) continue
    if (NOT_SHIPPED.has(key)) continue
    if (!existsSync(join(ROOT, key))) {
      if (entry.optional) continue // an optional package for another platform
      throw new Error(`${key} is in package-lock.json but not installed: run npm install`)
    }
    const inWorkspace = !key.startsWith('node_modules/')
    const target = inWorkspace ? key.slice(key.indexOf('node_modules/')) : key
    const name = target.slice('node_modules/'.length)
    if (inWorkspace && name.includes('node_modules/')) throw new Error(`cannot hoist ${key}`)
    if (existsSync(join(STAGE, target))) {
      const staged = readJson<{ version: string }>(join(STAGE, target, 'package.json')).version
      if (staged !== entry.version)
        throw new Error(`two versions of ${name} (${staged}, ${entry.version}) cannot share one node_modules`)
      continue
    }
    cpSync(join(ROOT, key), join(STAGE, target), { recursive: true, dereference: true })
    if (!name.includes('node_modules/') && entry.version) top[name] = entry.version
  }
  return top
}

/**
 * A workspace package written in plain JavaScript (no `src/`, so the build has nothing to make of it and
 * its importers keep the bare specifier: `tack-home`, which the products bundle too) is shipped the way npm
 * would install it: its `files` under the stage's node_modules, as a bundled dependency.
 */
function stagePlainWorkspace(name: string, dir: string): { name: string; version: string } | undefined {
  if (existsSync(join(dir, 'src')) || !existsSync(join(dir, 'package.json'))) return undefined
  const pkg = readJson<{ version: string; files?: string[] }>(join(dir, 'package.json'))
  const out = join(STAGE, 'node_modules', name)
  for (const entry of ['package.json', ...(pkg.files ?? [])])
    cpSync(join(dir, entry), join(out, entry), { recursive: true })
  return { name, version: pkg.version }
}

/**
 * The products' own commands (`agent-dice`, `cc-dice`, `agent-state`), from each product's `bin`, so a
 * global install of tack puts them on PATH as their READMEs say, running the copies the tarball ships.
 */
export function productBins(): Record<string, string> {
  const bins: Record<string, string> = {}
  for (const name of readdirSync(join(ROOT, 'products')).sort()) {
    const file = join(ROOT, 'products', name, 'package.json')
    if (!existsSync(file)) continue
    const { bin } = readJson<{ bin?: Record<string, string> }>(file)
    for (const [command, target] of Object.entries(bin ?? {}))
      bins[command] = join('products', name, target.replace(/^\.\//, ''))
  }
  return bins
}

/** Packs the current build (rebuilt first unless it matches the sources); returns the tarball's path. */
export async function pack(): Promise<string> {
  if (buildState(new URL(`file://${ROOT}/`)).use !== 'build') await build()
  rmSync(join(ROOT, '.tmp', 'pack'), { recursive: true, force: true })
  mkdirSync(STAGE, { recursive: true })
  stageWorkspaces()
  const dependencies = stageDependencies()
  const app = readJson<{ version: string; description: string }>(join(ROOT, 'apps', 'tack', 'package.json'))
  const manifest = {
    name: 'tack',
    version: app.version,
    description: app.description,
    type: 'module',
    license: 'MIT',
    bin: { tack: 'apps/tack/bin/tack.js', ...productBins() },
    // `import … from 'tack'`: the library (docs/library.md); the commands above run by path.
    exports: {
      '.': { types: libraryEntry().replace(/\.js$/, '.d.ts'), default: libraryEntry() },
      './package.json': './package.json',
    },
    engines: { node: '^22.16.0 || >=24' },
    dependencies,
    bundleDependencies: Object.keys(dependencies).sort(),
  }
  writeFileSync(join(STAGE, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`)
  mkdirSync(DIST, { recursive: true })
  const r = spawnSync('npm', ['pack', '--json', '--pack-destination', DIST], {
    cwd: STAGE,
    encoding: 'utf8',
    env: { ...process.env, npm_config_ignore_scripts: 'true' },
    // `--json` lists every file of every bundled dependency: megabytes with the MCP SDK's tree.
    maxBuffer: 512 * 1024 * 1024,
  })
  if (r.error) throw new Error(`npm pack failed: ${r.error.message}`)
  if (r.status !== 0) throw new Error(`npm pack failed: ${r.stderr || r.stdout.slice(0, 2000)}`)
  const [packed] = JSON.parse(r.stdout) as Array<{ filename: string }>
  rmSync(join(ROOT, '.tmp', 'pack'), { recursive: true, force: true })
  return join(DIST, packed.filename)
}

/** The first `node` on PATH outside this repository (the one an installed `tack` will run on), and its version. */
export function userNode(path = process.env.PATH ?? ''): { file: string; version: string } | undefined {
  for (const dir of path.split(':')) {
    if (!dir || dir.startsWith(ROOT)) continue
    const file = join(dir, 'node')
    if (!existsSync(file)) continue
    const r = spawnSync(file, ['-p', 'process.versions.node'], { encoding: 'utf8' })
    if (r.status === 0) return { file, version: r.stdout.trim() }
  }
  return undefined
}

export function nodeIsRecentEnough(version: string): boolean {
  const [major, minor] = version.split('.').map(Number)
  return major >= 24 || (major === 22 && minor >= 16)
}

/**
 * Why `install:global` must not install: the `node` an installed `tack` would run on is missing or older
 * than tack needs, so the `tack` put on PATH could not start (its launcher refuses). Undefined when fine.
 */
export function installRefusal(node: { file: string; version: string } | undefined): string | undefined {
  if (node && nodeIsRecentEnough(node.version)) return undefined
  const found = node ? `Node ${node.version} (${node.file})` : 'no `node` outside this repository'
  return [
    `install:global: nothing installed. An installed tack runs on the first \`node\` on your PATH, and that is ${found}; tack needs Node 22.16+ or 24+.`,
    'Get a newer one and put it first on PATH, then run npm run install:global again:',
    '  nvm install 24            (https://github.com/nvm-sh/nvm)',
    '  or your package manager (e.g. NodeSource for apt), or: npm install -g node@24',
    `Or run tack from this repository without installing: npx tack …`,
    '',
  ].join('\n')
}

if (import.meta.main) {
  // Checked before packing: a refused install should cost nothing and change nothing.
  const refusal = process.argv.includes('--install') ? installRefusal(userNode()) : undefined
  if (refusal) {
    process.stderr.write(refusal)
    process.exit(1)
  }
  const started = performance.now()
  const file = await pack()
  process.stdout.write(`packed ${file} in ${Math.round(performance.now() - started)} ms\n`)
  if (!process.argv.includes('--install')) {
    process.stdout.write(`install it with: npm install -g ${file}\n`)
  } else {
    const r = spawnSync('npm', ['install', '-g', '--offline', '--no-audit', '--no-fund', file], {
      stdio: 'inherit',
    })
    if (r.status !== 0) process.exit(r.status ?? 1)
    const node = userNode()
    process.stdout.write(
      `\ntack is installed; it runs on Node ${node?.version} (${node?.file}). Try: tack --version\n`,
    )
  }
}
