// Which code `tack` runs: the built JavaScript or the TypeScript sources (docs/decisions/0025-install-and-build.md).
// Plain JavaScript with no imports beyond node:fs and node:url, so the launcher pays nothing for it on `--version`
// and little on every other start.
//
// - A packed install (`npm run pack`) ships no sources: it always runs its build.
// - In a checkout, the build (`scripts/build.ts`, run by `npm install` and `npm test`) runs while every
//   source file it was built from still has the content it had. The cheap check is each file's size
//   and mtime; a file whose mtime moved but whose size did not (a checkout, `touch`, a test restoring
//   an mtime through a `Date`, which loses sub-millisecond precision) is hashed and compared with the
//   manifest's SHA-256, so only a real edit sends tack to the slower sources.
// - The build's entry is the bundle the manifest names (`bundle/main.mjs`, docs/decisions/0326-one-bundle-per-entry.md),
//   else the per-file build's `main.js` (a build made without esbuild).
import { readFileSync, statSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/** The manifest format `scripts/build.ts` writes; an older one means "rebuild". */
export const MANIFEST_VERSION = 2

/**
 * @param {URL} root the repository root (or the packed package's root), ending in `/`
 * @param {NodeJS.ProcessEnv} env
 */
export function buildState(root, env = process.env) {
  const hasSources = exists(new URL('apps/tack/src/main.ts', root))
  if (!hasSources) {
    const manifest = readManifest(root)
    return { use: 'build', main: entryOf(manifest), why: 'packed install (no sources)', rehashed: 0 }
  }
  if (env.TACK_FROM_SOURCE === '1') return { use: 'sources', why: 'TACK_FROM_SOURCE=1', rehashed: 0 }
  const manifest = readManifest(root)
  if (manifest === undefined) return { use: 'sources', why: 'no build yet', rehashed: 0 }
  if (manifest.version !== MANIFEST_VERSION || !Array.isArray(manifest.files))
    return { use: 'sources', why: 'the build is from an older tack', rehashed: 0 }
  let rehashed = 0
  // Plain paths, not a URL per file: parsing ~750 URLs cost about as much as the stats themselves.
  const base = fileURLToPath(root)
  for (const [file, size, mtime, sha256] of manifest.files) {
    const st = statSync(base + file, { throwIfNoEntry: false })
    if (st === undefined) return { use: 'sources', why: `${file} was removed`, rehashed }
    if (st.size !== size) return { use: 'sources', why: `${file} changed`, rehashed }
    if (Math.trunc(st.mtimeMs) === mtime) continue
    rehashed++
    if (hashOf(new URL(file, root)) !== sha256) return { use: 'sources', why: `${file} changed`, rehashed }
  }
  return {
    use: 'build',
    main: entryOf(manifest),
    why: `${manifest.files.length} source files match the build`,
    rehashed,
  }
}

function readManifest(root) {
  try {
    return JSON.parse(readFileSync(new URL('apps/tack/build/.manifest.json', root), 'utf8'))
  } catch {
    return undefined
  }
}

/** The command's entry in `apps/tack/build/`: the bundle when the build made one. */
function entryOf(manifest) {
  return typeof manifest?.bundle === 'string' ? manifest.bundle : 'main.js'
}

/** SHA-256 of a file, hex. node:crypto is loaded only when a file needs hashing. */
export function hashOf(url) {
  const { createHash } = process.getBuiltinModule('node:crypto')
  return createHash('sha256').update(readFileSync(url)).digest('hex')
}

function exists(url) {
  try {
    statSync(url)
    return true
  } catch {
    return false
  }
}
