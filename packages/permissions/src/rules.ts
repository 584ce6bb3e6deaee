// Matching allow / deny rules against a call. Deny rules are matched generously (a path's lexical
// or real form, any segment of a compound command); allow rules strictly (the real path, so an
// in-tree symlink cannot smuggle an outside file under an allowed glob, and only a simple command —
// no `;`, `&`, `|`, redirection, backticks or `$(` — so `git status; rm -rf ~` never matches `git status`).
// Command rules are a convenience, not a sandbox: `bash -c '…'` or an alias can still do anything.
import { isAbsolute, sep } from 'node:path'
import { isInside } from '@tack/tools'
import picomatch from 'picomatch'
import type { PermissionRule } from './config.ts'
import type { CallFacts } from './facts.ts'
import { wildcardMatches } from './wildcard.ts'

type Use = 'allow' | 'deny'

export function findRule(
  rules: readonly PermissionRule[],
  facts: CallFacts,
  use: Use,
): PermissionRule | undefined {
  return rules.find((rule) => matches(rule, facts, use))
}

function matches(rule: PermissionRule, facts: CallFacts, use: Use): boolean {
  if (!toolMatches(rule.tool, facts.tool)) return false
  if (rule.path !== undefined) {
    const glob = rule.path
    if (facts.paths.length === 0) return false
    return use === 'allow'
      ? facts.paths.every((p) => pathMatches(glob, p.real, facts.root.real))
      : facts.paths.some(
          (p) =>
            pathMatches(glob, p.real, facts.root.real) ||
            // The lexical form is another question only when it differs (a symlink on the way).
            ((p.absolute !== p.real || facts.root.lexical !== facts.root.real) &&
              pathMatches(glob, p.absolute, facts.root.lexical)),
        )
  }
  if (rule.command !== undefined) {
    if (facts.command === undefined) return false
    return commandMatches(rule.command, facts.command, use)
  }
  return true
}

/** Compiled globs: a search asks about every file it lists (withheld.ts), so each rule compiles once. */
const compiled = new Map<string, (path: string) => boolean>()

/**
 * A rule's `tool`: a name, `*`, or a wildcard over names such as `mcp__github__*` (spec 55-mcp.md M8).
 * Tool names hold no `*` or `?`, so a plain name still matches only itself.
 */
export function toolMatches(pattern: string, tool: string): boolean {
  return pattern === tool || wildcardMatches(pattern, tool)
}

function pathMatches(glob: string, path: string, root: string): boolean {
  let test = compiled.get(glob)
  if (!test) {
    test = picomatch(glob, { dot: true })
    compiled.set(glob, test)
  }
  if (isAbsolute(glob)) return test(path)
  if (!isInside(root, path)) return false
  // Both are resolved absolute paths (facts.ts, withheld.ts), so below the root the relative path is
  // what follows its prefix: `relative` would normalise both again, for every file a search lists.
  const rest = path === root ? '' : path.slice(root.endsWith(sep) ? root.length : root.length + 1)
  const rel = sep === '/' ? rest : rest.split(sep).join('/')
  return test(rel === '' ? '.' : rel)
}

const SHELL_CONTROL = /[;&|<>`\n\r]|\$\(/
const SEGMENT_BREAK = /;|&&|\|\||\||&|\n|\r|`|\$\(|\)/

function commandMatches(pattern: string, command: string, use: Use): boolean {
  const whole = command.trim()
  if (use === 'allow') return !SHELL_CONTROL.test(whole) && matchOne(pattern, whole)
  if (matchOne(pattern, whole)) return true
  return whole
    .split(SEGMENT_BREAK)
    .map((segment) => segment.trim())
    .some((segment) => segment !== '' && matchOne(pattern, segment))
}

/** A pattern with `*` or `?` is a wildcard over the whole command; otherwise a word-boundary prefix. */
function matchOne(pattern: string, command: string): boolean {
  if (/[*?]/.test(pattern)) return wildcardMatches(pattern, command)
  return command === pattern || (command.startsWith(pattern) && /\s/.test(command[pattern.length]))
}

/** A rule as the reason of a decision shows it. */
export function describeRule(rule: PermissionRule): string {
  return JSON.stringify(rule)
}
