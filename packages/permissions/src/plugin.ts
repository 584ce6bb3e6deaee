// PermissionsPlugin: permission modes and allow / deny rules as a listener on `tools/pre-execute`
// (80-cli.md §4). It decides first, then lets the rest of the chain (hooks, other policies) speak:
//   pass  → the chain's decision, unchanged;
//   deny  → deny, without asking the chain;
//   ask   → the chain's `allow` becomes `ask` (its arguments and context kept); a `deny`, an `ask` or
//           an `allow` that already carries an approval stands;
//   allow → the chain's `allow` gains `approval: 'rule'`; a `deny` or `ask` from the chain stands.
// It records nothing itself: the tools pipeline records `approval/requested|resolved` around asks.
import { definePlugin } from '@tack/kernel'
import {
  declaredEscalation,
  type PreToolDecision,
  type ToolDefinition,
  type ToolExecution,
  type ToolRegistry,
} from '@tack/tools'
import { PermissionsConfig } from './config.ts'
import { decide, type Verdict } from './decide.ts'
import { type CallFacts, factsOf } from './facts.ts'
import { permissionModeOf } from './modes.ts'
import { protectedPathOf } from './protected.ts'
import { withheldPaths } from './withheld.ts'

/** `PreToolDecision` with the approval field the tools pipeline reads (see the README). */
type ApprovedDecision = PreToolDecision & { readonly approval?: 'user' | 'rule' }

export const PermissionsPlugin = definePlugin({
  name: 'permissions',
  Config: PermissionsConfig,
  apply(ctx, config) {
    // Search tools ask which listed files the deny rules cover (0118-deny-rules-in-search-results.md).
    ctx.provide('withheldPaths', withheldPaths(config.deny))
    // Downstream of the host hooks, upstream of the user's plugins (packages/tools/src/seams.ts).
    ctx.on(
      'tools/pre-execute',
      async (exec: ToolExecution, next: () => Promise<PreToolDecision>) => {
        const mode = permissionModeOf(exec.agent, config.mode)
        // The tool is judged by what its definition declares (access, paths), never by its name.
        // With the call's agent: a tool only some agents see (an ACP session's MCP servers) is judged by its own definition.
        const def = (ctx.get('tools') as ToolRegistry | undefined)?.get(exec.name, exec.agent)
        const facts = await factsOf(exec, def)
        const guarded = await protectedPathOf(facts)
        const verdict = decide(facts, mode, config, ctx.get('approval') !== undefined, guarded)
        return noAddedEscalation(await combine(verdict, next), facts, def)
      },
      { phase: 'policy' },
    )
  },
})

/**
 * A hook downstream may rewrite the input (`updatedInput`), but not into a request to leave the sandbox
 * the verdict above never saw: the escalation is the model's to ask and a person's or a user rule's to
 * grant (docs/decisions/0315-leaving-the-sandbox.md).
 */
function noAddedEscalation(
  decision: PreToolDecision,
  facts: CallFacts,
  def: ToolDefinition | undefined,
): PreToolDecision {
  if (decision.action === 'deny' || decision.arguments === undefined || facts.escalation) return decision
  const rewritten = declaredEscalation(def, decision.arguments)
  if (rewritten.ok && !rewritten.escalation) return decision
  return {
    action: 'deny',
    reason: `A hook rewrote the call to "${facts.tool}" into a request to run outside the sandbox; only the model may ask for that, and only a person or a user's rule may grant it.`,
  }
}

async function combine(verdict: Verdict, next: () => Promise<PreToolDecision>): Promise<PreToolDecision> {
  switch (verdict.kind) {
    case 'pass':
      return next()
    case 'deny':
      return { action: 'deny', reason: verdict.reason }
    case 'ask': {
      const downstream: ApprovedDecision = await next()
      if (downstream.action !== 'allow' || downstream.approval !== undefined) return downstream
      return { ...downstream, action: 'ask', reason: verdict.reason }
    }
    case 'allow': {
      const downstream = await next()
      if (downstream.action !== 'allow') return downstream
      const approved: ApprovedDecision = { ...downstream, approval: 'rule' }
      return approved
    }
    default:
      return verdict satisfies never
  }
}
