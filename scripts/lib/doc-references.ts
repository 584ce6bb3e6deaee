// What a hand-written doc names must exist (docs/architecture.md, docs/security.md, the README): every
// repository path it mentions, every relative link, every `@tack/…` package (and sub-path export), and
// every test it cites as proof, written `` `path::test name` `` — the file must hold a test of exactly
// that name that is not skipped, in a folder the test runner includes. Fenced code blocks are skipped
// (their text is code, checked by the compiler); a snippet block is instead kept equal to its file
// (`fillSnippets`).
import { existsSync, globSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'

/** A problem, as `file:line: what`. */
export type Problem = string

const ROOTS = ['packages', 'products', 'apps', 'docs', 'examples', 'scripts', 'bench']
const REPO_PATH = new RegExp(`(?<![\\w./@-])((?:${ROOTS.join('|')})/[^\\s\`'")\\]|,;]*)`, 'g')
const LINK = /\]\(([^)\s]+)\)/g
const PACKAGE = /(?<![\w/-])(@tack\/[a-z0-9-]+(?:\/[a-z0-9-]+)*)/g
/** Test files the runner collects (vitest.config.ts `include`). */
const RUN_TEST_FILE =
  /^(?:packages\/[^/]+\/test|products\/[^/]+\/test|apps\/[^/]+\/test|bench\/test|scripts\/test)\/.+\.test\.ts$/

export interface TestCitation {
  readonly line: number
  readonly file: string
  readonly name: string
}

/** The lines of a markdown text outside fenced code blocks, with their 1-based numbers. */
export function proseLines(markdown: string): Array<{ line: number; text: string }> {
  const out: Array<{ line: number; text: string }> = []
  let fence: string | undefined
  markdown.split('\n').forEach((text, i) => {
    const marker = /^\s*(`{3,}|~{3,})/.exec(text)?.[1]
    if (marker && (fence === undefined || (marker[0] === fence[0] && marker.length >= fence.length))) {
      fence = fence === undefined ? marker : undefined
      return
    }
    if (fence === undefined) out.push({ line: i + 1, text })
  })
  return out
}

/** The code spans of one line (CommonMark: a run of n backticks up to the next run of exactly n). */
export function codeSpans(text: string): string[] {
  const spans: string[] = []
  const runs = [...text.matchAll(/`+/g)]
  for (let i = 0; i < runs.length; i++) {
    const close = runs.findIndex((r, j) => j > i && r[0].length === runs[i][0].length)
    if (close < 0) continue
    let body = text.slice(runs[i].index + runs[i][0].length, runs[close].index)
    if (body.startsWith(' ') && body.endsWith(' ') && body.trim() !== '') body = body.slice(1, -1)
    spans.push(body)
    i = close
  }
  return spans
}

/** `path::test name` citations, each in a code span of its own. */
export function testCitationsIn(markdown: string): TestCitation[] {
  const out: TestCitation[] = []
  for (const { line, text } of proseLines(markdown))
    for (const span of codeSpans(text)) {
      const m = /^([\w./-]+\.test\.ts)::(.+)$/.exec(span)
      if (m) out.push({ line, file: m[1], name: m[2] })
    }
  return out
}

/**
 * The test names a test file declares with `test(…)`/`it(…)` as a plain string literal, split by
 * whether a `.skip`/`.todo` modifier keeps them from running. Template literals with placeholders
 * cannot be cited (their name is only known at run time) and are left out.
 */
export function testNamesIn(source: string): { run: Set<string>; skipped: Set<string> } {
  const run = new Set<string>()
  const skipped = new Set<string>()
  for (const m of source.matchAll(/(?<![\w.])(?:test|it)((?:\.\w+)*)\(\s*(['"`])/g)) {
    const quote = m[2]
    let i = m.index + m[0].length
    let name = ''
    for (; i < source.length && source[i] !== quote; i++) {
      if (source[i] === '\\') name += source[++i]
      else name += source[i]
    }
    if (quote === '`' && name.includes('${')) continue
    ;(/\.(?:skip|todo)\b/.test(m[1]) ? skipped : run).add(name)
  }
  return { run, skipped }
}

/** Every problem with what `docPath` (relative to `root`) names. */
export function checkDocReferences(root: string, docPath: string): Problem[] {
  const markdown = readFileSync(join(root, docPath), 'utf8')
  const problems: Problem[] = []
  const packages = workspacePackages(root)
  const at = (line: number, what: string) => problems.push(`${docPath}:${line}: ${what}`)
  for (const { line, text } of proseLines(markdown)) {
    for (const m of text.matchAll(REPO_PATH)) {
      const path = m[1].split('::')[0].replace(/[.:]+$/, '')
      if (!repoPathExists(root, path)) at(line, `${path} does not exist`)
    }
    for (const m of text.matchAll(LINK)) {
      const target = m[1].split('#')[0]
      if (target === '' || /^[a-z]+:/i.test(target)) continue
      const path = relative(root, resolve(root, dirname(docPath), target))
      if (path.startsWith('..') || !existsSync(join(root, path))) at(line, `link ${m[1]} does not resolve`)
    }
    for (const m of text.matchAll(PACKAGE)) {
      const [scope, name, ...sub] = m[1].split('/')
      const exports = packages.get(`${scope}/${name}`)
      if (!exports) at(line, `${m[1]} is not a workspace package`)
      else if (sub.length > 0 && !exports.has(`./${sub.join('/')}`))
        at(line, `${m[1]} is not an export of ${scope}/${name}`)
    }
  }
  for (const cite of testCitationsIn(markdown)) {
    if (!RUN_TEST_FILE.test(cite.file)) {
      at(cite.line, `${cite.file} is not a test file the runner collects`)
      continue
    }
    const file = join(root, cite.file)
    if (!existsSync(file)) {
      at(cite.line, `${cite.file} does not exist`)
      continue
    }
    const names = testNamesIn(readFileSync(file, 'utf8'))
    if (names.skipped.has(cite.name)) at(cite.line, `${cite.file} skips "${cite.name}"`)
    else if (!names.run.has(cite.name)) at(cite.line, `${cite.file} has no test "${cite.name}"`)
  }
  return problems
}

function repoPathExists(root: string, path: string): boolean {
  if (!/[*<]/.test(path)) return existsSync(join(root, path))
  const pattern = path.replace(/<[^>]*>/g, '*')
  return globSync(pattern, { cwd: root }).length > 0
}

/** Workspace package name → its sub-path exports (`./testing`, …). */
function workspacePackages(root: string): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>()
  for (const file of globSync('{packages,apps}/*/package.json', { cwd: root })) {
    const json = JSON.parse(readFileSync(join(root, file), 'utf8')) as { name?: string; exports?: unknown }
    if (typeof json.name !== 'string') continue
    const exports = json.exports && typeof json.exports === 'object' ? Object.keys(json.exports) : []
    out.set(json.name, new Set(exports))
  }
  return out
}

const SNIPPET = /<!-- snippet: (\S+) -->\n(```[a-z]*\n[\s\S]*?\n```\n)?/g

/**
 * The markdown with every `<!-- snippet: PATH -->` followed by a fenced block holding exactly the file
 * at PATH (relative to the repository root), so a doc shows the code a test runs.
 */
export function fillSnippets(markdown: string, read: (path: string) => string): string {
  return markdown.replace(SNIPPET, (_, path: string) => {
    const code = read(path)
    const lang = path.endsWith('.ts') ? 'ts' : ''
    return `<!-- snippet: ${path} -->\n\`\`\`${lang}\n${code.endsWith('\n') ? code : `${code}\n`}\`\`\`\n`
  })
}

/** The paths of the snippets a markdown text includes. */
export function snippetPaths(markdown: string): string[] {
  return [...markdown.matchAll(SNIPPET)].map((m) => m[1])
}
