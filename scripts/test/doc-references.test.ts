// Hand-written docs name only what exists: every repository path, relative link and `@tack/…` package in
// docs/architecture.md, docs/security.md and the README, and every test docs/security.md cites as proof
// (`path::test name`: the file holds a test of exactly that name, not skipped). The README's package
// table lists every package folder under the name in its package.json.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { describe, expect, test } from 'vitest'
import { checkDocReferences, codeSpans, testCitationsIn, testNamesIn } from '../lib/doc-references.ts'
import { workspaceGroups } from '../lib/workspace-groups.ts'

const ROOT = resolve(import.meta.dirname, '..', '..')
const CHECKED_DOCS = ['docs/architecture.md', 'docs/security.md', 'README.md']

describe('the repository’s hand-written docs', () => {
  test.each(CHECKED_DOCS)('every path, link, package and cited test in %s exists', (doc) => {
    expect(checkDocReferences(ROOT, doc)).toEqual([])
  })

  test('docs/security.md proves its promises: each adversary’s section cites tests, and every cited test runs', () => {
    const text = readFileSync(join(ROOT, 'docs', 'security.md'), 'utf8')
    const sections = text.split(/^## /m)
    const citationsIn = (title: string) =>
      testCitationsIn(sections.find((s) => s.startsWith(title)) ?? '').length
    expect(citationsIn('1. A hostile repository')).toBeGreaterThanOrEqual(8)
    expect(citationsIn('2. A hostile model')).toBeGreaterThanOrEqual(15)
    const files = new Set(testCitationsIn(text).map((c) => c.file))
    expect(files.size).toBeGreaterThanOrEqual(12)
  })

  test('the README links the architecture and the threat model', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
    expect(readme).toContain('](docs/architecture.md)')
    expect(readme).toContain('](docs/security.md)')
  })

  test('the README’s package table lists every package folder with its package name, and nothing else', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
    const section = readme.slice(readme.indexOf('## Packages'))
    const groups = workspaceGroups(ROOT)
    const rows = section
      .split('\n')
      .filter((line) => line.startsWith('| `'))
      .map((line) => line.split('|').map((cell) => codeSpans(cell)[0]))
      .map(([, folder, name]) => ({ folder: folder?.replace(/\/$/, ''), name }))
      .filter((row) => groups.some((group) => row.folder?.startsWith(`${group}/`)))
    const folders = groups.flatMap((top) =>
      readdirSync(join(ROOT, top), { withFileTypes: true })
        .filter((e) => e.isDirectory())
        .map((e) => `${top}/${e.name}`)
        .filter((folder) => readdirSync(join(ROOT, folder)).includes('package.json')),
    )
    expect(rows.map((r) => r.folder).sort()).toEqual(folders.sort())
    for (const row of rows) {
      const json = JSON.parse(readFileSync(join(ROOT, row.folder!, 'package.json'), 'utf8')) as {
        name: string
      }
      expect(row.name, row.folder).toBe(json.name)
    }
  })
})

describe('the checker', () => {
  function repo(files: Record<string, string>): string {
    const root = mkdtempSync(join(tmpdir(), 'tack-docrefs-'))
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true })
      writeFileSync(join(root, path), text)
    }
    return root
  }
  const TESTS = [
    "test('real one', () => {})",
    'it("it\'s quoted", () => {})',
    "test.skip('skipped one', () => {})",
    // a placeholder, built so this file holds no template-looking plain string
    'test(`templated $' + '{x}`, () => {})',
  ].join('\n')

  test('reports a missing path, a dead link, an unknown package and export, and a missing or skipped test', () => {
    const root = repo({
      'packages/a/package.json': JSON.stringify({
        name: '@tack/a',
        exports: { '.': './x', './testing': './y' },
      }),
      'packages/a/test/a.test.ts': TESTS,
      'packages/a/src/here.ts': '',
      'docs/x.md': [
        'See `packages/a/src/here.ts` and `packages/a/src/gone.ts`, [ok](../packages/a/src/here.ts), [dead](nope.md).',
        '`@tack/a`, `@tack/a/testing`, `@tack/a/missing` and `@tack/b`; a glob `packages/*/src/here.ts`.',
        '```ts',
        "import 'packages/a/src/in-a-fence.ts' // code blocks are the compiler's business",
        '```',
        "`packages/a/test/a.test.ts::real one`, `packages/a/test/a.test.ts::it's quoted`",
        '`packages/a/test/a.test.ts::skipped one`, `packages/a/test/a.test.ts::no such test`',
        '`packages/a/src/here.test.ts::x`',
      ].join('\n'),
    })
    expect(checkDocReferences(root, 'docs/x.md')).toEqual([
      'docs/x.md:1: packages/a/src/gone.ts does not exist',
      'docs/x.md:1: link nope.md does not resolve',
      'docs/x.md:2: @tack/a/missing is not an export of @tack/a',
      'docs/x.md:2: @tack/b is not a workspace package',
      'docs/x.md:8: packages/a/src/here.test.ts does not exist',
      'docs/x.md:7: packages/a/test/a.test.ts skips "skipped one"',
      'docs/x.md:7: packages/a/test/a.test.ts has no test "no such test"',
      'docs/x.md:8: packages/a/src/here.test.ts is not a test file the runner collects',
    ])
  })

  test('test names: plain literals with escapes count; skipped ones are told apart; templates are left out', () => {
    const names = testNamesIn(TESTS)
    expect([...names.run]).toEqual(['real one', "it's quoted"])
    expect([...names.skipped]).toEqual(['skipped one'])
  })

  test('a citation in double backticks may hold backticks', () => {
    expect(testCitationsIn('Proof: ``apps/t/test/x.test.ts::SIGTERM during `sleep 30` ends``.')).toEqual([
      { line: 1, file: 'apps/t/test/x.test.ts', name: 'SIGTERM during `sleep 30` ends' },
    ])
  })
})
