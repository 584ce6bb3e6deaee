// The permission decision for one call, before the rest of the `tools/pre-execute` chain is asked.
// Order: a deny rule denies (in every mode, yolo included); a tool whose paths declaration fails is
// denied; an allow rule allows as an explicit approval; otherwise the mode's table, by the tool's
// declared access:
//
//   | call                          | ask   | workspace-write | read-only | yolo  |
//   |-------------------------------|-------|-----------------|-----------|-------|
//   | read inside                   | pass  | pass            | pass      | allow |
//   | write inside                  | ask   | pass            | deny      | allow |
//   | execute (bash)                | ask   | pass            | deny      | allow |
//   | network, undeclared (= write) | ask   | pass            | deny      | allow |
//   | session (todo_write)          | pass  | pass            | pass      | allow |
//   | read outside                  | ask*  | ask*            | ask*      | allow |
//   | write outside                 | ask*  | ask*            | deny      | allow |
//   | write of a protected file     | ask†  | ask†            | deny      | allow |
//
// A tool that declares `alwaysAsk` (an MCP tool marked destructive) is asked where the table says pass
// (every mode but yolo; read-only still denies what it denies); without an approver that ask is denied.
// `ask*` is `ask` with reason `outside the workspace` when an approver is mounted; without one
// (headless) the call passes and the workspace scope fails it `OUTSIDE_WORKSPACE`. `ask†` (a control
// file, protected.ts) asks with a reason naming the file when an approver is mounted and denies with
// that reason without one; only an allow rule that names a matching path counts as an approval for
// it. `allow` carries `approval: 'rule'`, so the scope accepts outside paths. A call that asks to
// leave the OS sandbox is judged by escalation.ts after the deny rules.
import type { PermissionsConfig } from './config.ts'
import type { CallFacts, PathFact } from './facts.ts'
import type { PermissionMode } from './modes.ts'
import { escalationVerdict } from './escalation.ts'
import { describeRule, findRule } from './rules.ts'

export type Verdict =
  | { readonly kind: 'pass' }
  | { readonly kind: 'allow'; readonly why: string }
  | { readonly kind: 'ask'; readonly reason: string }
  | { readonly kind: 'deny'; readonly reason: string }

export const OUTSIDE_REASON = 'outside the workspace'

const PASS: Verdict = { kind: 'pass' }

/** A path of the call that is one of tack's or the bridges' control files (protected.ts). */
export interface ProtectedPath {
  readonly path: PathFact
  readonly what: string
}

export function decide(
  facts: CallFacts,
  mode: PermissionMode,
  rules: Pick<PermissionsConfig, 'allow' | 'deny'>,
  hasApprover: boolean,
  guarded?: ProtectedPath,
): Verdict {
  const denied = findRule(rules.deny, facts, 'deny')
  if (denied)
    return {
      kind: 'deny',
      reason: `The call to "${facts.tool}" is denied by the rule ${describeRule(denied)}.`,
    }
  if (facts.problem !== undefined)
    return { kind: 'deny', reason: `The call to "${facts.tool}" cannot be judged: ${facts.problem}.` }
  // Leaving the sandbox has a table of its own (escalation.ts): it never passes.
  if (facts.escalation) return escalationVerdict(facts, mode, rules, hasApprover)
  const allowed = findRule(rules.allow, facts, 'allow')
  // A control file needs an approval that names it: a rule without a path does not (0012).
  if (allowed && (!guarded || allowed.path !== undefined))
    return { kind: 'allow', why: `rule ${describeRule(allowed)}` }
  const verdict = alwaysAsked(facts, mode, byMode(facts, mode, hasApprover))
  return guarded ? guard(verdict, facts, guarded, hasApprover) : verdict
}

/** A protected write is never let through without an approval: pass and ask become ask† (see above). */
function guard(verdict: Verdict, facts: CallFacts, guarded: ProtectedPath, hasApprover: boolean): Verdict {
  if (verdict.kind === 'deny' || verdict.kind === 'allow') return verdict
  const file = guarded.path.absolute
  const why = `${facts.tool} writes ${file}, which is ${guarded.what}: a file there takes effect the next time tack, a hook host or git runs, so writing it needs the user's explicit approval`
  if (hasApprover) return { kind: 'ask', reason: `${why}.` }
  return {
    kind: 'deny',
    reason: `${why}, and no approver is available in this run, so the call is denied. Do not try to write it another way; tell the user what you wanted to change.`,
  }
}

function alwaysAsked(facts: CallFacts, mode: PermissionMode, verdict: Verdict): Verdict {
  if (!facts.alwaysAsk || mode === 'yolo' || verdict.kind !== 'pass') return verdict
  return { kind: 'ask', reason: `${facts.tool} is marked destructive by its server` }
}

function byMode(facts: CallFacts, mode: PermissionMode, hasApprover: boolean): Verdict {
  const outside = facts.paths.some((path) => !path.inside)
  const askOutside: Verdict = hasApprover ? { kind: 'ask', reason: OUTSIDE_REASON } : PASS
  switch (mode) {
    case 'yolo':
      return { kind: 'allow', why: 'yolo mode' }
    case 'read-only':
      if (facts.access === 'read') return outside ? askOutside : PASS
      if (facts.access === 'session') return PASS
      return { kind: 'deny', reason: `Read-only mode does not allow this: ${whatItDoes(facts)}.` }
    case 'workspace-write':
      return outside ? askOutside : PASS
    case 'ask':
      if (outside) return askOutside
      if (facts.access === 'read' || facts.access === 'session') return PASS
      return { kind: 'ask', reason: whatItDoes(facts) }
    default:
      return mode satisfies never
  }
}

/** What a call does, as the reason of an ask or a deny shows it: `<tool> <what>`. */
function whatItDoes(facts: CallFacts): string {
  switch (facts.access) {
    case 'write':
      return facts.paths.length > 0
        ? `${facts.tool} changes ${facts.paths.map((path) => path.absolute).join(', ')}`
        : `${facts.tool} is not known to be read-only`
    case 'execute':
      // Without a command (an MCP server's tool) it runs code elsewhere, not a shell command.
      return facts.command === undefined
        ? `${facts.tool} runs code whose effects are not known in advance`
        : `${facts.tool} runs a shell command: ${facts.command}`
    case 'network':
      return `${facts.tool} reaches the network`
    case 'read':
    case 'session':
      return `${facts.tool} reads`
    default:
      return facts.access satisfies never
  }
}
