// Which project-instruction files a session reads, and in what order (80-cli §4a.1, issue 10 item 2):
// the user's own file in $TACK_HOME, then the files of every folder from the repository root (the
// nearest ancestor holding `.git`, else the working folder itself) down to the working folder. In each
// folder `AGENTS.md` comes first, then `CLAUDE.md` when present — unless it is the same file (a
// symlink) or the same text, as repositories that serve both agents often arrange. General first,
// specific last: a nested folder's words come later and so weigh more, as in Codex and Claude Code.
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs'
import { dirname, join, relative, sep } from 'node:path'

/** The file names read in every folder, in this order. */
export const INSTRUCTION_FILE_NAMES = ['AGENTS.md', 'CLAUDE.md'] as const

export interface InstructionFile {
  readonly path: string
  /** `user`: from $TACK_HOME; `project`: from the repository root down to the working folder. */
  readonly scope: 'user' | 'project'
}

/** The repository root of `cwd`: its nearest ancestor (or itself) holding `.git`; else `cwd`. */
export function repositoryRoot(cwd: string): string {
  for (let dir = cwd; ; dir = dirname(dir)) {
    if (existsSync(join(dir, '.git'))) return dir
    if (dirname(dir) === dir) return cwd
  }
}

/** The folders read, general to specific: the repository root, each folder below it, `cwd`. */
function projectFolders(cwd: string): string[] {
  const root = repositoryRoot(cwd)
  const folders = [root]
  const rest = relative(root, cwd)
  if (rest) {
    let dir = root
    for (const part of rest.split(sep)) folders.push((dir = join(dir, part)))
  }
  return folders
}

/** The instruction files that exist for a session in `cwd`, in reading order, without duplicates. */
export function findInstructionFiles(opts: { tackHome: string; cwd: string }): InstructionFile[] {
  const out: InstructionFile[] = []
  const seen = new Set<string>()
  const visit = (dir: string, scope: InstructionFile['scope']) => {
    const texts: string[] = []
    for (const name of INSTRUCTION_FILE_NAMES) {
      const path = join(dir, name)
      let real: string
      try {
        if (!statSync(path).isFile()) continue
        real = realpathSync(path)
      } catch {
        continue
      }
      if (seen.has(real)) continue
      seen.add(real)
      // CLAUDE.md that only repeats AGENTS.md word for word adds nothing but length.
      const text = safeRead(path)
      if (text !== undefined && texts.includes(text)) continue
      if (text !== undefined) texts.push(text)
      out.push({ path, scope })
    }
  }
  visit(opts.tackHome, 'user')
  for (const dir of projectFolders(opts.cwd)) visit(dir, 'project')
  return out
}

function safeRead(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8')
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
    const text = safeRead(file.path)
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
