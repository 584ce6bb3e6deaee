// The permission decision for one call, before the rest of the `tools/pre-execute` chain is asked.
// Order: a deny rule denies (in every mode, yolo included); an allow rule allows as an explicit
// approval; otherwise the mode's table:
//
//   | call                 | ask   | workspace-write | read-only | yolo  |
//   |----------------------|-------|-----------------|-----------|-------|
//   | read inside          | pass  | pass            | pass      | allow |
//   | write inside         | ask   | pass            | deny      | allow |
//   | bash                 | ask   | pass            | deny      | allow |
//   | other (unknown) tool | ask   | pass            | deny      | allow |
//   | todo_write           | pass  | pass            | pass      | allow |
//   | read outside         | ask*  | ask*            | ask*      | allow |
//   | write outside        | ask*  | ask*            | deny      | allow |
//
// `ask*` is `ask` with reason `outside the workspace` when an approver is mounted; without one
// (headless) the call passes and the fs tool itself fails `OUTSIDE_WORKSPACE`. `allow` carries
// `approval: 'rule'`, so the fs tools accept outside paths.
import type { PermissionsConfig } from './config.ts'
import type { CallFacts } from './facts.ts'
import type { PermissionMode } from './modes.ts'
import { describeRule, findRule } from './rules.ts'

export type Verdict =
  | { readonly kind: 'pass' }
  | { readonly kind: 'allow'; readonly why: string }
  | { readonly kind: 'ask'; readonly reason: string }
  | { readonly kind: 'deny'; readonly reason: string }

export const OUTSIDE_REASON = 'outside the workspace'

const PASS: Verdict = { kind: 'pass' }

export function decide(
  facts: CallFacts,
  mode: PermissionMode,
  rules: Pick<PermissionsConfig, 'allow' | 'deny'>,
  hasApprover: boolean,
): Verdict {
  const denied = findRule(rules.deny, facts, 'deny')
  if (denied)
    return {
      kind: 'deny',
      reason: `The call to "${facts.tool}" is denied by the rule ${describeRule(denied)}.`,
    }
  const allowed = findRule(rules.allow, facts, 'allow')
  if (allowed) return { kind: 'allow', why: `rule ${describeRule(allowed)}` }

  const outside = facts.paths.some((path) => !path.inside)
  const askOutside: Verdict = hasApprover ? { kind: 'ask', reason: OUTSIDE_REASON } : PASS
  switch (mode) {
    case 'yolo':
      return { kind: 'allow', why: 'yolo mode' }
    case 'read-only':
      if (facts.kind === 'read') return outside ? askOutside : PASS
      if (facts.kind === 'session') return PASS
      return { kind: 'deny', reason: `Read-only mode does not allow this: ${whatItDoes(facts)}.` }
    case 'workspace-write':
      return outside ? askOutside : PASS
    case 'ask':
      if (outside) return askOutside
      if (facts.kind === 'read' || facts.kind === 'session') return PASS
      return { kind: 'ask', reason: whatItDoes(facts) }
    default:
      return mode satisfies never
  }
}

/** What a call does, as the reason of an ask or a deny shows it: `<tool> <what>`. */
function whatItDoes(facts: CallFacts): string {
  switch (facts.kind) {
    case 'write':
      return facts.paths.length > 0
        ? `${facts.tool} changes ${facts.paths.map((path) => path.absolute).join(', ')}`
        : `${facts.tool} is not known to be read-only`
    case 'bash':
      return facts.command === undefined
        ? 'bash runs a shell command'
        : `bash runs a shell command: ${facts.command}`
    case 'read':
    case 'session':
      return `${facts.tool} reads`
    default:
      return facts.kind satisfies never
  }
}
