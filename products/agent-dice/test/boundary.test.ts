import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { PACKAGE_ROOT, tempDir } from './helpers.ts'

const FORBIDDEN_IDENTIFIERS = new Set(['process', 'Bun', 'require'])

/** Walks the import graph from every file under `root`; returns violations and the files scanned. */
function scanCore(root: string): { violations: string[]; scanned: string[] } {
  const violations: string[] = []
  const scanned = new Set<string>()
  const queue = readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => join(root, f))
  while (queue.length > 0) {
    const file = queue.pop()!
    if (scanned.has(file)) continue
    scanned.add(file)
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true)
    const visit = (node: ts.Node) => {
      if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
        const spec = (node.moduleSpecifier as ts.StringLiteral).text
        if (!spec.startsWith('.')) violations.push(`${file}: imports "${spec}"`)
        else {
          const target = resolve(dirname(file), spec)
          if (!target.startsWith(root + '/'))
            violations.push(`${file}: imports "${spec}" from outside the core`)
          else queue.push(target)
        }
      }
      if (node.kind === ts.SyntaxKind.ImportKeyword && ts.isCallExpression(node.parent)) {
        violations.push(`${file}: dynamic import(`)
      }
      if (ts.isIdentifier(node) && FORBIDDEN_IDENTIFIERS.has(node.text))
        violations.push(`${file}: uses ${node.text}`)
      ts.forEachChild(node, visit)
    }
    visit(source)
  }
  return { violations, scanned: [...scanned] }
}

describe('R3 boundary', () => {
  it('R3 src/core imports nothing outside itself: no node: or bare specifiers, process, Bun, require or import(', () => {
    const { violations, scanned } = scanCore(join(PACKAGE_ROOT, 'src', 'core'))
    expect(scanned.length).toBeGreaterThanOrEqual(5)
    expect(violations).toEqual([])
  })
  it('R3 a planted violating fixture is rejected for each kind of violation', () => {
    const root = join(tempDir(), 'core')
    mkdirSync(root)
    writeFileSync(join(root, 'ok.ts'), 'export const a = 1\n')
    const planted: Record<string, string> = {
      'a.ts': "import { readFileSync } from 'node:fs'\nexport const x = readFileSync\n",
      'b.ts': "import fs from 'fs'\nexport default fs\n",
      'c.ts': "import { y } from '../outside.ts'\nexport default y\n",
      'd.ts': 'export const env = process.env\n',
      'e.ts': 'declare const Bun: unknown\nexport const b = Bun\n',
      'f.ts': "export const r = require('x')\n",
      'g.ts': "export const m = () => import('./ok.ts')\n",
    }
    for (const [name, text] of Object.entries(planted)) writeFileSync(join(root, name), text)
    const { violations } = scanCore(root)
    for (const name of Object.keys(planted))
      expect(violations.some((v) => v.includes(`/core/${name}`))).toBe(true)
    expect(violations.some((v) => v.includes('ok.ts'))).toBe(false)
  })
})
