// Claude Code's tool shapes (40-hooks.md B8): its tool names and their aliases, the `tool_input` each of
// its tools takes, and the `tool_response` it reports for each, built from that tool_input and the
// result. Everything here is in Claude's terms: which tack tool stands for which Claude tool, and how
// tack's arguments become Claude's input, is each tool's own declaration (`host.claude`,
// docs/decisions/0210-host-protocol-packages.md), read through @tack/tools' `HostMappingReader` and
// `claudeResponse` (tool-view.ts).
import { blockWords } from './block-words.ts'
import { isAbsolute, resolve } from 'node:path'
import { structuredPatch } from 'diff'
import { readTextOrNull } from './file-text.ts'
import { noOutputExpected } from './silent-command.ts'

/** A Claude tool's `tool_input` (or a tack tool's arguments when it has no Claude shape). */
export type ClaudeToolInput = Record<string, unknown>

/** Legacy names community hooks still match on, per Claude tool name. */
const ALIASES: Readonly<Record<string, readonly string[]>> = { Agent: ['Task'] }

/** What a matcher (and an `if` rule) tests: the Claude name, then its aliases. */
export function claudeToolSubjects(claudeName: string): string[] {
  return [claudeName, ...(Object.hasOwn(ALIASES, claudeName) ? ALIASES[claudeName] : [])]
}

const isObject = (v: unknown): v is ClaudeToolInput =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/** The fields of `o` that are not undefined: Claude's inputs leave out what a call does not set. */
export function claudeDefined(o: ClaudeToolInput): ClaudeToolInput {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined))
}

/** Claude Code's file tools take absolute paths: a relative one is resolved against the call's folder. */
export function claudeAbsolutePath(path: unknown, cwd: string): unknown {
  return typeof path === 'string' && path !== '' && !isAbsolute(path) ? resolve(cwd, path) : path
}

/** How a Claude tool's input fields become a tool's arguments on the way back (an `updatedInput`). */
export interface ClaudeInputReading {
  /** Claude field → argument name, where the names differ. */
  readonly rename?: Readonly<Record<string, string>>
  /** Claude-only fields with no counterpart in the tool, dropped. */
  readonly drop?: readonly string[]
  /** Per argument name (after renaming): Claude's string value → the tool's. */
  readonly values?: Readonly<Record<string, Readonly<Record<string, string>>>>
}

/**
 * A Claude `tool_input` (an `updatedInput`, replacing the whole input) → arguments, field by field in
 * the input's order: renamed fields translated, Claude-only fields dropped, anything else passed
 * through for the tool's schema to judge.
 */
export function argumentsFromClaudeInput(
  input: Readonly<ClaudeToolInput>,
  reading: ClaudeInputReading = {},
): ClaudeToolInput {
  const drop = new Set(reading.drop ?? [])
  const renames = reading.rename ?? {}
  const values = reading.values ?? {}
  const out: ClaudeToolInput = {}
  for (const [key, value] of Object.entries(input)) {
    if (drop.has(key)) continue
    const target = Object.hasOwn(renames, key) ? renames[key] : key
    const table = Object.hasOwn(values, target) ? values[target] : undefined
    out[target] = table && typeof value === 'string' ? (table[value] ?? value) : value
  }
  return out
}

/** The parts of a tool result a `tool_response` needs. */
export interface ClaudeToolResult {
  readonly content: readonly { readonly type: string; readonly text?: string }[]
  readonly isError: boolean
  readonly error?: { readonly code: string }
  readonly meta?: unknown
}

/** What was known before the call ran (the bridge's `CallStarts`). */
export interface ClaudeBeforeCall {
  /** The file a Write or Edit replaced: its text, null when it did not exist, undefined when unknown. */
  readonly originalFile?: string | null
  /** The todo list a TodoWrite replaced (the session's last `todo/write`); undefined: none, `[]`. */
  readonly previousTodos?: readonly unknown[]
}

/** The result's words; an image is its note, never its bytes (docs/decisions/0255-image-content.md). */
function resultText(result: ClaudeToolResult): string {
  return result.content.map(blockWords).join('\n')
}

/** The response of a tool Claude Code has no shape for: `{output, isError}` (a documented tack shape). */
export function claudeGenericResponse(result: ClaudeToolResult): ClaudeToolInput {
  return { output: resultText(result), isError: result.isError }
}

/**
 * How long the patch may take. jsdiff runs on the event loop: a whole-file rewrite of a large file would
 * otherwise block tack (and Ctrl-C) for seconds. Past it the patch is `[]` (hooks-claude README "Differences").
 */
const PATCH_TIMEOUT_MS = 100
/**
 * Below this many lines in all, the patch has no timeout: its worst case (every line changed) stays in
 * milliseconds, and a wall-clock limit would only make the result depend on the machine's load (a test
 * on a busy machine saw `[]` for a five-line file).
 */
const UNTIMED_PATCH_LINES = 2000

/** Claude Code's `structuredPatch`: jsdiff hunks (`oldStart, oldLines, newStart, newLines, lines`). */
export function claudeStructuredPatch(path: string, before: string, after: string): ClaudeToolInput[] {
  const small = lineCount(before) + lineCount(after) <= UNTIMED_PATCH_LINES
  const patch = structuredPatch(path, path, before, after, undefined, undefined, {
    context: 3,
    ...(small ? {} : { timeout: PATCH_TIMEOUT_MS }),
  })
  if (!patch) return []
  return patch.hunks.map((h) => ({
    oldStart: h.oldStart,
    oldLines: h.oldLines,
    newStart: h.newStart,
    newLines: h.newLines,
    lines: h.lines,
  }))
}

function lineCount(text: string): number {
  let count = 1
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) count++
  return count
}

/**
 * Claude Code's Bash `stdout`: the output without its leading and trailing blank lines (a line of
 * only whitespace counts as blank), so `echo hi` gives `hi`; blank lines inside and the spaces of a
 * line with text stay.
 */
export function withoutBlankEnds(output: string): string {
  const lines = output.split('\n')
  let first = 0
  while (first < lines.length && lines[first].trim() === '') first++
  let last = lines.length - 1
  while (last >= first && lines[last].trim() === '') last--
  return lines.slice(first, last + 1).join('\n')
}

const commandOutput = (result: ClaudeToolResult): string | undefined => {
  const output = (result.meta as { output?: unknown } | undefined)?.output
  return typeof output === 'string' ? output : undefined
}

/** The listing lines of a Glob/Grep result (tack's notes in `[…]` left out). */
const listing = (result: ClaudeToolResult): string[] =>
  result.isError
    ? []
    : resultText(result)
        .split('\n')
        .filter((l) => l !== '' && !/^\[.*\]$/.test(l))

/**
 * The `tool_response` Claude Code reports for its tool `claudeName` called with `input` (issue 11.2;
 * protocols.md §F): Write, Edit, Bash, Read, Glob, Grep and TodoWrite; any other name gets
 * `{output, isError}` (README "Differences"). Read and Edit read the file as it is now.
 */
export function claudeToolResponse(
  claudeName: string,
  input: unknown,
  result: ClaudeToolResult,
  cwd: string,
  before: ClaudeBeforeCall = {},
): ClaudeToolInput {
  const a: ClaudeToolInput = isObject(input) ? input : {}
  const filePath = claudeAbsolutePath(a.file_path, cwd)
  const now = () => (typeof filePath === 'string' ? readTextOrNull(filePath) : null)
  switch (claudeName) {
    case 'Write': {
      const original = before.originalFile ?? null
      const content = typeof a.content === 'string' ? a.content : ''
      return {
        type: original === null ? 'create' : 'update',
        filePath,
        content,
        structuredPatch: original === null ? [] : claudeStructuredPatch(String(filePath), original, content),
        originalFile: original,
        userModified: false,
      }
    }
    case 'Edit': {
      const original = before.originalFile ?? null
      const after = now()
      return {
        filePath,
        oldString: a.old_string,
        newString: a.new_string,
        originalFile: original,
        structuredPatch:
          original !== null && after !== null ? claudeStructuredPatch(String(filePath), original, after) : [],
        userModified: false,
        replaceAll: a.replace_all === true,
      }
    }
    case 'Bash': {
      const code = result.error?.code
      return {
        stdout: withoutBlankEnds(commandOutput(result) ?? resultText(result)),
        stderr: '',
        interrupted: code === 'TIMEOUT' || code === 'ABORTED',
        isImage: false,
        noOutputExpected: noOutputExpected(typeof a.command === 'string' ? a.command : ''),
      }
    }
    case 'Read': {
      const text = now() ?? ''
      // Claude Code counts the empty line after a final newline and keeps that newline in `content`.
      const all = text === '' ? [] : text.split('\n')
      const offset = typeof a.offset === 'number' && a.offset > 0 ? a.offset : 1
      const lines =
        typeof a.limit === 'number' ? all.slice(offset - 1, offset - 1 + a.limit) : all.slice(offset - 1)
      return {
        type: 'text',
        file: {
          filePath,
          content: lines.join('\n'),
          numLines: lines.length,
          startLine: offset,
          totalLines: all.length,
        },
      }
    }
    case 'Glob': {
      const filenames = listing(result)
      return {
        filenames,
        durationMs: 0,
        numFiles: filenames.length,
        truncated: /\[.*truncat/i.test(resultText(result)),
      }
    }
    case 'Grep': {
      const mode = typeof a.output_mode === 'string' ? a.output_mode : 'files_with_matches'
      const lines = listing(result)
      if (mode === 'files_with_matches') return { mode, filenames: lines, numFiles: lines.length }
      return { mode, numFiles: 0, filenames: [], content: lines.join('\n'), numLines: lines.length }
    }
    case 'TodoWrite':
      return {
        oldTodos: before.previousTodos ?? [],
        newTodos: !result.isError && Array.isArray(a.todos) ? a.todos : (before.previousTodos ?? []),
      }
    default:
      return claudeGenericResponse(result)
  }
}
