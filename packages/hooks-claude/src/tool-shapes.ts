// Claude Code's tool shapes (40-hooks.md B8): `tool_input`, `tool_response`, and the way back from
// Claude's input shape to tack's arguments (an `updatedInput` rewrite, TL-32). Which tack tool is
// which Claude tool is not known here: each tool declares its Claude name (`hostNames.claude`,
// 0011-tool-declarations.md) and `claudeToolName` reads it. What stays here is truly Claude's:
// the shape of each Claude tool, and how tack's argument conventions (`timeout_ms`, `ignore_case`,
// `output`) map onto it. A tool without a Claude name keeps its own name and raw arguments
// (`run_code`, `mcp__*`, …). The mod host reuses these shapes.
import { isAbsolute, resolve } from 'node:path'
import { structuredPatch } from 'diff'
import { readTextOrNull } from './claude-fields.ts'
import { noOutputExpected } from './silent-command.ts'
import { hostToolName, type ToolRegistry } from '@tack/tools'

/** Legacy names community hooks still match on, per Claude tool name. */
const ALIASES: Readonly<Record<string, readonly string[]>> = { Agent: ['Task'] }

type Args = Record<string, unknown>

const isObject = (v: unknown): v is Args => typeof v === 'object' && v !== null && !Array.isArray(v)
const defined = (o: Args): Args => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined))

/** The tools a name is looked up in: the registry, or nothing (every tool keeps its own name). */
export type ToolLookup = Pick<ToolRegistry, 'get'> | undefined

/** The Claude Code name of a tack tool: the one it declares, else its own. */
export function claudeToolName(tools: ToolLookup, tackName: string): string {
  return hostToolName(tools?.get(tackName), 'claude', tackName)
}

/** What a matcher (and an `if` rule) tests: the Claude name, then its aliases. */
export function claudeToolSubjects(claudeName: string): string[] {
  return [claudeName, ...(ALIASES[claudeName] ?? [])]
}

function absolute(path: unknown, cwd: string): unknown {
  return typeof path === 'string' && path !== '' && !isAbsolute(path) ? resolve(cwd, path) : path
}

const GREP_MODE_TO_CLAUDE: Readonly<Record<string, string>> = {
  files: 'files_with_matches',
  content: 'content',
  count: 'count',
}
const GREP_MODE_FROM_CLAUDE: Readonly<Record<string, string>> = {
  files_with_matches: 'files',
  content: 'content',
  count: 'count',
}

/**
 * tack arguments (validated, defaults filled) → the `tool_input` of the Claude tool `claudeName`.
 * A name that is not one of Claude's tools: the arguments unchanged.
 */
export function toClaudeToolInput(claudeName: string, args: unknown, cwd: string): Args {
  const a: Args = isObject(args) ? args : {}
  switch (claudeName) {
    case 'Read':
      return defined({ file_path: absolute(a.file_path, cwd), offset: a.offset, limit: a.limit })
    case 'Write':
      return defined({ file_path: absolute(a.file_path, cwd), content: a.content })
    case 'Edit':
      return defined({
        file_path: absolute(a.file_path, cwd),
        old_string: a.old_string,
        new_string: a.new_string,
        replace_all: a.replace_all,
      })
    case 'Bash':
      return defined({ command: a.command, description: a.description, timeout: a.timeout_ms })
    case 'Glob':
      return defined({ pattern: a.pattern, path: a.path })
    case 'Grep':
      return defined({
        pattern: a.pattern,
        path: a.path,
        glob: a.glob,
        '-i': a.ignore_case,
        output_mode: typeof a.output === 'string' ? (GREP_MODE_TO_CLAUDE[a.output] ?? a.output) : a.output,
      })
    case 'WebFetch':
      return defined({ url: a.url, prompt: '' })
    case 'WebSearch':
      return defined({ query: a.query })
    case 'Agent':
      return defined({ prompt: a.prompt, description: a.description, subagent_type: 'general-purpose' })
    default:
      return { ...a }
  }
}

/** Claude-only input fields with no tack counterpart, dropped on the way back, per Claude tool. */
const CLAUDE_ONLY: Readonly<Record<string, readonly string[]>> = {
  Bash: ['run_in_background'],
  Grep: ['multiline', '-n', '-A', '-B', '-C', 'head_limit', 'type'],
  WebFetch: ['prompt'],
  WebSearch: ['allowed_domains', 'blocked_domains'],
  Agent: ['subagent_type', 'model'],
}

/** Claude field → tack field, per Claude tool, where the names differ. */
const RENAMES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  Bash: { timeout: 'timeout_ms' },
  Grep: { '-i': 'ignore_case', output_mode: 'output' },
}

/**
 * An `updatedInput` (the shape of the Claude tool `claudeName`, replacing the whole input) → tack
 * arguments. Renamed fields are translated, Claude-only fields dropped, anything else passed through
 * for the tool's schema to judge.
 */
export function fromClaudeToolInput(claudeName: string, input: Readonly<Args>): Args {
  const drop = new Set(Object.hasOwn(CLAUDE_ONLY, claudeName) ? CLAUDE_ONLY[claudeName] : [])
  const renames = Object.hasOwn(RENAMES, claudeName) ? RENAMES[claudeName] : {}
  const out: Args = {}
  for (const [key, value] of Object.entries(input)) {
    if (drop.has(key)) continue
    const target = Object.hasOwn(renames, key) ? renames[key] : key
    out[target] =
      claudeName === 'Grep' && target === 'output' && typeof value === 'string'
        ? (GREP_MODE_FROM_CLAUDE[value] ?? value)
        : value
  }
  return out
}

/** The parts of a tool result the response shape needs. */
export interface ToolResultLike {
  readonly content: readonly { readonly type: string; readonly text?: string }[]
  readonly isError: boolean
  readonly error?: { readonly code: string }
  readonly meta?: unknown
}

/** What was known before the call ran (see `CallStarts`). */
export interface BeforeCall {
  /** The file a Write or Edit replaced: its text, null when it did not exist, undefined when unknown. */
  readonly originalFile?: string | null
  /** The todo list a TodoWrite replaced (the session's last `todo/write`); undefined: none, `[]`. */
  readonly previousTodos?: readonly unknown[]
}

function resultText(result: ToolResultLike): string {
  return result.content.map((b) => (typeof b.text === 'string' ? b.text : '')).join('\n')
}

/**
 * How long the patch may take. jsdiff runs on the event loop: a whole-file rewrite of a large file would
 * otherwise block tack (and Ctrl-C) for seconds. Past it the patch is `[]` (README "Differences").
 */
const PATCH_TIMEOUT_MS = 100
/**
 * Below this many lines in all, the patch has no timeout: its worst case (every line changed) stays in
 * milliseconds, and a wall-clock limit would only make the result depend on the machine's load (a test
 * on a busy machine saw `[]` for a five-line file).
 */
const UNTIMED_PATCH_LINES = 2000

/** Claude Code's `structuredPatch`: jsdiff hunks (`oldStart, oldLines, newStart, newLines, lines`). */
export function claudeStructuredPatch(path: string, before: string, after: string): Args[] {
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

const bashOutput = (result: ToolResultLike): string | undefined => {
  const output = (result.meta as { output?: unknown } | undefined)?.output
  return typeof output === 'string' ? output : undefined
}

/** The listing lines of a Glob/Grep result (tack's notes in `[…]` left out). */
const listing = (result: ToolResultLike): string[] =>
  result.isError
    ? []
    : resultText(result)
        .split('\n')
        .filter((l) => l !== '' && !/^\[.*\]$/.test(l))

/**
 * The `tool_response` of the Claude tool `claudeName` for a tack result, shaped as Claude Code shapes
 * it (issue 11.2; protocols.md §F): Write, Edit, Bash, Read, Glob, Grep and TodoWrite; other tools get
 * `{output, isError}` (a documented tack shape, README "Differences").
 */
export function toClaudeToolResponse(
  claudeName: string,
  args: unknown,
  result: ToolResultLike,
  cwd: string,
  before: BeforeCall = {},
): Args {
  const a: Args = isObject(args) ? args : {}
  const filePath = absolute(a.file_path, cwd)
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
        stdout: withoutBlankEnds(bashOutput(result) ?? resultText(result)),
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
      const mode =
        typeof a.output === 'string' ? (GREP_MODE_TO_CLAUDE[a.output] ?? a.output) : 'files_with_matches'
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
      return { output: resultText(result), isError: result.isError }
  }
}
