// Every requirement id and spec file that code, tests and docs cite resolves to an entry of the catalogue
// in docs/requirements/ (issue 8, item 4). The unit tests below build their bad citations by
// concatenation, so this file does not trip the repository scan it is part of.
import { mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { describe, expect, test } from 'vitest'
import {
  type Catalogue,
  entriesOfArea,
  formatProblem,
  homeAreasOf,
  idsOfArea,
  scanRepository,
  scanText,
} from '../lib/requirement-citations.ts'

const ROOT = resolve(import.meta.dirname, '..', '..')

const catalogue: Catalogue = new Map([
  ['00-overview', new Set(['decision 8'])],
  ['20-agent-loop', new Set(['§1', 'al-7'])],
  ['40-hooks', new Set(['part b', 'b8', 'a4'])],
  ['60-agent-dice', new Set(['r22'])],
  ['80-cli', new Set(['§4', '§4.1'])],
  ['90-quality', new Set(['p3', 'r6', 'security 1', 'habit 4'])],
  ['protocols', new Set(['§b.3'])],
])
const problemsOf = (path: string, text: string) => scanText(path, text, catalogue).map(formatProblem)

test('every requirement citation in packages/, products/, apps/, docs/, bench/, scripts/, examples/ and the README resolves', async () => {
  const { files, problems } = await scanRepository(ROOT)
  expect(files).toBeGreaterThan(100)
  expect(problems.map(formatProblem), 'unresolved citations (file:line)').toEqual([])
})

describe('the catalogue', () => {
  test('numbering has no gaps, and every rule heading has its paragraph', async () => {
    const dir = join(ROOT, 'docs', 'requirements')
    const problems: string[] = []
    for (const name of (await readdir(dir)).filter((n) => n.endsWith('.md') && n !== 'README.md')) {
      const entries = entriesOfArea(await readFile(join(dir, name), 'utf8'))
      expect(entries.length, name).toBeGreaterThan(0)
      const families = new Map<string, number[]>()
      for (const e of entries) {
        if (e.level > 2 && e.body.length < 40) problems.push(`${name}: ${e.id} has no rule under it`)
        const m = /^(\D*?)(\d+)$/.exec(e.id)
        if (m) families.set(m[1], [...(families.get(m[1]) ?? []), Number(m[2])])
      }
      for (const [family, numbers] of families) {
        const sorted = [...numbers].sort((a, b) => a - b)
        const first = sorted[0] === 0 ? 0 : 1
        const expected = sorted.map((_, i) => first + i)
        if (sorted.join() !== expected.join())
          problems.push(`${name}: ${family}… numbered ${sorted.join(', ')}`)
      }
    }
    expect(problems).toEqual([])
  })

  test('ids are the part of a heading before the em dash, compared case-insensitively', () => {
    const ids = idsOfArea(
      '# 80-cli\n## Part B — bridge\n### B8 — Payloads\n#### §4.1 — Models\n### no dash here\n',
    )
    expect([...ids]).toEqual(['part b', 'b8', `${'§'}4.1`])
  })

  test('a bare id is read against the folder’s own area', () => {
    expect(homeAreasOf('packages/hooks-codex/src/x.ts')).toContain('40-hooks')
    expect(homeAreasOf('products/agent-dice/test/x.test.ts')).toEqual(['60-agent-dice'])
    expect(homeAreasOf('docs/requirements/30-tools.md')).toEqual(['30-tools'])
    expect(homeAreasOf('scripts/x.ts')).toEqual([])
  })
})

describe('the scanner', () => {
  test('resolving citations of every form pass', () => {
    const text = [
      '// AL-7, 40-hooks.md B8 and Part B, 80-cli §4.1, 20-agent-loop.md §1, P3, R6 (90-quality)',
      "it('security 1 and habit 4 and overview decision 8 and protocols.md §B.3', () => {})",
      '// UTF-8, SHA-256 and ISO-8601 are not requirement ids; nor is a 20-read session',
    ].join('\n')
    expect(problemsOf('packages/hooks-claude/src/a.ts', text)).toEqual([])
  })

  test('an id that does not exist is reported with file and line', () => {
    const text = `ok\n// see ${'AL'}-99 and 40-hooks.md ${'B'}12\n`
    expect(problemsOf('packages/agent/src/a.ts', text)).toEqual([
      `packages/agent/src/a.ts:2: ${'AL'}-99 — does not resolve (looked in 20-agent-loop.md)`,
      `packages/agent/src/a.ts:2: ${'B'}12 — does not resolve (looked in 40-hooks.md)`,
    ])
  })

  test('an unknown spec file, an unknown prefix and a section of the wrong area are reported', () => {
    const problems = problemsOf(
      'packages/x/src/a.ts',
      [
        `// ${'45'}-widgets.md`,
        `// ${'TI'}-3`,
        `// 80-cli ${'§'}9`,
        `// ${'§'}2 with no area`,
        `// protocols.md ${'§'}B.99.`,
      ].join('\n'),
    )
    expect(problems).toEqual([
      `packages/x/src/a.ts:1: ${'45'}-widgets.md — no area file docs/requirements/${'45'}-widgets.md`,
      `packages/x/src/a.ts:2: ${'TI'}-3 — unknown requirement prefix ${'TI'} (known: SL, AL, TL, CP)`,
      `packages/x/src/a.ts:3: ${'§'}9 — does not resolve (looked in 80-cli.md)`,
      `packages/x/src/a.ts:4: ${'§'}2 — does not resolve (no area: name the spec file on the same line)`,
      `packages/x/src/a.ts:5: ${'§'}B.99 — does not resolve (looked in protocols.md)`,
    ])
  })

  test('an R id resolves in agent-dice’s own area only where that area is in scope', () => {
    expect(problemsOf('products/agent-dice/src/a.ts', '// R22')).toEqual([])
    expect(problemsOf('packages/tool-bash/src/a.ts', `// ${'R'}22`)).toEqual([
      `packages/tool-bash/src/a.ts:1: ${'R'}22 — does not resolve (looked in 90-quality.md)`,
    ])
    expect(problemsOf('docs/x.md', 'the agent-dice tack plugin (R22)')).toEqual([])
  })

  test('a path outside the repository is reported, even in fixture data', () => {
    const outside = ['..', 'shared', 'spec', '40-hooks.md'].join('/')
    const reference = ['shared', 'reference', 'protocols.md'].join('/')
    expect(problemsOf('packages/a/src/a.ts', `// ${outside}`)).toEqual([
      `packages/a/src/a.ts:1: ${['..', 'shared', ''].join('/')} — points outside the repository; cite the area file in docs/requirements/ instead`,
    ])
    expect(problemsOf('packages/a/test/fixtures/x.json', `{"$comment": "${reference} ${'B'}99"}`)).toEqual([
      `packages/a/test/fixtures/x.json:1: ${['shared', 'reference'].join('/')} — points outside the repository; cite the area file in docs/requirements/ instead`,
    ])
  })

  test('the real repository scan fails on a planted bad citation', async () => {
    const root = await mkdtemp(join(tmpdir(), 'tack-reqs-'))
    await mkdir(join(root, 'docs', 'requirements'), { recursive: true })
    await mkdir(join(root, 'packages', 'demo', 'src'), { recursive: true })
    await writeFile(join(root, 'docs', 'requirements', '30-tools.md'), '# 30\n### TL-1 — Registration\n')
    await writeFile(join(root, 'packages', 'demo', 'src', 'a.ts'), `// TL-1 ok\n// ${'TL'}-2 missing\n`)
    const { files, problems } = await scanRepository(root)
    expect(files).toBe(2)
    expect(problems.map(formatProblem)).toEqual([
      `packages/demo/src/a.ts:2: ${'TL'}-2 — does not resolve (looked in 30-tools.md)`,
    ])
  })
})
