// docs/architecture.md stays true: its dispatch-order lines are checked against a context booted by the
// CLI's own `boot` (apps/tack/src/boot.ts), with its loop in order and shuffled, and every seam that
// declares phases has its line; its code blocks are the example files that architecture-examples.test.ts runs.
import { readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { declaredSeamPhases, listenersOf, type SeamName } from '@tack/kernel'
import { describe, expect, test } from 'vitest'
import { bootLikeTackRun, PROBED, USER_PLUGIN } from './boot-like-tack-run.ts'
import { DOCS_WITH_SNIPPETS } from '../gen-doc-snippets.ts'
import { codeSpans, fillSnippets, snippetPaths } from '../lib/doc-references.ts'

const ROOT = resolve(import.meta.dirname, '..', '..')
const DOC = readFileSync(join(ROOT, 'docs', 'architecture.md'), 'utf8')
describe('docs/architecture.md', () => {
  test('the dispatch-order lines match a context booted like tack run, in catalog order and shuffled', async () => {
    const lines = [...DOC.matchAll(/^Listeners of `([^`]+)`, in dispatch order: (.+)$/gm)]
    for (const seed of [undefined, 1, 2]) {
      const booted = await bootLikeTackRun(seed)
      try {
        // every seam whose order is declared has its line, and only those
        expect(lines.map((m) => m[1]).sort(), `seed ${seed}`).toEqual([...declaredSeamPhases().keys()].sort())
        expect(Object.keys(PROBED).sort()).toEqual([...declaredSeamPhases().keys()].sort())
        for (const [, seam, order] of lines) {
          expect(order.endsWith('then your own plugins.'), seam).toBe(true)
          const actual = listenersOf(booted.ctx, seam as SeamName).map((l) => l.plugin)
          expect(actual, `${seam}, seed ${seed}`).toEqual([...codeSpans(order), USER_PLUGIN])
        }
      } finally {
        await booted.close()
      }
    }
  })

  test('every code block with a snippet marker is its file, and every example is shown and run', () => {
    for (const path of DOCS_WITH_SNIPPETS) {
      const text = readFileSync(join(ROOT, path), 'utf8')
      expect(
        fillSnippets(text, (file) => readFileSync(join(ROOT, file), 'utf8')),
        path,
      ).toBe(text)
    }
    const examples = readdirSync(join(ROOT, 'docs', 'examples')).map((f) => `docs/examples/${f}`)
    expect(snippetPaths(DOC).sort()).toEqual(examples.sort())
    const runner = readFileSync(join(ROOT, 'scripts', 'test', 'architecture-examples.test.ts'), 'utf8')
    for (const example of examples) expect(runner, example).toContain(`'../../${example}'`)
  })
})

describe('fillSnippets', () => {
  const read = (path: string) => (path === 'a.ts' ? 'export const a = 1\n' : 'b\n')

  test('a stale block is replaced by the file, a missing one is added, the rest is untouched', () => {
    const stale =
      'intro\n<!-- snippet: a.ts -->\n```ts\nexport const a = 0\n```\nmiddle\n<!-- snippet: b.ts -->\nend\n'
    expect(fillSnippets(stale, read)).toBe(
      'intro\n<!-- snippet: a.ts -->\n```ts\nexport const a = 1\n```\nmiddle\n<!-- snippet: b.ts -->\n```ts\nb\n```\nend\n',
    )
    const fresh = fillSnippets(stale, read)
    expect(fillSnippets(fresh, read)).toBe(fresh)
    expect(snippetPaths(fresh)).toEqual(['a.ts', 'b.ts'])
  })
})
