// The dependency picture in docs/architecture.md, generated from the real imports: every workspace
// package (the folders the root package.json's `workspaces` name), and for each the workspace packages
// its runtime code imports — `src/**` (or, for a package written in plain JavaScript, its own `*.js`),
// static, dynamic and type-only imports alike, read with TypeScript's own pre-processor so a specifier in
// a comment or a string does not count. Packages are stacked in layers (a package sits one above the
// highest it imports), which is possible only while there is no cycle: a cycle is refused, named.
// `npm run docs:gen` rewrites the part between the markers; `npm run docs:check` (part of `npm test`)
// fails when it is stale.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, resolve, sep } from 'node:path'
import ts from 'typescript'
import { workspaceGroups } from './lib/workspace-groups.ts'

export const DOC = 'docs/architecture.md'
export const BEGIN = '<!-- begin: dependency-graph (scripts/gen-dependency-graph.ts; npm run docs:gen) -->'
export const END = '<!-- end: dependency-graph -->'

export interface WorkspacePackage {
  readonly name: string
  /** Repository-relative folder, `/`-separated. */
  readonly folder: string
  /** Workspace packages it imports, sorted. */
  readonly imports: readonly string[]
}

/** The runtime files of a package: `src/**` TypeScript and JavaScript, else its top-level `*.js`. */
function runtimeFiles(dir: string): string[] {
  const isCode = (f: string) => /\.(ts|js|mjs)$/.test(f) && !f.endsWith('.d.ts')
  if (existsSync(join(dir, 'src')))
    return readdirSync(join(dir, 'src'), { recursive: true, encoding: 'utf8' })
      .filter((f) => isCode(f) && !f.split(sep).includes('node_modules'))
      .map((f) => join(dir, 'src', f))
  return readdirSync(dir)
    .filter(isCode)
    .map((f) => join(dir, f))
}

/** `@scope/name/sub` → `@scope/name`; `name/sub` → `name`. */
function packageOf(specifier: string): string {
  const parts = specifier.split('/')
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]
}

/** Every workspace package under `root` with the workspace packages it imports, by folder. */
export function collectPackages(root: string): WorkspacePackage[] {
  const found: Array<{ name: string; folder: string; dir: string }> = []
  for (const group of workspaceGroups(root)) {
    const base = join(root, group)
    if (!existsSync(base)) continue
    for (const entry of readdirSync(base, { withFileTypes: true }).filter((e) => e.isDirectory())) {
      const dir = join(base, entry.name)
      if (!existsSync(join(dir, 'package.json'))) continue
      const { name } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string }
      if (name) found.push({ name, folder: `${group}/${entry.name}`, dir })
    }
  }
  const names = new Set(found.map((p) => p.name))
  return found
    .map(({ name, folder, dir }) => {
      const imports = new Set<string>()
      for (const file of runtimeFiles(dir)) {
        const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true)
        for (const { fileName } of importedFiles) {
          const target = packageOf(fileName)
          if (target !== name && names.has(target)) imports.add(target)
        }
      }
      return { name, folder, imports: [...imports].sort() }
    })
    .sort((a, b) => (a.folder < b.folder ? -1 : 1))
}

/** Each package's layer: 0 when it imports no workspace package, else one above its highest import. */
export function layersOf(packages: readonly WorkspacePackage[]): Map<string, number> {
  const byName = new Map(packages.map((p) => [p.name, p]))
  const layers = new Map<string, number>()
  const visiting: string[] = []
  const layerOf = (name: string): number => {
    const known = layers.get(name)
    if (known !== undefined) return known
    const at = visiting.indexOf(name)
    if (at >= 0) throw new Error(`a package cycle: ${[...visiting.slice(at), name].join(' → ')}`)
    visiting.push(name)
    const imports = byName.get(name)?.imports ?? []
    const layer = imports.length === 0 ? 0 : 1 + Math.max(...imports.map(layerOf))
    visiting.pop()
    layers.set(name, layer)
    return layer
  }
  for (const p of packages) layerOf(p.name)
  return layers
}

const nodeId = (name: string) => name.replace(/^@/, '').replace(/[^A-Za-z0-9]/g, '_')

/**
 * The imports worth an arrow in the drawing: those not also reached through another import (the
 * transitive reduction), so the picture shows the layering instead of every line of the table.
 */
export function directArrows(packages: readonly WorkspacePackage[]): Array<[string, string]> {
  const byName = new Map(packages.map((p) => [p.name, p]))
  const reach = new Map<string, Set<string>>()
  const reachOf = (name: string): Set<string> => {
    let out = reach.get(name)
    if (out) return out
    out = new Set()
    reach.set(name, out)
    for (const i of byName.get(name)?.imports ?? []) {
      out.add(i)
      for (const j of reachOf(i)) out.add(j)
    }
    return out
  }
  return packages.flatMap((p) =>
    p.imports
      .filter((i) => !p.imports.some((other) => other !== i && reachOf(other).has(i)))
      .map((i): [string, string] => [p.name, i]),
  )
}

/** The text between the markers: a layer table (the full truth) and a Mermaid drawing of it. */
export function renderGraph(packages: readonly WorkspacePackage[]): string {
  const layers = layersOf(packages)
  const ordered = [...packages].sort(
    (a, b) => layers.get(a.name)! - layers.get(b.name)! || (a.name < b.name ? -1 : 1),
  )
  const table = [
    '| Layer | Package | Folder | Imports |',
    '|---|---|---|---|',
    ...ordered.map(
      (p) =>
        `| ${layers.get(p.name)} | \`${p.name}\` | \`${p.folder}\` | ${p.imports.map((i) => `\`${i}\``).join(', ') || '—'} |`,
    ),
  ]
  const drawing = [
    '```mermaid',
    'flowchart BT',
    ...ordered.map((p) => `  ${nodeId(p.name)}["${p.name}"]`),
    ...directArrows(ordered).map(([from, to]) => `  ${nodeId(from)} --> ${nodeId(to)}`),
    '```',
  ]
  return [
    '',
    "Generated from the imports in each package's runtime code. The table lists every workspace package a",
    'package imports (layer 0 imports none; each other package sits one above the highest it imports); the',
    'drawing points an arrow at an import only when no other import already leads there. There is no',
    'cycle: the generator refuses one.',
    '',
    ...table,
    '',
    ...drawing,
    '',
  ].join('\n')
}

/** `doc` with the text between the markers replaced by `graph`. */
export function fillGraph(doc: string, graph: string): string {
  const begin = doc.indexOf(BEGIN)
  const end = doc.indexOf(END)
  if (begin < 0 || end < begin) throw new Error(`${DOC} needs the markers ${BEGIN} … ${END}`)
  return doc.slice(0, begin + BEGIN.length) + graph + doc.slice(end)
}

export async function generate(
  root = resolve(import.meta.dirname, '..'),
): Promise<Array<{ path: string; content: string }>> {
  const doc = readFileSync(join(root, DOC), 'utf8')
  return [{ path: DOC, content: fillGraph(doc, renderGraph(collectPackages(root))) }]
}
