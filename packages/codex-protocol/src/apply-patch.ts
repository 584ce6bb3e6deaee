// Codex's apply_patch envelope, both ways. Codex hooks see file edits as one `apply_patch` call whose
// `tool_input.command` is the patch text (protocols.md §B.3), so tack's `write` and `edit` are shown to
// them as a synthesized patch (40-hooks.md C3); a PreToolUse `updatedInput` patch is read back (C5, TL-32).
//
//   *** Begin Patch
//   *** Add File: <path>          (+ lines)
//   *** Update File: <path>       (@@ hunks of ' ', '-', '+' lines)
//   *** End Patch
import { structuredPatch } from 'diff'

export const BEGIN_PATCH = '*** Begin Patch'
export const END_PATCH = '*** End Patch'
const ADD_FILE = '*** Add File: '
const UPDATE_FILE = '*** Update File: '
const DELETE_FILE = '*** Delete File: '
const MOVE_TO = '*** Move to: '
const END_OF_FILE = '*** End of File'

/** Context lines around each change, as a model writing a Codex patch is told to give. */
const CONTEXT_LINES = 3

/** Lines of `text` as a patch carries them: LF-normalised, without the final newline's empty tail. */
function linesOf(text: string): string[] {
  const lf = text.replace(/\r\n?/g, '\n')
  if (lf === '') return []
  const lines = lf.split('\n')
  if (lines[lines.length - 1] === '') lines.pop()
  return lines
}

/** `text` with LF line ends and a final newline (when not empty), the form hunks are computed on. */
function normalised(text: string): string {
  const lines = linesOf(text)
  return lines.length ? `${lines.join('\n')}\n` : ''
}

function envelope(body: readonly string[]): string {
  return [BEGIN_PATCH, ...body, END_PATCH].join('\n')
}

/** A patch creating `path` with `content`. */
export function addFilePatch(path: string, content: string): string {
  return envelope([`${ADD_FILE}${path}`, ...linesOf(content).map((l) => `+${l}`)])
}

/**
 * A patch turning `before` into `after` in `path`: one `@@` hunk per changed region with up to three
 * lines of context. Equal sides give an update with no hunk.
 */
export function updateFilePatch(path: string, before: string, after: string): string {
  const from = normalised(before)
  const to = normalised(after)
  const hunks =
    from === to
      ? []
      : structuredPatch('a', 'b', from, to, undefined, undefined, { context: CONTEXT_LINES }).hunks
  const body = [`${UPDATE_FILE}${path}`]
  for (const hunk of hunks) {
    body.push('@@')
    // `\ No newline at end of file` has no place in Codex's grammar: both sides were normalised.
    for (const line of hunk.lines) if (!line.startsWith('\\')) body.push(line)
  }
  return envelope(body)
}

/**
 * An update patch from an edit's own strings, for when the file cannot be read (the edit will then
 * fail on its own): one hunk removing the old lines and adding the new ones.
 */
export function replacementPatch(path: string, oldText: string, newText: string): string {
  return envelope([
    `${UPDATE_FILE}${path}`,
    '@@',
    ...linesOf(oldText).map((l) => `-${l}`),
    ...linesOf(newText).map((l) => `+${l}`),
  ])
}

export interface PatchHunk {
  /** The lines the hunk expects (context and removed). */
  readonly oldLines: readonly string[]
  /** The lines it leaves (context and added). */
  readonly newLines: readonly string[]
}

/** One file operation of a patch that tack's `write` or `edit` can express. */
export type FilePatch =
  | { readonly kind: 'add'; readonly path: string; readonly content: string }
  | { readonly kind: 'update'; readonly path: string; readonly hunks: readonly PatchHunk[] }

export type ParsedPatch = { ok: true; patch: FilePatch } | { ok: false; problem: string }

/**
 * Reads a patch with exactly one Add File or Update File operation. Anything else — several files,
 * Delete File, Move to, a malformed envelope — is a problem, since one tack call edits one file.
 */
export function parseSingleFilePatch(text: string): ParsedPatch {
  const lines = text.replace(/\r\n?/g, '\n').trim().split('\n')
  if (lines[0]?.trim() !== BEGIN_PATCH)
    return { ok: false, problem: `the patch does not start with "${BEGIN_PATCH}"` }
  if (lines[lines.length - 1]?.trim() !== END_PATCH)
    return { ok: false, problem: `the patch does not end with "${END_PATCH}"` }
  const body = lines.slice(1, -1)
  const header = body[0] ?? ''
  const rest = body.slice(1)
  if (rest.some((l) => l.startsWith('*** ') && l !== END_OF_FILE) || header.startsWith(DELETE_FILE)) {
    const extra = [header, ...rest].find(
      (l) => l.startsWith(DELETE_FILE) || l.startsWith(MOVE_TO) || (l.startsWith('*** ') && l !== header),
    )
    return {
      ok: false,
      problem: `only one Add File or Update File operation can be applied (found "${extra}")`,
    }
  }
  if (header.startsWith(ADD_FILE)) {
    const path = header.slice(ADD_FILE.length).trim()
    if (!path) return { ok: false, problem: 'Add File has no path' }
    const added: string[] = []
    for (const line of rest) {
      if (!line.startsWith('+'))
        return { ok: false, problem: `an Add File line must start with "+" (got "${line}")` }
      added.push(line.slice(1))
    }
    return { ok: true, patch: { kind: 'add', path, content: added.length ? `${added.join('\n')}\n` : '' } }
  }
  if (header.startsWith(UPDATE_FILE)) {
    const path = header.slice(UPDATE_FILE.length).trim()
    if (!path) return { ok: false, problem: 'Update File has no path' }
    const hunks: PatchHunk[] = []
    let current: { oldLines: string[]; newLines: string[] } | undefined
    for (const line of rest) {
      if (line === END_OF_FILE) continue
      if (line.startsWith('@@')) {
        current = { oldLines: [], newLines: [] }
        hunks.push(current)
        continue
      }
      if (!current) {
        // Codex allows the first hunk's `@@` to be omitted.
        current = { oldLines: [], newLines: [] }
        hunks.push(current)
      }
      const mark = line[0]
      const content = line.slice(1)
      if (mark === ' ' || line === '') {
        current.oldLines.push(content)
        current.newLines.push(content)
      } else if (mark === '-') current.oldLines.push(content)
      else if (mark === '+') current.newLines.push(content)
      else return { ok: false, problem: `a hunk line must start with " ", "-" or "+" (got "${line}")` }
    }
    const real = hunks.filter((h) => h.oldLines.length > 0 || h.newLines.length > 0)
    if (real.length === 0) return { ok: false, problem: 'Update File has no hunk' }
    return { ok: true, patch: { kind: 'update', path, hunks: real } }
  }
  return { ok: false, problem: `expected "${ADD_FILE}<path>" or "${UPDATE_FILE}<path>" (got "${header}")` }
}

/**
 * Applies hunks to `text` in order, each found at or after the previous one's end, as Codex's
 * apply_patch does. Returns undefined when a hunk's old lines are not found (or are empty, which
 * Codex allows only for appending at the end).
 */
export function applyHunks(text: string, hunks: readonly PatchHunk[]): string | undefined {
  const lines = linesOf(text)
  let from = 0
  for (const hunk of hunks) {
    if (hunk.oldLines.length === 0) {
      lines.push(...hunk.newLines)
      from = lines.length
      continue
    }
    const at = findLines(lines, hunk.oldLines, from)
    if (at < 0) return undefined
    lines.splice(at, hunk.oldLines.length, ...hunk.newLines)
    from = at + hunk.newLines.length
  }
  return lines.length ? `${lines.join('\n')}\n` : ''
}

function findLines(haystack: readonly string[], needle: readonly string[], from: number): number {
  outer: for (let i = from; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer
    return i
  }
  return -1
}
