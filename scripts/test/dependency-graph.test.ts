// The dependency picture in docs/architecture.md is generated from the real imports
// (scripts/gen-dependency-graph.ts): it equals a fresh computation over the repository, it follows an
// import added to a package, and a package cycle is refused.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { expect, test } from 'vitest'
import {
  BEGIN,
  collectPackages,
  DOC,
  directArrows,
  END,
  fillGraph,
  generate,
  layersOf,
  renderGraph,
} from '../gen-dependency-graph.ts'

const ROOT = resolve(import.meta.dirname, '..', '..')

function write(root: string, path: string, text: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true })
  writeFileSync(join(root, path), text)
}

/** A workspace of three packages in two groups: @x/app → @x/core, and a product that imports nothing. */
function fixture(): string {
  const root = mkdtempSync(join(tmpdir(), 'tack-deps-'))
  write(root, 'package.json', JSON.stringify({ workspaces: ['packages/*', 'products/*'] }))
  write(root, DOC, `# A\n\n${BEGIN}\nold\n${END}\n\nafter\n`)
  write(root, 'packages/core/package.json', '{"name":"@x/core"}')
  write(root, 'packages/core/src/index.ts', 'export const core = 1\n')
  write(root, 'packages/app/package.json', '{"name":"@x/app"}')
  write(
    root,
    'packages/app/src/main.ts',
    "import { core } from '@x/core'\n// import '@x/nothing' in a comment does not count\nexport const s = '@x/dice'\n",
  )
  write(root, 'products/dice/package.json', '{"name":"dice"}')
  write(root, 'products/dice/src/index.ts', "import { join } from 'node:path'\nexport const j = join\n")
  return root
}

test('the picture in docs/architecture.md is the one the imports give today', async () => {
  const [out] = await generate(ROOT)
  expect(out.path).toBe(DOC)
  expect(readFileSync(join(ROOT, DOC), 'utf8')).toBe(out.content)
  const packages = collectPackages(ROOT)
  expect(packages.map((p) => p.folder)).toContain('products/agent-state')
  expect(packages.find((p) => p.name === '@tack/kernel')?.imports).toContain('tack-home')
})

test('an import added to a package changes the picture: a new edge, a new layer', async () => {
  const root = fixture()
  const before = collectPackages(root)
  expect(before.map((p) => [p.name, p.imports])).toEqual([
    ['@x/app', ['@x/core']],
    ['@x/core', []],
    ['dice', []],
  ])
  expect(layersOf(before).get('dice')).toBe(0)
  const [first] = await generate(root)
  expect(first.content).toContain('| 0 | `dice` | `products/dice` | — |')
  expect(first.content).toMatch(/\n\nafter\n$/)

  // a dynamic import and a type-only one count like a static one
  write(root, 'products/dice/src/host.ts', "export const load = () => import('@x/app/sub')\n")
  write(
    root,
    'products/dice/src/types.ts',
    "import type { core } from '@x/core'\nexport type C = typeof core\n",
  )
  const after = collectPackages(root)
  expect(after.find((p) => p.name === 'dice')?.imports).toEqual(['@x/app', '@x/core'])
  expect(layersOf(after).get('dice')).toBe(2)
  const [second] = await generate(root)
  expect(second.content).not.toBe(first.content)
  expect(second.content).toContain('| 2 | `dice` | `products/dice` | `@x/app`, `@x/core` |')
  // dice → core is also reached through app, so the drawing leaves that arrow out
  expect(directArrows(after)).toEqual([
    ['@x/app', '@x/core'],
    ['dice', '@x/app'],
  ])
})

test('a package cycle is refused, naming it', () => {
  const root = fixture()
  write(root, 'packages/core/src/back.ts', "import '@x/app'\n")
  expect(() => renderGraph(collectPackages(root))).toThrow('a package cycle: @x/app → @x/core → @x/app')
})

test('the picture is written between its markers only, and a doc without them is an error', () => {
  expect(fillGraph(`a\n${BEGIN}\nold\n${END}\nz\n`, '\nnew\n')).toBe(`a\n${BEGIN}\nnew\n${END}\nz\n`)
  expect(() => fillGraph('no markers', 'x')).toThrow('needs the markers')
})
