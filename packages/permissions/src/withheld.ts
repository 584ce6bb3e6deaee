// The `withheldPaths` service (docs/decisions/0118-deny-rules-in-search-results.md): the deny rules
// with a path, applied to each file a search lists instead of to the folder the call names. A file
// is withheld when a rule for the tool (or `*`, or a wildcard over tool names) matches it exactly as it would match a call naming
// that file — its real path or its lexical one under the workspace root — so `grep` and `glob` never
// show what `read` of the same file would be denied.
import { resolve, sep } from 'node:path'
import { isInside, realPathOf, type WithheldPaths, workspaceRootOf } from '@tack/tools'
import type { PermissionRule } from './config.ts'
import type { CallFacts } from './facts.ts'
import { findRule, toolMatches } from './rules.ts'

export function withheldPaths(deny: readonly PermissionRule[]): WithheldPaths {
  return {
    async forCall(tool, call) {
      const rules = deny.filter((rule) => rule.path !== undefined && toolMatches(rule.tool, tool))
      if (rules.length === 0) return undefined
      const lexical = resolve(workspaceRootOf(call))
      const real = await realPathOf(lexical).catch(() => lexical)
      const root = { lexical, real }
      return (path) => {
        // The listing holds real paths; the same file under the lexical root is what a rule written
        // against the workspace as the user sees it (an absolute glob through a symlinked root) names.
        // Listed paths are resolved, so the part below the real root is what follows its prefix.
        const absolute = lexical === real || !isInside(real, path) ? path : under(lexical, real, path)
        const facts: CallFacts = {
          tool,
          access: 'read',
          paths: [{ absolute, real: path, inside: true }],
          root,
        }
        return findRule(rules, facts, 'deny') !== undefined
      }
    },
  }
}

/** `path` (below `real`) moved under `lexical`: `join(lexical, relative(real, path))` for resolved paths. */
function under(lexical: string, real: string, path: string): string {
  const rest = path === real ? '' : path.slice(real.endsWith(sep) ? real.length : real.length + 1)
  if (rest === '') return lexical
  return lexical.endsWith(sep) ? lexical + rest : lexical + sep + rest
}
