// Builds a JavaScript copy of every workspace package for the `tack` command, so running tack does not
// pay for type stripping (measured by bench/overhead: about 1 MB of RSS and some CPU per stripped module).
// Development and tests need no build: packages export `./src/*.ts`, which Node strips at load.
//
// Each `<package>/src/**/*.ts` becomes `<package>/build/**/*.js` (same depth as src, so paths relative to
// a module — `../package.json` — still hold), with types stripped by Node's own stripper (which keeps
// line and column positions), relative `.ts` specifiers renamed to `.js`, and specifiers of workspace
// packages (`@tack/session`, `agent-dice/tack`, …) rewritten to the built file their `exports` name, so
// a built module never loads a `.ts` one. `apps/tack/build/.manifest.json` records every source file's
// size, mtime and SHA-256: the launcher (apps/tack/bin/freshness.js) uses the build while every file
// still has that content — size and mtime are the cheap check, the hash settles a moved mtime — else
// the sources.
//
// Then scripts/bundle.ts bundles the `tack` command from the sources into `apps/tack/build/bundle/`,
// which the launcher runs while the build is fresh; the manifest's `bundle` names its entry (absent when
// esbuild is not installed: the launcher then runs the per-file build's `main.js`).
//
//   node scripts/build.ts            (run by `npm install` through `prepare`, and by `npm test`)
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createHash } from 'node:crypto'
import { stripTypeScriptTypes } from 'node:module'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { writeMod } from '../products/agent-state/scripts/build-mod.ts'
import { type BundleOutcome, bundle } from './bundle.ts'
import { workspaceGroups } from './lib/workspace-groups.ts'

export const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)))
export const MANIFEST = join(ROOT, 'apps', 'tack', 'build', '.manifest.json')
/** The format apps/tack/bin/freshness.js reads (its MANIFEST_VERSION). */
export const MANIFEST_VERSION = 2

interface Workspace {
  readonly name: string
  readonly dir: string
  readonly exports: Readonly<Record<string, string>>
}

function workspaces(): Workspace[] {
  const out: Workspace[] = []
  for (const group of workspaceGroups(ROOT)) {
    for (const entry of readdirSync(join(ROOT, group), { withFileTypes: true })) {
      if (!entry.isDirectory()) continue
      const dir = join(ROOT, group, entry.name)
      let pkg: { name?: string; exports?: Record<string, unknown> }
      try {
        pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))
      } catch {
        continue
      }
      if (!pkg.name) continue
      const exports: Record<string, string> = {}
      for (const [key, value] of Object.entries(pkg.exports ?? {})) {
        if (typeof value === 'string' && value.startsWith('./src/') && value.endsWith('.ts'))
          exports[key] = value
      }
      out.push({ name: pkg.name, dir, exports })
    }
  }
  return out
}

function* sources(dir: string): Generator<string> {
  let entries: import('node:fs').Dirent[]
  try {
    entries = readdirSync(dir, { withFileTypes: true })
  } catch {
    return
  }
  for (const entry of entries) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) yield* sources(path)
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) yield path
  }
}

const builtPath = (ws: Workspace, srcFile: string) =>
  join(ws.dir, 'build', relative(join(ws.dir, 'src'), srcFile)).replace(/\.ts$/, '.js')

// `from '…'`, `import '…'`, `import('…')`, `export … from '…'` with a single- or double-quoted literal.
const SPECIFIER = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])([^'"\n]+)\2/g

export async function build(): Promise<{ files: number; bundle: BundleOutcome | undefined }> {
  process.removeAllListeners('warning') // the stripper's "experimental" warning is noise here
  const all = workspaces()
  const byName = new Map(all.map((w) => [w.name, w]))
  const manifest: Array<[string, number, number, string]> = []
  let files = 0
  for (const ws of all) {
    rmSync(join(ws.dir, 'build'), { recursive: true, force: true })
    for (const file of sources(join(ws.dir, 'src'))) {
      const out = builtPath(ws, file)
      const source = readFileSync(file)
      const code = stripTypeScriptTypes(source.toString('utf8'), { mode: 'strip' })
      const rewritten = code.replace(SPECIFIER, (match, head: string, quote: string, spec: string) => {
        if (spec.startsWith('.'))
          return spec.endsWith('.ts') ? `${head}${quote}${spec.slice(0, -3)}.js${quote}` : match
        const target = workspaceTarget(spec, byName)
        if (!target) return match
        let rel = relative(dirname(out), target)
        if (!rel.startsWith('.')) rel = `./${rel}`
        return `${head}${quote}${rel}${quote}`
      })
      mkdirSync(dirname(out), { recursive: true })
      const temp = `${out}.${process.pid}.tmp`
      writeFileSync(temp, rewritten)
      renameSync(temp, out)
      const st = statSync(file)
      const sha256 = createHash('sha256').update(source).digest('hex')
      manifest.push([relative(ROOT, file), st.size, Math.trunc(st.mtimeMs), sha256])
      files++
    }
  }
  // The agent-state mod folder's modules: Claude Code loads them as JavaScript, so they are built here
  // (not committed: a committed copy of src/mod would be every line written twice).
  writeMod()
  const bundled = await bundle(ROOT)
  mkdirSync(dirname(MANIFEST), { recursive: true })
  writeFileSync(
    MANIFEST,
    JSON.stringify({
      version: MANIFEST_VERSION,
      files: manifest,
      ...(bundled ? { bundle: bundled.main } : {}),
    }),
  )
  return { files, bundle: bundled }
}

/** The built file a workspace specifier (`@tack/x`, `@tack/x/sub`, `agent-dice/tack`) resolves to. */
function workspaceTarget(spec: string, byName: ReadonlyMap<string, Workspace>): string | undefined {
  const parts = spec.split('/')
  const name = spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]
  const ws = byName.get(name)
  if (!ws) return undefined
  const sub = spec.slice(name.length)
  const entry = ws.exports[sub ? `.${sub}` : '.']
  if (!entry) return undefined
  return join(ws.dir, 'build', entry.slice('./src/'.length)).replace(/\.ts$/, '.js')
}

if (import.meta.main) {
  const started = performance.now()
  const { files, bundle: bundled } = await build()
  const what = bundled
    ? `, bundled the tack command into ${bundled.files} files`
    : ' (esbuild is not installed: tack runs this per-file build, unbundled)'
  process.stdout.write(`built ${files} modules${what} in ${Math.round(performance.now() - started)} ms\n`)
}
