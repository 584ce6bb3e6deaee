// Requirement citations: finds every requirement id and spec-file name that code, tests and docs cite,
// and checks each against the catalogue in `docs/requirements/` (one file per area, one heading per id).
// The rules are written down in `docs/requirements/README.md`; this file is their executable form.
import { readdir, readFile, stat } from 'node:fs/promises'
import { join, relative, sep } from 'node:path'

/** Area file stem (`40-hooks`, `protocols`) → the normalised ids its headings define, lower-cased. */
export type Catalogue = ReadonlyMap<string, ReadonlySet<string>>

export interface Problem {
  /** Repository-relative path with `/` separators. */
  readonly file: string
  readonly line: number
  readonly citation: string
  readonly why: string
}

/** The folders whose files are scanned (a missing one is skipped), and single files at the root. */
export const SCANNED_ROOTS = ['packages', 'products', 'apps', 'docs', 'bench', 'scripts', 'examples'] as const
const SCANNED_ROOT_FILES = ['README.md'] as const
const SKIPPED_DIRS = new Set(['node_modules', 'build', 'dist', 'coverage', 'results', '.git'])
/** Data, not prose: only the "no path outside the repository" rule applies inside these folders. */
const DATA_DIRS = new Set(['fixtures', 'snapshots', '__snapshots__'])
const TEXT_FILE = /\.(ts|mts|cts|js|mjs|cjs|json|md|ya?ml|sh)$/
const SKIPPED_FILES = new Set(['package-lock.json'])

/**
 * Which area a bare id (a letter and a number, a section sign, the word requirement) is read against, by
 * the folder of the citing file: a package's own spec file. A line that names an area file, or a package, adds that area too.
 */
const HOME_AREAS: Readonly<Record<string, readonly string[]>> = {
  'packages/session': ['10-session-log'],
  'packages/store-sqlite': ['10-session-log'],
  'packages/store-postgres': ['95-fleet', '10-session-log'],
  'packages/fleet': ['95-fleet'],
  'packages/agent': ['20-agent-loop'],
  'packages/kernel': ['20-agent-loop'],
  'packages/llm': ['20-agent-loop'],
  'packages/tools': ['30-tools'],
  'packages/code-runtime': ['30-tools'],
  'packages/tool-fs': ['30-tools'],
  'packages/tool-bash': ['30-tools'],
  'packages/tool-web': ['30-tools'],
  'packages/process': ['30-tools'],
  'packages/subagent': ['30-tools'],
  'packages/permissions': ['30-tools'],
  'packages/commands': ['80-cli', '65-mod-host'],
  'packages/compaction': ['35-compaction'],
  'packages/hook-protocol': ['40-hooks', 'protocols'],
  'packages/claude-protocol': ['40-hooks', 'protocols'],
  'packages/codex-protocol': ['40-hooks', 'protocols'],
  'packages/hooks-claude': ['40-hooks', 'protocols'],
  'packages/hooks-codex': ['40-hooks', 'protocols'],
  'packages/acp': ['50-acp', 'protocols'],
  'products/agent-dice': ['60-agent-dice'],
  'packages/mcp': ['55-mcp'],
  'packages/skills': ['85-skills-and-commands'],
  'packages/mods': ['65-mod-host', 'claude-code-mods'],
  'products/agent-state': ['70-agent-state'],
  'apps/tack': ['80-cli'],
  bench: ['90-quality'],
}

/** Id families that belong to exactly one area, wherever they are cited. */
const PREFIX_AREA: Readonly<Record<string, string>> = {
  SL: '10-session-log',
  AL: '20-agent-loop',
  TL: '30-tools',
  CP: '35-compaction',
}
/**
 * Prefixes of capitals-hyphen-number tokens that are not requirement ids (UTF, SHA, …). Any other prefix
 * is reported, so a mistyped requirement prefix cannot pass as prose.
 */
export const NOT_REQUIREMENT_PREFIXES = new Set(['UTF', 'SHA', 'ISO', 'RFC', 'ECMA', 'CVE', 'HTTP', 'AES'])

const AREA_ALIASES: Readonly<Record<string, string>> = { overview: '00-overview' }

/** The normalised form of an id, as headings and citations are compared. */
export function normaliseId(id: string): string {
  return id.trim().replace(/\s+/g, ' ').toLowerCase()
}

/** The ids one area file defines: every `##`–`####` heading of the form `<id> — <title>`. */
export function idsOfArea(markdown: string): Set<string> {
  return new Set(entriesOfArea(markdown).map((e) => e.id))
}

export interface AreaEntry {
  /** Normalised id. */
  readonly id: string
  /** Heading level (2 for a section, 3 or 4 for a rule). */
  readonly level: number
  /** The text up to the next heading, trimmed. */
  readonly body: string
}

/** The id headings of one area file, in order, with the text under each. */
export function entriesOfArea(markdown: string): AreaEntry[] {
  const lines = markdown.split('\n')
  const entries: AreaEntry[] = []
  lines.forEach((line, i) => {
    const m = /^(#{2,4})\s+(.+?)\s+—\s/.exec(line)
    if (!m) return
    const end = lines.findIndex((l, j) => j > i && /^#{1,6}\s/.test(l))
    const body = lines
      .slice(i + 1, end === -1 ? undefined : end)
      .join('\n')
      .trim()
    entries.push({ id: normaliseId(m[2]), level: m[1].length, body })
  })
  return entries
}

export async function loadCatalogue(dir: string): Promise<Map<string, Set<string>>> {
  const out = new Map<string, Set<string>>()
  for (const name of (await readdir(dir)).sort()) {
    if (!name.endsWith('.md') || name === 'README.md') continue
    out.set(name.slice(0, -3), idsOfArea(await readFile(join(dir, name), 'utf8')))
  }
  return out
}

/** The home areas of a repository-relative path (`/` separators). */
export function homeAreasOf(path: string): string[] {
  const parts = path.split('/')
  if (parts[0] === 'docs' && parts[1] === 'requirements' && parts[2]?.endsWith('.md')) {
    return [parts[2].slice(0, -3)]
  }
  return [...(HOME_AREAS[parts.slice(0, 2).join('/')] ?? HOME_AREAS[parts[0]] ?? [])]
}

const FORBIDDEN_PATH =
  /(?:\.\.\/)+(?:shared|reference|spec)\/|\bshared\/(?:spec|reference)\b|\/work\/shared\b/g
const AREA_FILE = /\b(\d\d-[a-z]+(?:-[a-z]+)*)(\.md)?\b/g
const REFERENCE_FILE = /\b(protocols|claude-code-mods)\.md\b/g
/** After an unknown `NN-name` without `.md`, what makes it a citation rather than prose ("20-read session"). */
const CITATION_QUALIFIER = /^\s*(?:§|Part\b|requirements?\b|(?:SL|AL|TL|CP)-\d|[A-DPR]\d{1,2}\b)/
const REQUIREMENTS_PATH = /\bdocs\/requirements\/([A-Za-z0-9._-]+\.md)/g
const PREFIXED_ID = /\b([A-Z]{2,4})-(\d+)\b/g
const LETTER_ID = /\b([A-D]\d{1,2})\b/g
const PERFORMANCE_ID = /\b(P\d{1,2})\b/g
const RELIABILITY_ID = /\b(R\d{1,2})\b/g
const LETTER_SECTION = /§([A-F](?:\.\d+)?)(?!\w|\.\d)/g
const NUMBER_SECTION = /§(\d+[a-z]?(?:\.\d+)*)/g
const REQUIREMENT_WORD = /\b[Rr]equirements? (\d+)\b/g
const SECURITY_WORD = /\b[Ss]ecurity (\d+)\b/g
const HABIT_WORD = /\b[Hh]abits? (\d+)\b/g
const DECISION_WORD = /\b[Dd]ecisions? (\d+)\b/g
const PART_WORD = /\bPart ([A-D])\b/g

interface LineContext {
  readonly catalogue: Catalogue
  readonly home: readonly string[]
  readonly existingFiles: ReadonlySet<string>
}

/** Every problem of one file's text. `path` is repository-relative with `/` separators. */
export function scanText(
  path: string,
  text: string,
  catalogue: Catalogue,
  existingFiles?: ReadonlySet<string>,
): Problem[] {
  const isData = path.split('/').some((p) => DATA_DIRS.has(p))
  const ctx: LineContext = {
    catalogue,
    home: homeAreasOf(path),
    existingFiles: existingFiles ?? new Set([...catalogue.keys()].map((a) => `${a}.md`).concat('README.md')),
  }
  const problems: Problem[] = []
  text.split('\n').forEach((line, i) => {
    const report = (citation: string, why: string) =>
      problems.push({ file: path, line: i + 1, citation, why })
    for (const m of line.matchAll(FORBIDDEN_PATH)) {
      report(m[0], 'points outside the repository; cite the area file in docs/requirements/ instead')
    }
    if (!isData) scanLine(line, ctx, report)
  })
  return problems
}

function scanLine(line: string, ctx: LineContext, report: (citation: string, why: string) => void): void {
  const { catalogue } = ctx
  const named = new Set<string>()
  for (const m of line.matchAll(AREA_FILE)) {
    const stem = m[1]
    if (catalogue.has(stem)) named.add(stem)
    else if (m[2] || CITATION_QUALIFIER.test(line.slice((m.index ?? 0) + m[0].length))) {
      report(m[0], `no area file docs/requirements/${stem}.md`)
    }
  }
  for (const m of line.matchAll(REFERENCE_FILE)) {
    if (catalogue.has(m[1])) named.add(m[1])
    else report(m[0], `no area file docs/requirements/${m[0]}`)
  }
  for (const [alias, area] of Object.entries(AREA_ALIASES)) {
    if (new RegExp(`\\b${alias}\\b`, 'i').test(line)) named.add(area)
  }
  for (const m of line.matchAll(/(?:@tack\/|packages\/)([a-z][a-z0-9-]*)|\b(agent-dice|agent-state)\b/g)) {
    for (const area of homeAreasOf(m[1] ? `packages/${m[1]}` : `products/${m[2]}`)) named.add(area)
  }
  for (const m of line.matchAll(REQUIREMENTS_PATH)) {
    if (!ctx.existingFiles.has(m[1])) report(m[0], 'no such file in docs/requirements/')
  }
  const scope = [...new Set([...named, ...ctx.home])]
  const check = (citation: string, id: string, areas: readonly string[], hint: string) => {
    if (!areas.some((a) => catalogue.get(a)?.has(normaliseId(id)))) {
      const where = areas.length > 0 ? `looked in ${areas.map((a) => `${a}.md`).join(', ')}` : hint
      report(citation, `does not resolve (${where})`)
    }
  }
  for (const m of line.matchAll(PREFIXED_ID)) {
    const area = PREFIX_AREA[m[1]]
    if (area) check(m[0], m[0], [area], '')
    else if (!NOT_REQUIREMENT_PREFIXES.has(m[1])) {
      report(m[0], `unknown requirement prefix ${m[1]} (known: ${Object.keys(PREFIX_AREA).join(', ')})`)
    }
  }
  for (const m of line.matchAll(LETTER_ID)) check(m[0], m[1], ['40-hooks'], '')
  for (const m of line.matchAll(PERFORMANCE_ID)) check(m[0], m[1], ['90-quality'], '')
  for (const m of line.matchAll(RELIABILITY_ID)) {
    check(
      m[0],
      m[1],
      ['90-quality', ...scope.filter((a) => a === '60-agent-dice' || a === '70-agent-state')],
      '',
    )
  }
  for (const m of line.matchAll(LETTER_SECTION)) check(m[0], m[0], ['protocols'], '')
  const noArea = 'no area: name the spec file on the same line'
  for (const m of line.matchAll(NUMBER_SECTION)) check(m[0], m[0], scope, noArea)
  for (const m of line.matchAll(REQUIREMENT_WORD)) check(m[0], `requirement ${m[1]}`, scope, noArea)
  for (const m of line.matchAll(SECURITY_WORD)) check(m[0], `security ${m[1]}`, ['90-quality'], '')
  for (const m of line.matchAll(HABIT_WORD)) check(m[0], `habit ${m[1]}`, ['90-quality'], '')
  for (const m of line.matchAll(DECISION_WORD)) check(m[0], `decision ${m[1]}`, ['00-overview'], '')
  for (const m of line.matchAll(PART_WORD)) check(m[0], `part ${m[1]}`, ['40-hooks'], '')
}

/** Every scanned file under `root`, repository-relative with `/` separators, sorted. */
export async function scannedFiles(root: string): Promise<string[]> {
  const out: string[] = []
  const walk = async (dir: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => [])
    for (const e of entries) {
      const full = join(dir, e.name)
      if (e.isDirectory()) {
        if (!SKIPPED_DIRS.has(e.name)) await walk(full)
      } else if (e.isFile() && TEXT_FILE.test(e.name) && !SKIPPED_FILES.has(e.name)) {
        out.push(relative(root, full).split(sep).join('/'))
      }
    }
  }
  for (const top of SCANNED_ROOTS) await walk(join(root, top))
  for (const file of SCANNED_ROOT_FILES) {
    if (
      await stat(join(root, file)).then(
        (s) => s.isFile(),
        () => false,
      )
    )
      out.push(file)
  }
  return out.sort()
}

/** Scans the repository at `root` against its own `docs/requirements/`. */
export async function scanRepository(root: string): Promise<{ files: number; problems: Problem[] }> {
  const dir = join(root, 'docs', 'requirements')
  const catalogue = await loadCatalogue(dir)
  const existing = new Set(await readdir(dir))
  const files = await scannedFiles(root)
  const problems: Problem[] = []
  for (const file of files) {
    problems.push(...scanText(file, await readFile(join(root, file), 'utf8'), catalogue, existing))
  }
  return { files: files.length, problems }
}

export function formatProblem(p: Problem): string {
  return `${p.file}:${p.line}: ${p.citation} — ${p.why}`
}
