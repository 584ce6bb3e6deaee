// `allowed-tools` patterns as Claude Code writes them (85-skills-and-commands.md K4): `Read`, `Bash`,
// `Bash(git add:*)`, `Bash(npm run test)`, `Bash(git *)`, `mcp__github__*`. A pattern's tool is matched
// against the call's tack name and against its Claude Code name (the tool's `host.claude` declaration,
// docs/decisions/0210-host-protocol-packages.md), so `Read` reaches tack's `read`. A parenthesised
// specifier is read only for a tool whose arguments carry a `command` (bash): every top-level command of
// the line must match it, so `Bash(git add:*)` does not approve `git add . && rm -rf ~`. A specifier on
// any other tool (`Read(./docs/**)`) is not understood and approves nothing (said in the tool result).
import { bashSegments } from '@tack/claude-protocol'

export interface ToolPattern {
  readonly text: string
  readonly tool: string
  readonly specifier?: string
}

const SHAPE = /^([A-Za-z0-9_*?-]+)(?:\((.*)\))?$/

/** The pattern, or undefined when it is not `Name` or `Name(specifier)`. */
export function parseToolPattern(text: string): ToolPattern | undefined {
  const m = SHAPE.exec(text.trim())
  if (!m) return undefined
  const specifier = m[2]?.trim()
  return { text: text.trim(), tool: m[1] as string, ...(specifier ? { specifier } : {}) }
}

/** A glob with `*` (any text) and `?` (one character) over a whole string. */
function globTest(glob: string, text: string): boolean {
  const source = glob
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '[\\s\\S]*')
    .replace(/\?/g, '.')
  return new RegExp(`^${source}$`).test(text)
}

export interface CallFacts {
  /** The tool's tack name and, when it declares one, its Claude Code name. */
  readonly names: readonly string[]
  readonly arguments: unknown
}

/** Whether `pattern` approves the call. */
export function patternMatches(pattern: ToolPattern, call: CallFacts): boolean {
  if (!call.names.some((n) => globTest(pattern.tool, n))) return false
  if (pattern.specifier === undefined || pattern.specifier === '*') return true
  const command = (call.arguments as { command?: unknown } | null)?.command
  if (typeof command !== 'string') return false
  const segments = bashSegments(command)
  if (!segments || segments.length === 0) return false
  return segments.every((s) => commandMatches(pattern.specifier as string, s.text))
}

/** `prefix:*` (Claude Code's legacy prefix form), a glob with `*`, or an exact command. */
function commandMatches(specifier: string, command: string): boolean {
  if (specifier.endsWith(':*')) {
    const prefix = specifier.slice(0, -2)
    return command === prefix || command.startsWith(`${prefix} `)
  }
  if (specifier.includes('*')) return globTest(specifier, command)
  return command === specifier
}

/** Whether tack can read the pattern's specifier at all (else it approves nothing, and the result says so). */
export function understood(pattern: ToolPattern): boolean {
  if (pattern.specifier === undefined || pattern.specifier === '*') return true
  // Only command specifiers are read; Claude Code's command tool is Bash, tack's is bash.
  return /^bash$/i.test(pattern.tool)
}

/** The patterns of `patterns` that parse and that tack understands: the ones a grant may hold. */
export function understoodPatterns(patterns: readonly string[]): string[] {
  return patterns.filter((p) => {
    const parsed = parseToolPattern(p)
    return parsed !== undefined && understood(parsed)
  })
}
