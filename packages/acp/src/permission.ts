// Permission requests for `ask` decisions (50-acp.md requirement 9): the four ACP options, and what
// each answer means for this call and the rest of the session. "Always" answers become session rules
// held here: a later call they match is answered without asking (by: 'rule', scope: 'session') and the
// pipeline logs that answer like any other (`approval/resolved`).
import type { PermissionOption, RequestPermissionOutcome } from '@agentclientprotocol/sdk'
import { type ApprovalAnswer, approvalRuleKey, SessionApprovals, type UserApproval } from '@tack/tools'

export const PERMISSION_OPTIONS: readonly PermissionOption[] = Object.freeze([
  { optionId: 'allow-once', name: 'Allow once', kind: 'allow_once' },
  { optionId: 'allow-always', name: 'Always allow', kind: 'allow_always' },
  { optionId: 'reject-once', name: 'Reject', kind: 'reject_once' },
  { optionId: 'reject-always', name: 'Always reject', kind: 'reject_always' },
])

export const REJECTED = 'The user rejected this tool call.'

const REJECT_ONCE: UserApproval = { action: 'deny', scope: 'once', reason: REJECTED }
/** What each option of `PERMISSION_OPTIONS` answers. */
const OPTION_ANSWERS = new Map<string, UserApproval>([
  ['allow-once', { action: 'allow', scope: 'once' }],
  ['allow-always', { action: 'allow', scope: 'session' }],
  ['reject-once', REJECT_ONCE],
  ['reject-always', { action: 'deny', scope: 'session', reason: REJECTED }],
])

/** What a rule of this session matches: the tool, and for bash the exact command. */
export const ruleKey = approvalRuleKey

export class SessionRules {
  readonly #rules = new SessionApprovals()

  /** The answer a stored rule gives, if one matches. */
  match(key: string): ApprovalAnswer | undefined {
    return this.#rules.match(key)
  }

  /** The approval answer for the client's outcome, remembering "always" answers. */
  answer(outcome: RequestPermissionOutcome, key: string): ApprovalAnswer {
    if (outcome.outcome === 'cancelled') return { action: 'deny', by: 'user', reason: REJECTED }
    // reject-once, and any option id the client made up: refusing is the safe reading.
    return this.#rules.answer(key, OPTION_ANSWERS.get(outcome.optionId) ?? REJECT_ONCE)
  }
}
