// Codex's tool shapes (40-hooks.md C3, protocols.md §B.3), in Codex's terms: `Bash` takes
// `tool_input {command}`; `apply_patch` (matcher aliases `Edit` and `Write`) carries the patch text in
// `tool_input.command`. Which tack tool is which Codex tool, and how its arguments become these inputs, is
// each tool's own declaration (`host.codex`, docs/decisions/0210-host-protocol-packages.md); the helpers
// below build and read those inputs from plain facts (a path, a file's new text, a replacement).
import { readFile } from 'node:fs/promises'
import { isAbsolute, relative, resolve, sep } from 'node:path'
import {
  addFilePatch,
  applyHunks,
  parseSingleFilePatch,
  replacementPatch,
  updateFilePatch,
} from './apply-patch.ts'

/** A Codex tool's `tool_input`. */
export type CodexToolInput = Readonly<Record<string, unknown>>

/** The name Codex hooks match on (first) and its matcher aliases. */
export interface CodexToolName {
  readonly name: string
  readonly aliases: readonly string[]
}

/** Matcher aliases, per Codex tool name. */
const ALIASES: Readonly<Record<string, readonly string[]>> = Object.freeze({
  apply_patch: Object.freeze(['Edit', 'Write']),
})

export function codexToolName(codexName: string): CodexToolName {
  return { name: codexName, aliases: Object.hasOwn(ALIASES, codexName) ? ALIASES[codexName] : [] }
}

/** Matcher subjects in Codex's order: the canonical name, then each alias. */
export function matcherSubjects(codexName: string): string[] {
  const n = codexToolName(codexName)
  return [n.name, ...n.aliases]
}

/** A path as a Codex patch names it: relative to the workspace when inside it, else absolute. */
export function patchPath(cwd: string, filePath: string): string {
  const absolute = resolve(cwd, filePath)
  const rel = relative(cwd, absolute)
  return rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel) ? absolute : rel
}

async function readText(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8')
  } catch {
    return undefined
  }
}

/** The file a patch is about: its path as the patch names it, and its text now (undefined: none). */
async function patchTarget(
  cwd: string,
  filePath: string,
): Promise<{ path: string; before: string | undefined }> {
  return { path: patchPath(cwd, filePath), before: await readText(resolve(cwd, filePath)) }
}

/** Replaces the first (or every) occurrence of `oldText`; undefined when there is none. */
function replaced(text: string, oldText: string, newText: string, all: boolean): string | undefined {
  if (oldText === '' || !text.includes(oldText)) return undefined
  return all ? text.split(oldText).join(newText) : text.replace(oldText, () => newText)
}

/** Codex's input for a command: `{command}`. */
export function codexBashInput(command: unknown): CodexToolInput {
  return { command: typeof command === 'string' ? command : '' }
}

/** The command of a Bash or apply_patch `updatedInput`; Codex requires a string. Throws the problem. */
export function codexCommandOf(codexName: string, input: CodexToolInput): string {
  if (typeof input.command !== 'string')
    throw new Error(`updatedInput for ${codexName} must carry a string "command"`)
  return input.command
}

/** The apply_patch input of a whole-file write, against the file as it is now (call before the write). */
export async function codexWriteInput(
  cwd: string,
  filePath: string,
  content: string,
): Promise<CodexToolInput> {
  const { path, before } = await patchTarget(cwd, filePath)
  return {
    command: before === undefined ? addFilePatch(path, content) : updateFilePatch(path, before, content),
  }
}

/** The apply_patch input of a replacement in a file, against the file as it is now (call before the edit). */
export async function codexEditInput(
  cwd: string,
  filePath: string,
  oldText: string,
  newText: string,
  all: boolean,
): Promise<CodexToolInput> {
  const { path, before } = await patchTarget(cwd, filePath)
  const lfBefore = before?.replace(/\r\n?/g, '\n')
  const after =
    lfBefore === undefined
      ? undefined
      : replaced(lfBefore, oldText.replace(/\r\n?/g, '\n'), newText.replace(/\r\n?/g, '\n'), all)
  return {
    command:
      lfBefore === undefined || after === undefined
        ? replacementPatch(path, oldText, newText)
        : updateFilePatch(path, lfBefore, after),
  }
}

/** A patch read back as a whole-file write: the absolute path and its new text. Throws the problem. */
export async function writeFromCodexPatch(
  input: CodexToolInput,
  cwd: string,
): Promise<{ path: string; content: string }> {
  const patch = parsedPatch(input)
  const path = resolve(cwd, patch.path)
  if (patch.kind === 'add') return { path, content: patch.content }
  const before = await readText(path)
  const after = before === undefined ? undefined : applyHunks(before, patch.hunks)
  if (after === undefined) throw new Error(`the patch does not apply to ${patch.path}`)
  return { path, content: after }
}

/**
 * A patch read back as one replacement: one hunk is its old and new lines; several are applied here
 * and become a whole-file replacement. Throws the problem.
 */
export async function replacementFromCodexPatch(
  input: CodexToolInput,
  cwd: string,
): Promise<{ path: string; oldText: string; newText: string }> {
  const patch = parsedPatch(input)
  const path = resolve(cwd, patch.path)
  if (patch.kind === 'add') throw new Error('an edit cannot become Add File')
  if (patch.hunks.length === 1 && patch.hunks[0].oldLines.length > 0) {
    const [hunk] = patch.hunks
    return { path, oldText: hunk.oldLines.join('\n'), newText: hunk.newLines.join('\n') }
  }
  const before = await readText(path)
  const lfBefore = before?.replace(/\r\n?/g, '\n')
  const after = lfBefore === undefined ? undefined : applyHunks(lfBefore, patch.hunks)
  if (lfBefore === undefined || after === undefined || lfBefore === '')
    throw new Error(`the patch does not apply to ${patch.path}`)
  return { path, oldText: lfBefore, newText: after }
}

function parsedPatch(input: CodexToolInput) {
  const parsed = parseSingleFilePatch(codexCommandOf('apply_patch', input))
  if (!parsed.ok) throw new Error(parsed.problem)
  return parsed.patch
}
