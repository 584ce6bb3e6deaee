// SL-30: generates docs/session-events.md from every `SessionEventMap` declaration in the workspace —
// the core one in @tack/session and each `declare module '@tack/session'` merge — with the TypeScript
// compiler API. Fails on a member without a doc comment, an `@mode` tag (log events do not dispatch on
// the bus), a duplicate member, or a `SurfaceEventType` member missing from the map.
//
//   node scripts/gen-session-events.ts            write the catalog
//   node scripts/gen-session-events.ts --check    exit 1 when the committed catalog is stale
//   --root DIR                                    scan another repo root (tests use fixture trees)
import { readFile, writeFile } from 'node:fs/promises'
import { join, relative, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { workspaceGroups } from './lib/workspace-groups.ts'
import { workspaceSources } from './lib/workspace-sources.ts'

export const CATALOG_PATH = 'docs/session-events.md'
const SESSION_PACKAGE = '@tack/session'

export interface CatalogOptions {
  /** The repository root; default the folder above `scripts/`. */
  readonly root?: string
  /** Folders under `root` whose `<package>/src/**\/*.ts` files are scanned; default `packages`, `apps`. */
  readonly scanRoots?: readonly string[]
}

/** The catalog could not be built; `problems` lists every finding with its file and line. */
export class CatalogError extends Error {
  override readonly name = 'CatalogError'
  readonly problems: readonly string[]
  constructor(problems: readonly string[]) {
    super(
      `session event catalog: ${problems.length} problem(s)\n${problems.map((p) => `  - ${p}`).join('\n')}`,
    )
    this.problems = problems
  }
}

interface Row {
  readonly type: string
  readonly payload: string
  readonly doc: string
  readonly pkg: string
  readonly where: string
}

interface SourceFileInfo {
  readonly file: string
  readonly pkg: string
  readonly source: ts.SourceFile
}

async function sourceFiles(root: string, scanRoots: readonly string[]): Promise<SourceFileInfo[]> {
  const sources = await workspaceSources(
    root,
    scanRoots,
    (text) => text.includes('SessionEventMap') || text.includes('SurfaceEventType'),
  )
  return sources.map(({ file, pkg, text }) => ({
    file,
    pkg,
    source: ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true),
  }))
}

/** Interface and type-alias declarations that belong to @tack/session's module scope. */
function sessionScopeDeclarations(info: SourceFileInfo): ts.Statement[] {
  const found: ts.Statement[] = []
  if (info.pkg === SESSION_PACKAGE) found.push(...info.source.statements)
  for (const statement of info.source.statements) {
    if (
      ts.isModuleDeclaration(statement) &&
      ts.isStringLiteral(statement.name) &&
      statement.name.text === SESSION_PACKAGE &&
      statement.body &&
      ts.isModuleBlock(statement.body)
    ) {
      found.push(...statement.body.statements)
    }
  }
  return found
}

const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim()

function printOneLine(node: ts.TypeNode, source: ts.SourceFile): string {
  const flag = (n: ts.Node) => {
    ts.setEmitFlags(n, ts.EmitFlags.SingleLine)
    n.forEachChild(flag)
  }
  flag(node)
  const printed = ts.createPrinter({ removeComments: true }).printNode(ts.EmitHint.Unspecified, node, source)
  return oneLine(printed).replace(/; }/g, ' }')
}

function memberName(name: ts.PropertyName): string | undefined {
  if (ts.isStringLiteral(name) || ts.isIdentifier(name) || ts.isNumericLiteral(name)) return name.text
  return undefined
}

async function collect(opts: CatalogOptions): Promise<{ rows: Row[]; surface: Set<string> }> {
  const root = resolve(opts.root ?? join(import.meta.dirname, '..'))
  // The core declarations come first, so a duplicate is always reported against the merge.
  const infos = (await sourceFiles(root, opts.scanRoots ?? workspaceGroups(root))).sort(
    (a, b) => Number(b.pkg === SESSION_PACKAGE) - Number(a.pkg === SESSION_PACKAGE),
  )
  const problems: string[] = []
  const rows: Row[] = []
  const seen = new Map<string, string>()
  let surface: Set<string> | undefined
  for (const info of infos) {
    const rel = relative(root, info.file).split(sep).join('/')
    const at = (node: ts.Node) =>
      `${rel}:${info.source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`
    for (const decl of sessionScopeDeclarations(info)) {
      if (
        ts.isTypeAliasDeclaration(decl) &&
        decl.name.text === 'SurfaceEventType' &&
        info.pkg === SESSION_PACKAGE
      ) {
        const members = ts.isUnionTypeNode(decl.type) ? decl.type.types : [decl.type]
        surface = new Set(
          members.flatMap((m) =>
            ts.isLiteralTypeNode(m) && ts.isStringLiteral(m.literal) ? [m.literal.text] : [],
          ),
        )
      }
      if (!ts.isInterfaceDeclaration(decl) || decl.name.text !== 'SessionEventMap') continue
      for (const member of decl.members) {
        const name = member.name && memberName(member.name)
        if (!ts.isPropertySignature(member) || name === undefined || !member.type) {
          problems.push(`${at(member)}: SessionEventMap members must be named properties with a payload type`)
          continue
        }
        const previous = seen.get(name)
        if (previous)
          problems.push(`${at(member)}: duplicate event type '${name}' (first declared at ${previous})`)
        else seen.set(name, at(member))
        const docs = ts.getJSDocCommentsAndTags(member).filter(ts.isJSDoc)
        const doc = oneLine(docs.map((d) => ts.getTextOfJSDocComment(d.comment) ?? '').join(' '))
        if (!doc) problems.push(`${at(member)}: event type '${name}' has no doc comment`)
        if (ts.getJSDocTags(member).some((tag) => tag.tagName.text === 'mode')) {
          problems.push(
            `${at(member)}: event type '${name}' has an @mode tag; log events do not dispatch on the bus`,
          )
        }
        if (!previous)
          rows.push({
            type: name,
            payload: printOneLine(member.type, info.source),
            doc,
            pkg: info.pkg,
            where: at(member),
          })
      }
    }
  }
  if (!surface) problems.push(`no SurfaceEventType declaration found in ${SESSION_PACKAGE}`)
  for (const type of surface ?? []) {
    if (!seen.has(type)) problems.push(`SurfaceEventType member '${type}' is missing from SessionEventMap`)
  }
  if (problems.length) throw new CatalogError(problems)
  return { rows, surface: surface! }
}

const cell = (s: string) => s.replace(/\|/g, '\\|')

function render(rows: readonly Row[], surface: ReadonlySet<string>): string {
  const ordered = [...rows].sort((a, b) => {
    const core = Number(b.pkg === SESSION_PACKAGE) - Number(a.pkg === SESSION_PACKAGE)
    return core || (a.pkg < b.pkg ? -1 : a.pkg > b.pkg ? 1 : 0)
  })
  const lines = [
    '<!-- Generated by scripts/gen-session-events.ts from the SessionEventMap declarations. Do not edit;',
    '     run `npm run docs:gen` after changing a declaration or its doc comment. -->',
    '',
    '# Session event catalog',
    '',
    'Every event type a tack session log can hold (`10-session-log.md` §2), from the core `SessionEventMap`',
    "in `@tack/session` and every plugin's `declare module '@tack/session'` merge. **surface** events are",
    'model-visible: they carry `op` and `deriveMessages` projects them. **log** events are recorded for',
    'replay, audit and tooling and never reach the model.',
    '',
    '| Type | Kind | Payload | Description | Declared by |',
    '|---|---|---|---|---|',
    ...ordered.map(
      (r) =>
        `| \`${r.type}\` | ${surface.has(r.type) ? 'surface' : 'log'} | \`${cell(r.payload)}\` | ${cell(r.doc)} | \`${r.pkg}\` |`,
    ),
    '',
  ]
  return lines.join('\n')
}

/** The catalog file(s) to write; throws `CatalogError` when a declaration breaks a rule. */
export async function generate(opts: CatalogOptions = {}): Promise<Array<{ path: string; content: string }>> {
  const { rows, surface } = await collect(opts)
  return [{ path: CATALOG_PATH, content: render(rows, surface) }]
}

async function main(argv: readonly string[]): Promise<number> {
  const check = argv.includes('--check')
  const rootAt = argv.indexOf('--root')
  const root = resolve(rootAt >= 0 ? argv[rootAt + 1] : join(import.meta.dirname, '..'))
  let outputs: Array<{ path: string; content: string }>
  try {
    outputs = await generate({ root })
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`)
    return 1
  }
  let stale = 0
  for (const out of outputs) {
    const target = join(root, out.path)
    const current = await readFile(target, 'utf8').catch(() => undefined)
    if (current === out.content) continue
    if (check) {
      stale++
      process.stderr.write(`stale: ${out.path} (run \`npm run docs:gen\`)\n`)
    } else {
      await writeFile(target, out.content)
      process.stdout.write(`wrote ${out.path}\n`)
    }
  }
  return stale > 0 ? 1 : 0
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main(process.argv.slice(2))
}
