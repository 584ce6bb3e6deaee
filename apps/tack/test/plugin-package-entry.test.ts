// docs/decisions/0014-user-plugins.md: a plugin named by its package name loads the file Node itself would
// import for it — `exports` with the import conditions in the package's own key order, else `main`.
import { describe, expect, test } from 'vitest'
import { packageEntry } from '../src/config/user-plugin-keys.ts'

describe('packageEntry', () => {
  test.each<[string, { exports?: unknown; main?: unknown }, string | undefined]>([
    ['a string export', { exports: './dist/index.js' }, './dist/index.js'],
    ['the "." subpath', { exports: { '.': './a.js', './sub': './b.js' } }, './a.js'],
    ['conditions without subpaths (sugar)', { exports: { import: './dist/index.js' } }, './dist/index.js'],
    [
      'nested conditions',
      { exports: { '.': { import: { types: './x.d.ts', default: './dist/index.js' } } } },
      './dist/index.js',
    ],
    ['node condition', { exports: { '.': { node: './node.js', default: './web.js' } } }, './node.js'],
    ['key order decides, as in Node', { exports: { default: './d.js', import: './i.js' } }, './d.js'],
    ['require-only is skipped', { exports: { require: './c.cjs', import: './m.js' } }, './m.js'],
    ['an array of targets', { exports: [{ worker: './w.js' }, './fallback.js'] }, './fallback.js'],
    ['main without exports', { main: 'lib/main.js' }, 'lib/main.js'],
    ['neither', {}, 'index.js'],
    ['exports with nothing for import', { exports: { '.': { require: './c.cjs' } } }, undefined],
  ])('%s', (_, pkg, entry) => {
    expect(packageEntry(pkg)).toBe(entry)
  })
})
