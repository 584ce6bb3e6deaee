// One home per host protocol (docs/decisions/0210-host-protocol-packages.md): the mod host and the hook
// bridges read a host's names and shapes from its protocol package, never from each other, and the
// protocol packages are leaves. Read from the real imports of every source file (static, re-exports,
// dynamic `import()`), as TypeScript parses them, and from each package.json.
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, test } from 'vitest'

const REPO = resolve(fileURLToPath(new URL('../..', import.meta.url)))

/** The packages that speak to a host, by folder; none may import another. */
const HOST_SPEAKERS = ['mods', 'hooks-claude', 'hooks-codex'] as const
/** The protocol packages: leaves, with at most type-only imports of these @tack packages. */
const PROTOCOLS: Readonly<Record<string, readonly string[]>> = {
  'claude-protocol': ['@tack/session'],
  'codex-protocol': [],
}

interface ImportFact {
  readonly file: string
  readonly specifier: string
  readonly typeOnly: boolean
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(path)
    return /\.(ts|mts|js|mjs)$/.test(entry.name) ? [path] : []
  })
}

/** Every module a file names: `import`, `export … from`, `import()` and `import x = require()`. */
function importsOf(file: string, text: string): ImportFact[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)
  const out: ImportFact[] = []
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause
      const bindings = clause?.namedBindings
      const allNamedTypes =
        !!bindings &&
        ts.isNamedImports(bindings) &&
        bindings.elements.length > 0 &&
        !clause?.name &&
        bindings.elements.every((e) => e.isTypeOnly)
      out.push({
        file,
        specifier: node.moduleSpecifier.text,
        typeOnly: !!clause?.isTypeOnly || allNamedTypes,
      })
    } else if (
      ts.isExportDeclaration(node) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      out.push({ file, specifier: node.moduleSpecifier.text, typeOnly: node.isTypeOnly })
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      out.push({ file, specifier: node.arguments[0].text, typeOnly: false })
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      const literal = node.argument.literal
      if (ts.isStringLiteral(literal)) out.push({ file, specifier: literal.text, typeOnly: true })
    } else if (
      ts.isImportEqualsDeclaration(node) &&
      ts.isExternalModuleReference(node.moduleReference) &&
      ts.isStringLiteral(node.moduleReference.expression)
    ) {
      out.push({ file, specifier: node.moduleReference.expression.text, typeOnly: node.isTypeOnly })
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return out
}

/** The package folder a specifier reaches: `@tack/x` by name, a relative path by where it lands. */
function targetPackage(fact: ImportFact, names: ReadonlyMap<string, string>): string | undefined {
  if (fact.specifier.startsWith('.')) {
    const landed = relative(join(REPO, 'packages'), resolve(fact.file, '..', fact.specifier))
    return landed.startsWith('..') ? undefined : landed.split(sep)[0]
  }
  const name = fact.specifier.startsWith('@')
    ? fact.specifier.split('/').slice(0, 2).join('/')
    : fact.specifier.split('/')[0]
  return names.get(name)
}

function packageNames(): Map<string, string> {
  const names = new Map<string, string>()
  for (const dir of readdirSync(join(REPO, 'packages'))) {
    try {
      const { name } = JSON.parse(readFileSync(join(REPO, 'packages', dir, 'package.json'), 'utf8'))
      names.set(name, dir)
    } catch {
      // not a package folder
    }
  }
  return names
}

function importsOfPackage(dir: string): ImportFact[] {
  const root = join(REPO, 'packages', dir, 'src')
  return sourceFiles(root).flatMap((file) => importsOf(file, readFileSync(file, 'utf8')))
}

function dependenciesOf(dir: string): string[] {
  const pkg = JSON.parse(readFileSync(join(REPO, 'packages', dir, 'package.json'), 'utf8'))
  return Object.keys({ ...pkg.dependencies, ...pkg.peerDependencies })
}

const where = (f: ImportFact) => `${relative(REPO, f.file)} imports ${f.specifier}`

describe('0210 host protocol boundaries', () => {
  const names = packageNames()

  test('0210 mods, hooks-claude and hooks-codex import none of each other (sources and package.json)', () => {
    const crossings: string[] = []
    for (const dir of HOST_SPEAKERS) {
      for (const fact of importsOfPackage(dir)) {
        const target = targetPackage(fact, names)
        if (target && target !== dir && (HOST_SPEAKERS as readonly string[]).includes(target))
          crossings.push(where(fact))
      }
      for (const dep of dependenciesOf(dir)) {
        const target = names.get(dep)
        if (target && target !== dir && (HOST_SPEAKERS as readonly string[]).includes(target))
          crossings.push(`packages/${dir}/package.json depends on ${dep}`)
      }
    }
    expect(crossings).toEqual([])
  })

  test('0210 the protocol packages are leaves: no @tack import but type-only ones they are allowed', () => {
    const problems: string[] = []
    for (const [dir, typeOnly] of Object.entries(PROTOCOLS)) {
      for (const fact of importsOfPackage(dir)) {
        const target = targetPackage(fact, names)
        if (!target || target === dir) continue
        const name = [...names].find(([, d]) => d === target)?.[0] ?? target
        if (!fact.typeOnly || !typeOnly.includes(name)) problems.push(where(fact))
      }
    }
    expect(problems).toEqual([])
  })

  test('0210 the import reader sees every form of import, and a crossing', () => {
    const file = join(REPO, 'packages', 'mods', 'src', 'probe.ts')
    const facts = importsOf(
      file,
      [
        "import { a } from '@tack/hooks-claude'",
        "import type { B } from '@tack/session'",
        "import { type C } from '@tack/session'",
        "export { d } from '../../hooks-codex/src/index.ts'",
        "const e = await import('@tack/hooks-codex')",
        "type F = import('@tack/hooks-claude').G",
      ].join('\n'),
    )
    expect(facts.map((f) => [f.specifier, f.typeOnly])).toEqual([
      ['@tack/hooks-claude', false],
      ['@tack/session', true],
      ['@tack/session', true],
      ['../../hooks-codex/src/index.ts', false],
      ['@tack/hooks-codex', false],
      ['@tack/hooks-claude', true],
    ])
    expect(facts.map((f) => targetPackage(f, names))).toEqual([
      'hooks-claude',
      'session',
      'session',
      'hooks-codex',
      'hooks-codex',
      'hooks-claude',
    ])
  })
})
