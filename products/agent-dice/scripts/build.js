// Builds `dist/` from `src/`: each `.ts` file has its types stripped (Node's own stripper, which
// keeps line and column positions) and its relative `.ts` imports renamed to `.js`. The published
// tarball runs this JavaScript, since Node does not strip types under node_modules, and the hook
// files prefer it in a checkout too, to keep TypeScript off their hot path (P6).
//
//   node scripts/build.js            build dist/
//   node scripts/build.js --pack     build, then point package.json exports at dist (npm prepack), and
//                                    put each bundled dependency in ./node_modules for npm pack to carry
//                                    (in the repository's workspace npm hoists it to the root)
//   node scripts/build.js --unpack   restore package.json, remove what --pack put in ./node_modules (postpack)
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { stripTypeScriptTypes } from 'node:module'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createRequire } from 'node:module'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const src = join(root, 'src')
const dist = join(root, 'dist')
const backup = join(root, '.pack-backup', 'package.json')
const placed = join(root, '.pack-backup', 'placed.json')

// The stripper is flagged experimental; its warning is noise in a build.
process.removeAllListeners('warning')

function* sources(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) yield* sources(path)
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) yield path
  }
}

const SPECIFIER = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])(\.{1,2}\/[^'"]+)\.ts\2/g

export function build() {
  for (const file of sources(src)) {
    const code = stripTypeScriptTypes(readFileSync(file, 'utf8'), { mode: 'strip' })
    const out = join(dist, relative(src, file)).replace(/\.ts$/, '.js')
    mkdirSync(dirname(out), { recursive: true })
    // Written beside the target and renamed, so test files building at once never see half a file.
    const temp = `${out}.${process.pid}.tmp`
    writeFileSync(
      temp,
      code.replace(SPECIFIER, (_m, head, quote, path) => `${head}${quote}${path}.js${quote}`),
    )
    renameSync(temp, out)
  }
}

function toDist(target) {
  return typeof target === 'string' ? target.replace(/^\.\/src\/(.*)\.ts$/, './dist/$1.js') : target
}

const mode = process.argv[2]
/** Copies each bundled dependency that is not in ./node_modules there; returns the folders it made. */
function placeBundled(manifest) {
  const made = []
  const require = createRequire(join(root, 'package.json'))
  for (const name of manifest.bundleDependencies ?? []) {
    const target = join(root, 'node_modules', name)
    if (existsSync(target)) continue
    cpSync(dirname(require.resolve(`${name}/package.json`)), target, { recursive: true, dereference: true })
    made.push(target)
  }
  return made
}

if (mode === '--unpack') {
  if (existsSync(placed)) {
    for (const dir of JSON.parse(readFileSync(placed, 'utf8'))) rmSync(dir, { recursive: true, force: true })
    const modules = join(root, 'node_modules')
    if (existsSync(modules) && readdirSync(modules).length === 0) rmSync(modules, { recursive: true })
  }
  if (existsSync(backup)) {
    copyFileSync(backup, join(root, 'package.json'))
    rmSync(join(root, '.pack-backup'), { recursive: true, force: true })
  }
} else {
  build()
  if (mode === '--pack') {
    const manifestPath = join(root, 'package.json')
    const text = readFileSync(manifestPath, 'utf8')
    mkdirSync(dirname(backup), { recursive: true })
    writeFileSync(backup, text)
    const manifest = JSON.parse(text)
    manifest.exports = Object.fromEntries(
      Object.entries(manifest.exports).map(([key, value]) => [key, toDist(value)]),
    )
    delete manifest.devDependencies
    writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`)
    writeFileSync(placed, JSON.stringify(placeBundled(manifest)))
  }
}
