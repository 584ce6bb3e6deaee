// Claude Code's tool shapes (40-hooks.md B8): `tool_input`, `tool_response`, and the way back from
// Claude's input shape to tack's arguments (an `updatedInput` rewrite, TL-32). Which tack tool is
// which Claude tool is not known here: each tool declares its Claude name (`hostNames.claude`,
// 0011-tool-declarations.md) and `claudeToolName` reads it. What stays here is truly Claude's:
// the shape of each Claude tool, and how tack's argument conventions (`timeout_ms`, `ignore_case`,
// `output`) map onto it. A tool without a Claude name keeps its own name and raw arguments
// (`run_code`, `mcp__*`, …). The mod host reuses these shapes.
import { isAbsolute, resolve } from 'node:path'
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
}

function resultText(result: ToolResultLike): string {
  return result.content.map((b) => (typeof b.text === 'string' ? b.text : '')).join('\n')
}

/** The `tool_response` of the Claude tool `claudeName` for a tack result (B8). */
export function toClaudeToolResponse(
  claudeName: string,
  args: unknown,
  result: ToolResultLike,
  cwd: string,
): Args {
  const a: Args = isObject(args) ? args : {}
  const success = !result.isError
  switch (claudeName) {
    case 'Write':
      return { filePath: absolute(a.file_path, cwd), success }
    case 'Edit':
      return {
        filePath: absolute(a.file_path, cwd),
        oldString: a.old_string,
        newString: a.new_string,
        success,
      }
    case 'Bash': {
      const code = result.error?.code
      return {
        stdout: resultText(result),
        stderr: '',
        interrupted: code === 'TIMEOUT' || code === 'ABORTED',
        isImage: false,
      }
    }
    default:
      return { output: resultText(result), isError: result.isError }
  }
}
