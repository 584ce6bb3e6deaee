// The verdict for a call that asks to run outside the OS sandbox (a tool's `escalation` declaration:
// bash's `sandbox_permissions: "require_escalated"`, docs/decisions/0315-leaving-the-sandbox.md). It
// never passes: only a person's answer or a user's allow rule that names a command lets it through.
//
//   | escalated call           | ask  | workspace-write | read-only | yolo  |
//   |--------------------------|------|-----------------|-----------|-------|
//   | allow rule with command  | allow| allow           | deny      | allow |
//   | approver mounted         | ask  | ask             | deny      | allow |
//   | no approver (headless)   | deny | deny            | deny      | allow |
//
// A rule without a command (`--allow bash`, or one of wildcards only: `bash:*`) does not count: it lets every command run, in the sandbox;
// leaving the sandbox needs a rule that names the command (as a control file needs one naming its path,
// protected.ts). yolo runs every command unconfined already, so asking there would change nothing.
import type { PermissionsConfig } from './config.ts'
import type { Verdict } from './decide.ts'
import type { CallFacts } from './facts.ts'
import type { PermissionMode } from './modes.ts'
import { describeRule, findRule } from './rules.ts'

export function escalationVerdict(
  facts: CallFacts,
  mode: PermissionMode,
  rules: Pick<PermissionsConfig, 'allow'>,
  hasApprover: boolean,
): Verdict {
  const what = `${facts.tool} asks to run ${facts.command === undefined ? 'a call' : `\`${facts.command}\``} outside the sandbox`
  const why = facts.escalation?.justification.trim()
  const given = why ? ` (reason given: ${why})` : ' (no reason given)'
  if (mode === 'yolo') return { kind: 'allow', why: 'yolo mode (commands run unconfined)' }
  if (mode === 'read-only')
    return {
      kind: 'deny',
      reason: `Read-only mode does not allow leaving the sandbox: ${what}. Do not try another way; tell the user what you wanted to do.`,
    }
  const rule = findRule(rules.allow, facts, 'allow')
  if (rule?.command !== undefined && namesACommand(rule.command))
    return { kind: 'allow', why: `rule ${describeRule(rule)}` }
  if (hasApprover) return { kind: 'ask', reason: `${what}${given}` }
  return {
    kind: 'deny',
    reason: `${what}${given}, which needs the user's approval, and no approver is available in this run, so the call is denied. The user can allow it for a run with --allow '${facts.tool}:${facts.command ?? '…'}' (a rule that names the command) or make the folder writable with --sandbox-writable PATH. Do not try to work around the sandbox; tell the user what you wanted to do.`,
  }
}

/** `bash:*` (or `* *`) matches every simple command: it names none, so it is as bare as `--allow bash`. */
function namesACommand(pattern: string): boolean {
  return /[^*\s]/.test(pattern)
}
