// "Allow for this session" / "always reject" answers of an approver (the TUI's permission prompt, an ACP
// client's): what they match and the memory of them. A rule matches the tool, and for bash the exact
// command — approving `ls` once for the session must not approve `rm -rf` (TL-35).
import type { ApprovalAnswer, ToolExecution } from './types.ts'

/** What a session rule matches: the tool, and for bash the exact command. */
export function approvalRuleKey(exec: Pick<ToolExecution, 'name' | 'arguments'>): string {
  if (exec.name === 'bash') {
    const command = (exec.arguments as { command?: unknown } | undefined)?.command
    return `bash\u0000${typeof command === 'string' ? command : ''}`
  }
  return exec.name
}

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

  allow(key: string): void {
    this.#allow.add(key)
  }

  deny(key: string, reason: string): void {
    this.#deny.set(key, reason)
  }
}
