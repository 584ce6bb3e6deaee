// tack tools as Codex hooks see them (40-hooks.md C3, protocols.md §B.3): `bash` is `Bash` with
// `tool_input {command}`; `write` and `edit` are `apply_patch` (matcher aliases `Edit` and `Write`)
// with the patch text in `tool_input.command`; every other tool (incl. `mcp__*`) keeps its name and
// raw arguments. `toTackArguments` reads a PreToolUse `updatedInput` back into tack's arguments.
import { readFile } from 'node:fs/promises'
import { isAbsolute, relative, resolve, sep } from 'node:path'
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

const APPLY_PATCH: CodexToolName = Object.freeze({
  name: 'apply_patch',
  aliases: Object.freeze(['Edit', 'Write']),
})
const BASH: CodexToolName = Object.freeze({ name: 'Bash', aliases: Object.freeze([]) })

export function codexToolName(tackName: string): CodexToolName {
  if (tackName === 'bash') return BASH
  if (tackName === 'write' || tackName === 'edit') return APPLY_PATCH
  return { name: tackName, aliases: [] }
}

/** Matcher subjects in Codex's order: the canonical name, then each alias. */
export function matcherSubjects(tackName: string): string[] {
  const n = codexToolName(tackName)
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

/**
 * The `tool_input` a Codex hook sees for a tack call. For `write` and `edit` the patch is computed
 * against the file as it is now, so call it before the body runs (PreToolUse) and reuse the value
 * for PostToolUse.
 */
export async function codexToolInput(tackName: string, args: unknown, cwd: string): Promise<unknown> {
  const a = asArgs(args)
  switch (tackName) {
    case 'bash':
      return { command: typeof a.command === 'string' ? a.command : '' }
    case 'write': {
      const filePath = String(a.file_path ?? '')
      const content = typeof a.content === 'string' ? a.content : ''
      const path = patchPath(cwd, filePath)
      const before = await readText(resolve(cwd, filePath))
      return {
        command: before === undefined ? addFilePatch(path, content) : updateFilePatch(path, before, content),
      }
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
      return {
        command:
          lfBefore === undefined || after === undefined
            ? replacementPatch(path, oldText, newText)
            : updateFilePatch(path, lfBefore, after),
      }
    }
    default:
      return args ?? {}
  }
}

export type Translated = { ok: true; arguments: unknown } | { ok: false; problem: string }

/**
 * Reads a PreToolUse `updatedInput` (Codex's shape) back into tack's arguments for `tackName`. Codex
 * requires a string `command` for Bash and apply_patch; other tools take it as their arguments.
 * `original` supplies what the Codex shape does not carry (bash's timeout and description).
 */
export async function toTackArguments(
  tackName: string,
  updatedInput: unknown,
  original: unknown,
  cwd: string,
): Promise<Translated> {
  if (updatedInput === null || typeof updatedInput !== 'object' || Array.isArray(updatedInput)) {
    return { ok: false, problem: 'updatedInput must be an object' }
  }
  const input = updatedInput as Args
  if (tackName !== 'bash' && tackName !== 'write' && tackName !== 'edit')
    return { ok: true, arguments: input }
  if (typeof input.command !== 'string') {
    return {
      ok: false,
      problem: `updatedInput for ${codexToolName(tackName).name} must carry a string "command"`,
    }
  }
  if (tackName === 'bash') return { ok: true, arguments: { ...asArgs(original), command: input.command } }

  const parsed = parseSingleFilePatch(input.command)
  if (!parsed.ok) return { ok: false, problem: parsed.problem }
  const patch = parsed.patch
  const filePath = resolve(cwd, patch.path)
  if (tackName === 'write') {
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
