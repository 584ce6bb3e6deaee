// Loads a module of this package by its path under `src/` without the extension: the built
// `dist/<name>.js` when present (a published tarball, or a checkout after `npm run build`), so the
// hot path pays no TypeScript stripping; otherwise the `src/<name>.ts` source itself (a checkout on
// a Node that strips types). Kept dependency-free: it runs on every hook invocation.
import { existsSync } from 'node:fs'

export function loadModule(name) {
  const built = new URL(`../dist/${name}.js`, import.meta.url)
  return import(existsSync(built) ? built.href : new URL(`../src/${name}.ts`, import.meta.url).href)
}
