// A handler's `if` (40-hooks.md B6): one permission rule, `Tool` or `Tool(pattern)`, evaluated on tool
// points only. For Bash the pattern is tested against every subcommand (parts split on `&&`, `||`, `;`,
// `|`, `&` and newlines, plus the insides of `$(…)` and backticks, after stripping leading `VAR=value`
// assignments); for file tools against `file_path`. Anything that cannot be parsed fails open: the
// hook runs, as Claude Code does.
import { homedir } from 'node:os'
import { isAbsolute, join, resolve } from 'node:path'
import { bashParts } from '@tack/claude-protocol'

export { bashParts }

const RULE = /^\s*([A-Za-z0-9_*-]+)\s*(?:\(([\s\S]*)\))?\s*$/

export interface IfSubject {
  /** The Claude tool name and its aliases. */
  readonly toolNames: readonly string[]
  /** Claude's `tool_input`. */
  readonly toolInput: Readonly<Record<string, unknown>>
  /** Relative file patterns resolve against this folder (the project dir). */
  readonly projectDir: string
  readonly home?: string
}

/** Whether a handler with `if: rule` runs for `subject`. */
export function ifMatches(rule: unknown, subject: IfSubject): boolean {
  if (typeof rule !== 'string') return true
  const m = RULE.exec(rule)
  if (!m) return true
  const [, tool, pattern] = m
  if (!subject.toolNames.includes(tool)) return false
  if (pattern === undefined || pattern.trim() === '' || pattern.trim() === '*') return true
  const command = subject.toolInput.command
  if (subject.toolNames.includes('Bash') && typeof command === 'string') {
    const parts = bashParts(command)
    if (!parts) return true
    return parts.some((part) => commandMatches(pattern.trim(), part))
  }
  const filePath = subject.toolInput.file_path
  if (typeof filePath === 'string') return pathMatches(pattern.trim(), filePath, subject)
  return true
}

/** `git *` style: `*` is any text; a trailing `:*` (legacy) is a prefix match. */
function commandMatches(pattern: string, part: string): boolean {
  if (pattern.endsWith(':*')) return part.startsWith(pattern.slice(0, -2))
  const source = pattern
    .split('*')
    .map((piece) => piece.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*')
  return new RegExp(`^${source}$`, 's').test(part)
}

function pathMatches(pattern: string, filePath: string, subject: IfSubject): boolean {
  const home = subject.home ?? homedir()
  let anchored: string | undefined
  if (pattern.startsWith('//')) anchored = pattern.slice(1)
  else if (pattern.startsWith('~/')) anchored = join(home, pattern.slice(2))
  else if (pattern.startsWith('/')) anchored = join(subject.projectDir, pattern.slice(1))
  else if (pattern.includes('/')) anchored = resolve(subject.projectDir, pattern)
  const target = isAbsolute(filePath) ? filePath : resolve(subject.projectDir, filePath)
  if (anchored === undefined) {
    // A bare pattern (`*.ts`) matches the file name in any folder, like a gitignore line.
    return globRegex(pattern).test(target.slice(target.lastIndexOf('/') + 1))
  }
  return globRegex(anchored).test(target)
}

/** A glob as an anchored regex: `**` crosses folders, `*` and `?` do not, `{a,b}` is a choice. */
export function globRegex(glob: string): RegExp {
  let out = ''
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]
    if (c === '*') {
      if (glob[i + 1] === '*') {
        i++
        if (glob[i + 1] === '/') {
          i++
          out += '(?:.*/)?'
        } else out += '.*'
      } else out += '[^/]*'
    } else if (c === '?') out += '[^/]'
    else if (c === '{') {
      const close = glob.indexOf('}', i)
      if (close < 0) out += '\\{'
      else {
        out += `(?:${glob
          .slice(i + 1, close)
          .split(',')
          .map((alt) => alt.replace(/[.+?^${}()|[\]\\*]/g, '\\$&'))
          .join('|')})`
        i = close
      }
    } else out += c.replace(/[.+^${}()|[\]\\]/g, '\\$&')
  }
  return new RegExp(`^${out}$`, 's')
}
