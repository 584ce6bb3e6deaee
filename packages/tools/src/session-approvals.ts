// "Allow for this session" / "always reject" answers of an approver (the TUI's permission prompt, an ACP
// client's): what they match and the memory of them. A rule matches the tool, and for a tool that
// declares `execute` access (bash, or any plugin's) the exact command (its `command` argument, else all
// of its arguments) — approving `ls` once for the
// session must not approve `rm -rf` (TL-35).
import type { ApprovalAnswer, ApprovalRequest, ToolExecution } from './types.ts'

/** What a session rule matches: the tool, and for an `execute` tool the exact command. */
export function approvalRuleKey(req: {
  readonly exec: Pick<ToolExecution, 'name' | 'arguments'>
  readonly access: ApprovalRequest['access']
}): string {
  const { name, arguments: args } = req.exec
  if (req.access !== 'execute') return name
  // bash-shaped tools name their command `command`; any other execute tool is keyed on all its
  // arguments, so an answer for one script never approves another (never on an empty command).
  const command = (args as { command?: unknown } | undefined)?.command
  return `${name}\u0000${typeof command === 'string' ? command : `args:${JSON.stringify(args ?? null)}`}`
}

/** A person's answer to a permission question: for this call only, or for every matching call of the session. */
export type UserApproval =
  | { readonly action: 'allow'; readonly scope: 'once' | 'session' }
  | { readonly action: 'deny'; readonly scope: 'once' | 'session'; readonly reason: string }

/** The session-scoped answers an approver gave, answering later calls they match (`by: 'rule'`). */
export class SessionApprovals {
  readonly #allow = new Set<string>()
  readonly #deny = new Map<string, string>()

  /** The answer a stored rule gives, if one matches. */
  match(key: string): ApprovalAnswer | undefined {
    const reason = this.#deny.get(key)
    if (reason !== undefined) return { action: 'deny', by: 'rule', reason, scope: 'session' }
    if (this.#allow.has(key)) return { action: 'allow', by: 'rule', scope: 'session' }
    return undefined
  }

  /** The person's answer for the call `key` names, as the pipeline takes it; a session-wide one is kept. */
  answer(key: string, answer: UserApproval): ApprovalAnswer {
    if (answer.scope === 'session') {
      if (answer.action === 'allow') this.#allow.add(key)
      else this.#deny.set(key, answer.reason)
    }
    return answer.action === 'allow'
      ? { action: 'allow', by: 'user', scope: answer.scope }
      : { action: 'deny', by: 'user', reason: answer.reason, scope: answer.scope }
  }
}
