// Codex's tool shapes (40-hooks.md C3, protocols.md §B.3). Which tack tool is which Codex tool is not
// known here: each tool declares its Codex name (`hostNames.codex`, 0011-tool-declarations.md) —
// `bash` is `Bash`, `write` and `edit` are `apply_patch`. What stays here is truly Codex's: `Bash`
// takes `tool_input {command}`; `apply_patch` (matcher aliases `Edit` and `Write`) carries the patch
// text in `tool_input.command`, synthesized from write-shaped (`file_path`, `content`) or edit-shaped
// (`file_path`, `old_string`, `new_string`) arguments; every other tool (incl. `mcp__*`) keeps its
// name and raw arguments. `toTackArguments` reads a PreToolUse `updatedInput` back into tack's arguments.
import { readFile } from 'node:fs/promises'
import { isAbsolute, relative, resolve, sep } from 'node:path'
import { hostToolName, type ToolRegistry } from '@tack/tools'
import {
  addFilePatch,
  applyHunks,
  parseSingleFilePatch,
  replacementPatch,
  updateFilePatch,
} from './apply-patch.ts'

/** The name Codex hooks match on (first) and its matcher aliases. */
export interface CodexToolName {
  readonly name: string
  readonly aliases: readonly string[]
}

/** Matcher aliases, per Codex tool name. */
const ALIASES: Readonly<Record<string, readonly string[]>> = Object.freeze({
  apply_patch: Object.freeze(['Edit', 'Write']),
})

/** The Codex name of a tack tool: the one it declares, else its own. */
export function codexNameOf(tools: Pick<ToolRegistry, 'get'> | undefined, tackName: string): string {
  return hostToolName(tools?.get(tackName), 'codex', tackName)
}

export function codexToolName(codexName: string): CodexToolName {
  return { name: codexName, aliases: Object.hasOwn(ALIASES, codexName) ? ALIASES[codexName] : [] }
}

/** Matcher subjects in Codex's order: the canonical name, then each alias. */
export function matcherSubjects(codexName: string): string[] {
  const n = codexToolName(codexName)
  return [n.name, ...n.aliases]
}

type Args = Readonly<Record<string, unknown>>

const asArgs = (value: unknown): Args =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Args) : {}

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

/** Replaces the first (or every) occurrence of `oldText`; undefined when there is none. */
function replaced(text: string, oldText: string, newText: string, all: boolean): string | undefined {
  if (oldText === '' || !text.includes(oldText)) return undefined
  return all ? text.split(oldText).join(newText) : text.replace(oldText, () => newText)
}

/** apply_patch arguments in edit shape (a replacement) rather than write shape (a whole file). */
const isEditShaped = (args: Args): boolean => typeof args.old_string === 'string'

/**
 * The `tool_input` a Codex hook sees for a call of the Codex tool `codexName`. For `apply_patch` the
 * patch is computed against the file as it is now, so call it before the body runs (PreToolUse) and
 * reuse the value for PostToolUse.
 */
export async function codexToolInput(codexName: string, args: unknown, cwd: string): Promise<unknown> {
  const a = asArgs(args)
  if (codexName === 'apply_patch') return { command: await patchOf(a, cwd) }
  if (codexName === 'Bash') return { command: typeof a.command === 'string' ? a.command : '' }
  return args ?? {}
}

/** The patch an apply_patch call stands for: a whole-file write, or an edit's replacement. */
async function patchOf(a: Args, cwd: string): Promise<string> {
  switch (isEditShaped(a) ? 'edit' : 'write') {
    case 'write': {
      const filePath = String(a.file_path ?? '')
      const content = typeof a.content === 'string' ? a.content : ''
      const path = patchPath(cwd, filePath)
      const before = await readText(resolve(cwd, filePath))
      return before === undefined ? addFilePatch(path, content) : updateFilePatch(path, before, content)
    }
    case 'edit': {
      const filePath = String(a.file_path ?? '')
      const oldText = typeof a.old_string === 'string' ? a.old_string : ''
      const newText = typeof a.new_string === 'string' ? a.new_string : ''
      const path = patchPath(cwd, filePath)
      const before = await readText(resolve(cwd, filePath))
      const lfBefore = before?.replace(/\r\n?/g, '\n')
      const after =
        lfBefore === undefined
          ? undefined
          : replaced(
              lfBefore,
              oldText.replace(/\r\n?/g, '\n'),
              newText.replace(/\r\n?/g, '\n'),
              a.replace_all === true,
            )
      return lfBefore === undefined || after === undefined
        ? replacementPatch(path, oldText, newText)
        : updateFilePatch(path, lfBefore, after)
    }
  }
}

export type Translated = { ok: true; arguments: unknown } | { ok: false; problem: string }

/**
 * Reads a PreToolUse `updatedInput` (the shape of the Codex tool `codexName`) back into tack's
 * arguments. Codex requires a string `command` for Bash and apply_patch; other tools take it as their
 * arguments. `original` (the call's arguments) supplies what the Codex shape does not carry (bash's
 * timeout and description) and says which shape an apply_patch call takes (edit or write).
 */
export async function toTackArguments(
  codexName: string,
  updatedInput: unknown,
  original: unknown,
  cwd: string,
): Promise<Translated> {
  if (updatedInput === null || typeof updatedInput !== 'object' || Array.isArray(updatedInput)) {
    return { ok: false, problem: 'updatedInput must be an object' }
  }
  const input = updatedInput as Args
  if (codexName !== 'Bash' && codexName !== 'apply_patch') return { ok: true, arguments: input }
  if (typeof input.command !== 'string') {
    return { ok: false, problem: `updatedInput for ${codexName} must carry a string "command"` }
  }
  if (codexName === 'Bash') return { ok: true, arguments: { ...asArgs(original), command: input.command } }

  const parsed = parseSingleFilePatch(input.command)
  if (!parsed.ok) return { ok: false, problem: parsed.problem }
  const patch = parsed.patch
  const filePath = resolve(cwd, patch.path)
  if (!isEditShaped(asArgs(original))) {
    if (patch.kind === 'add') return { ok: true, arguments: { file_path: filePath, content: patch.content } }
    const before = await readText(filePath)
    const after = before === undefined ? undefined : applyHunks(before, patch.hunks)
    if (after === undefined) return { ok: false, problem: `the patch does not apply to ${patch.path}` }
    return { ok: true, arguments: { file_path: filePath, content: after } }
  }
  // edit: one hunk is one replacement; several are applied here and sent as a whole-file replacement.
  if (patch.kind === 'add') return { ok: false, problem: 'an edit cannot become Add File' }
  if (patch.hunks.length === 1 && patch.hunks[0].oldLines.length > 0) {
    const [hunk] = patch.hunks
    return {
      ok: true,
      arguments: {
        file_path: filePath,
        old_string: hunk.oldLines.join('\n'),
        new_string: hunk.newLines.join('\n'),
      },
    }
  }
  const before = await readText(filePath)
  const lfBefore = before?.replace(/\r\n?/g, '\n')
  const after = lfBefore === undefined ? undefined : applyHunks(lfBefore, patch.hunks)
  if (lfBefore === undefined || after === undefined || lfBefore === '') {
    return { ok: false, problem: `the patch does not apply to ${patch.path}` }
  }
  return { ok: true, arguments: { file_path: filePath, old_string: lfBefore, new_string: after } }
}
