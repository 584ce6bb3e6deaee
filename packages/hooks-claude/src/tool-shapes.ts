// tack tools as Claude Code hooks see them (40-hooks.md B8): names, `tool_input`, `tool_response`, and
// the way back from Claude's input shape to tack's arguments (an `updatedInput` rewrite, TL-32). The
// mod host reuses this table.
import { isAbsolute, resolve } from 'node:path'

/** tack tool name → Claude Code tool name; tools not listed keep their name (`run_code`, `mcp__*`, …). */
export const CLAUDE_TOOL_NAMES: Readonly<Record<string, string>> = Object.freeze({
  read: 'Read',
  write: 'Write',
  edit: 'Edit',
  bash: 'Bash',
  glob: 'Glob',
  grep: 'Grep',
  web_fetch: 'WebFetch',
  web_search: 'WebSearch',
  subagent: 'Agent',
})

/** Legacy names community hooks still match on, per Claude tool name. */
const ALIASES: Readonly<Record<string, readonly string[]>> = { Agent: ['Task'] }

type Args = Record<string, unknown>

const isObject = (v: unknown): v is Args => typeof v === 'object' && v !== null && !Array.isArray(v)
const defined = (o: Args): Args => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined))

export function claudeToolName(tackName: string): string {
  return CLAUDE_TOOL_NAMES[tackName] ?? tackName
}

/** What a matcher (and an `if` rule) tests: the Claude name, then its aliases. */
export function claudeToolSubjects(tackName: string): string[] {
  const name = claudeToolName(tackName)
  return [name, ...(ALIASES[name] ?? [])]
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

/** tack arguments (validated, defaults filled) → Claude's `tool_input`. Unknown tools: unchanged. */
export function toClaudeToolInput(tackName: string, args: unknown, cwd: string): Args {
  const a: Args = isObject(args) ? args : {}
  switch (tackName) {
    case 'read':
      return defined({ file_path: absolute(a.file_path, cwd), offset: a.offset, limit: a.limit })
    case 'write':
      return defined({ file_path: absolute(a.file_path, cwd), content: a.content })
    case 'edit':
      return defined({
        file_path: absolute(a.file_path, cwd),
        old_string: a.old_string,
        new_string: a.new_string,
        replace_all: a.replace_all,
      })
    case 'bash':
      return defined({ command: a.command, description: a.description, timeout: a.timeout_ms })
    case 'glob':
      return defined({ pattern: a.pattern, path: a.path })
    case 'grep':
      return defined({
        pattern: a.pattern,
        path: a.path,
        glob: a.glob,
        '-i': a.ignore_case,
        output_mode: typeof a.output === 'string' ? (GREP_MODE_TO_CLAUDE[a.output] ?? a.output) : a.output,
      })
    case 'web_fetch':
      return defined({ url: a.url, prompt: '' })
    case 'web_search':
      return defined({ query: a.query })
    case 'subagent':
      return defined({ prompt: a.prompt, description: a.description, subagent_type: 'general-purpose' })
    default:
      return { ...a }
  }
}

/** Claude-only input fields with no tack counterpart, dropped on the way back. */
const CLAUDE_ONLY: Readonly<Record<string, readonly string[]>> = {
  bash: ['run_in_background'],
  grep: ['multiline', '-n', '-A', '-B', '-C', 'head_limit', 'type'],
  web_fetch: ['prompt'],
  web_search: ['allowed_domains', 'blocked_domains'],
  subagent: ['subagent_type', 'model'],
}

/** Claude field → tack field, per tool, where the names differ. */
const RENAMES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  bash: { timeout: 'timeout_ms' },
  grep: { '-i': 'ignore_case', output_mode: 'output' },
}

/**
 * An `updatedInput` (Claude's shape, replacing the whole input) → tack arguments. Renamed fields are
 * translated, Claude-only fields dropped, anything else passed through for the tool's schema to judge.
 */
export function fromClaudeToolInput(tackName: string, input: Readonly<Args>): Args {
  if (!(tackName in CLAUDE_TOOL_NAMES)) return { ...input }
  const drop = new Set(CLAUDE_ONLY[tackName] ?? [])
  const renames = RENAMES[tackName] ?? {}
  const out: Args = {}
  for (const [key, value] of Object.entries(input)) {
    if (drop.has(key)) continue
    const target = renames[key] ?? key
    out[target] =
      target === 'output' && typeof value === 'string' ? (GREP_MODE_FROM_CLAUDE[value] ?? value) : value
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

/** Claude's `tool_response` for a tack result (B8). */
export function toClaudeToolResponse(
  tackName: string,
  args: unknown,
  result: ToolResultLike,
  cwd: string,
): Args {
  const a: Args = isObject(args) ? args : {}
  const success = !result.isError
  switch (tackName) {
    case 'write':
      return { filePath: absolute(a.file_path, cwd), success }
    case 'edit':
      return {
        filePath: absolute(a.file_path, cwd),
        oldString: a.old_string,
        newString: a.new_string,
        success,
      }
    case 'bash': {
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
