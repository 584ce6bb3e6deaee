// Front ends draw what tools declare and know no tool by name (docs/decisions/0200-tools-own-their-presentation.md):
// no string literal in the TUI's, the ACP server's or `tack run`'s progress sources is a built-in tool's
// name. The scan reads each file's syntax tree (TypeScript's own parser), so comments, which may name a
// tool to explain something, are not code, and a literal counts only when its whole text is the name:
// `'read-only'` is a permission mode, `'todo/write'` a log event. Some names are also kinds (`read`,
// `edit`, `execute` …): front ends take a call's kind from its resolved presentation (`@tack/tools`), so
// they need no such literal either.
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import ts from 'typescript'
import { describe, expect, test } from 'vitest'

const ROOT = resolve(import.meta.dirname, '..', '..')
const FRONT_ENDS = ['packages/tui/src', 'packages/acp/src', 'apps/tack/src/progress']
const BUILT_IN_TOOLS = new Set([
  'bash',
  'edit',
  'read',
  'write',
  'glob',
  'grep',
  'todo_write',
  'web_fetch',
  'web_search',
  'subagent',
  'run_code',
])

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name))
}

/** Every string literal of `text` (quoted or a template without substitutions) that is a tool's name, with its line. */
function toolNamesIn(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)
  const found: string[] = []
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteralLike(node) && BUILT_IN_TOOLS.has(node.text)) {
      const { line } = source.getLineAndCharacterOfPosition(node.getStart(source))
      found.push(`${file}:${line + 1}: ${node.getText(source)}`)
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

describe('front ends know no tool by name', () => {
  test('the scan finds a tool name in code, in any quotes, and not in comments or longer strings', () => {
    const sample = `// the 'bash' tool, said in a comment
const a = name === 'bash'
const b = \`edit\`
const c = { kind: "read" }
const d = 'read-only' + 'todo/write' + \`\${x}bash\`
`
    expect(toolNamesIn('sample.ts', sample)).toEqual([
      "sample.ts:2: 'bash'",
      'sample.ts:3: `edit`',
      'sample.ts:4: "read"',
    ])
  })

  test.each(FRONT_ENDS)('no built-in tool name in the sources of %s', (dir) => {
    const files = sourcesUnder(join(ROOT, dir))
    expect(files.length).toBeGreaterThan(0)
    const hits = files.flatMap((file) => toolNamesIn(relative(ROOT, file), readFileSync(file, 'utf8')))
    expect(hits).toEqual([])
  })
})
