// The page itself: hand-written HTML, CSS and JavaScript in the package's `static/` folder, read once and
// served as they are — no front-end build step. `static/` sits beside `src/` (and beside the packed
// `build/`), so the same relative URL finds it from sources and from the installed tarball.
import { readFileSync } from 'node:fs'

export interface StaticFile {
  readonly type: string
  readonly body: Buffer
}

const FILES: Readonly<Record<string, string>> = {
  '/': 'index.html',
  '/static/app.js': 'app.js',
  '/static/app.css': 'app.css',
}

const TYPES: Readonly<Record<string, string>> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
}

let cache: Map<string, StaticFile> | undefined

/** The file served at `path`, or undefined. */
export function staticFile(path: string): StaticFile | undefined {
  cache ??= load()
  return cache.get(path)
}

function load(): Map<string, StaticFile> {
  const out = new Map<string, StaticFile>()
  for (const [path, name] of Object.entries(FILES)) {
    const body = readFileSync(new URL(`../static/${name}`, import.meta.url))
    out.set(path, { type: TYPES[name.slice(name.lastIndexOf('.') + 1)] ?? 'application/octet-stream', body })
  }
  return out
}
