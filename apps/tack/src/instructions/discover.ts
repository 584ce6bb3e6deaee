// Which project-instruction files a session reads, and in what order (80-cli §4a.1, issue 10 item 2):
// the user's own file in $TACK_HOME, then the files of every folder from the repository root (the
// nearest ancestor holding `.git`, else the working folder itself) down to the working folder. In each
// folder `AGENTS.md` comes first, then `CLAUDE.md` when present — unless it is the same file (a
// symlink) or the same text, as repositories that serve both agents often arrange. General first,
// specific last: a nested folder's words come later and so weigh more, as in Codex and Claude Code.
// A file is followed through a symlink only while its target stays inside the folder it is read from
// — the repository root for a project file, $TACK_HOME for the user's own — so a cloned repository's
// `AGENTS.md -> ~/.aws/credentials` is skipped with a warning, never sent to the model
// (docs/decisions/0021-project-instructions.md, docs/security.md).
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs'
import { dirname, join, relative, sep } from 'node:path'
import { isInside } from '@tack/tools'
import { printable } from '../printable.ts'

/** The file names read in every folder, in this order. */
export const INSTRUCTION_FILE_NAMES = ['AGENTS.md', 'CLAUDE.md'] as const

export interface InstructionFile {
  readonly path: string
  /** `user`: from $TACK_HOME; `project`: from the repository root down to the working folder. */
  readonly scope: 'user' | 'project'
  /** The folder (real path) the file's real path must stay inside: $TACK_HOME, or the repository root. */
  readonly within: string
}

/** A file left out because it leads (through a symlink) outside the folder it was found in. */
export interface SkippedFile {
  readonly path: string
  /** Where it leads: its real path. */
  readonly target: string
  readonly within: string
}

/** The one-line warning for a skipped file, as stderr and `tack doctor` show it. */
export function skippedWarning(s: SkippedFile): string {
  return printable(
    `skipped ${s.path}: it leads to ${s.target}, outside ${s.within}; instruction files are read only from inside the folder they are found in`,
  )
}

/** The real path of `path` when it stays inside `within`; otherwise (or unreadable) undefined. */
function realInside(path: string, within: string): { real: string; inside: boolean } | undefined {
  try {
    if (!statSync(path).isFile()) return undefined
    const real = realpathSync(path)
    return { real, inside: isInside(within, real) }
  } catch {
    return undefined
  }
}

const realOrSelf = (path: string) => {
  try {
    return realpathSync(path)
  } catch {
    return path
  }
}

/** The repository root of `cwd`: its nearest ancestor (or itself) holding `.git`; else `cwd`. */
export function repositoryRoot(cwd: string): string {
  for (let dir = cwd; ; dir = dirname(dir)) {
    if (existsSync(join(dir, '.git'))) return dir
    if (dirname(dir) === dir) return cwd
  }
}

/** The folders read, general to specific: the repository root, each folder below it, `cwd`. */
function projectFolders(cwd: string, root = repositoryRoot(cwd)): string[] {
  const folders = [root]
  const rest = relative(root, cwd)
  if (rest) {
    let dir = root
    for (const part of rest.split(sep)) folders.push((dir = join(dir, part)))
  }
  return folders
}

/**
 * The instruction files that exist for a session in `cwd`, in reading order, without duplicates. A file
 * leading outside its folder is left out and passed to `onSkip`.
 */
export function findInstructionFiles(opts: {
  tackHome: string
  cwd: string
  onSkip?: (skipped: SkippedFile) => void
}): InstructionFile[] {
  const out: InstructionFile[] = []
  const seen = new Set<string>()
  const visit = (dir: string, scope: InstructionFile['scope'], within: string) => {
    const texts: string[] = []
    for (const name of INSTRUCTION_FILE_NAMES) {
      const path = join(dir, name)
      const found = realInside(path, within)
      if (!found) continue
      if (!found.inside) {
        opts.onSkip?.({ path, target: found.real, within })
        continue
      }
      if (seen.has(found.real)) continue
      seen.add(found.real)
      const file = { path, scope, within }
      // CLAUDE.md that only repeats AGENTS.md word for word adds nothing but length.
      const text = readInside(file)
      if (text !== undefined && texts.includes(text)) continue
      if (text !== undefined) texts.push(text)
      out.push(file)
    }
  }
  visit(opts.tackHome, 'user', realOrSelf(opts.tackHome))
  const root = repositoryRoot(opts.cwd)
  for (const dir of projectFolders(opts.cwd, root)) visit(dir, 'project', realOrSelf(root))
  return out
}

/** The file's text, read through its real path once more checked to be inside its folder. */
function readInside(file: InstructionFile): string | undefined {
  const found = realInside(file.path, file.within)
  if (!found?.inside) return undefined
  try {
    return readFileSync(found.real, 'utf8')
  } catch {
    return undefined
  }
}

export interface ReadFile {
  readonly path: string
  readonly scope: InstructionFile['scope']
  /** Bytes of the file on disk. */
  readonly bytes: number
  /** Bytes of it in the text (less than `bytes` when the cap cut it; 0 when the cap came before it). */
  readonly included: number
}

export interface Instructions {
  /** The text for the session prefix; empty when no file was found. */
  readonly text: string
  readonly files: readonly ReadFile[]
  /** Whether the cap cut the text. */
  readonly cut: boolean
}

/**
 * Reads `files` into one text, each under a heading naming it, at most `maxBytes` bytes of file
 * content in all. Past the cap the text is cut at a character boundary and a note says what was left
 * out, so the model knows it did not see everything (and where to read the rest).
 */
export function readInstructions(files: readonly InstructionFile[], maxBytes: number): Instructions {
  let budget = maxBytes
  const parts: string[] = []
  const read: ReadFile[] = []
  const left: string[] = []
  for (const file of files) {
    const text = readInside(file)
    if (text === undefined) continue
    const bytes = Buffer.byteLength(text)
    if (budget <= 0) {
      read.push({ path: file.path, scope: file.scope, bytes, included: 0 })
      left.push(file.path)
      continue
    }
    const kept = bytes <= budget ? text : cutUtf8(text, budget)
    const included = Buffer.byteLength(kept)
    budget -= included
    read.push({ path: file.path, scope: file.scope, bytes, included })
    if (included < bytes) left.push(`${file.path} (from byte ${included})`)
    parts.push(`## ${file.path}\n\n${kept.trimEnd()}`)
  }
  if (parts.length === 0 && left.length === 0) return { text: '', files: read, cut: false }
  const cut = left.length > 0
  const body = [
    'Instructions for this workspace, from AGENTS.md / CLAUDE.md files: your own first, then the repository root down to the working folder. Later (more specific) files take precedence over earlier ones.',
    ...parts,
    ...(cut
      ? [
          `[tack: the instructions were cut at ${maxBytes} bytes (plugins.instructions.maxBytes); not included: ${left.join(', ')}. Read them with the read tool if they matter.]`,
        ]
      : []),
  ].join('\n\n')
  return { text: `<instructions>\n${body}\n</instructions>`, files: read, cut }
}

/** The longest prefix of `text` of at most `maxBytes` UTF-8 bytes that ends on a character boundary. */
function cutUtf8(text: string, maxBytes: number): string {
  const buf = Buffer.from(text)
  let end = Math.min(maxBytes, buf.length)
  // A continuation byte (10xxxxxx) means the cut falls inside a character: step back to its start.
  while (end > 0 && end < buf.length && (buf[end] & 0xc0) === 0x80) end--
  return buf.subarray(0, end).toString('utf8')
}
