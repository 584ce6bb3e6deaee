// `allowed-tools` as a grant for the rest of a turn (85-skills-and-commands.md K4, K5,
// docs/decisions/0270-skills.md): `grantToolsForTurn` records a `skill/tools-granted` event in the
// agent's log, and the listener below reads the running turn's grants from the log — so what was
// approved is visible in the session, and nothing survives the turn (a later turn's calls find no grant
// after their own `turn/start`). The listener sits in the `hooks` phase of `tools/pre-execute`, upstream
// of the permission policy, and acts as a hook's allow does: the policy's `ask` becomes `allow`; a deny
// (a deny rule, read-only mode, a hook) stands. Who may grant (user-scope items, trusted workspaces) is
// the caller's decision; this module only records and applies.
import type { PreToolDecision, ToolAgent, ToolExecution, ToolRegistry } from '@tack/tools'
import type { Session } from '@tack/session'
import type { Context } from 'cordis'
import { type CallFacts, parseToolPattern, patternMatches, type ToolPattern } from './tool-patterns.ts'

declare module '@tack/session' {
  interface SessionEventMap {
    /**
     * Tools pre-approved for the rest of turn `turn` by `source` (`skill:<name>`, `command:<name>`): the
     * `allowed-tools` of a skill or command the turn loaded (docs/decisions/0270-skills.md).
     */
    'skill/tools-granted': { turn: number; patterns: string[]; source: string }
  }
}

/** The turn the agent's log is in (the last `turn/start`), or undefined before the first. */
export function currentTurn(session: Session): number | undefined {
  const events = session.events()
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]
    if (e?.type === 'turn/start') return (e.data as { turn: number }).turn
  }
  return undefined
}

/**
 * Pre-approves calls matching `patterns` for the rest of `turn` of `agent`'s session (recorded as a
 * `skill/tools-granted` event). Patterns tack cannot read are left out; returns the ones granted.
 */
export function grantToolsForTurn(
  agent: ToolAgent,
  turn: number,
  patterns: readonly string[],
  source: string,
): string[] {
  const granted = patterns.filter((p) => parseToolPattern(p) !== undefined)
  if (granted.length > 0) agent.session.append('skill/tools-granted', { turn, patterns: granted, source })
  return granted
}

/** The patterns granted in the running turn of `session`, read back from the log. */
export function grantsOfTurn(session: Session): ToolPattern[] {
  const events = session.events()
  const out: ToolPattern[] = []
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]
    if (!e) continue
    if (e.type === 'turn/start' || e.type === 'turn/end') break
    if (e.type !== 'skill/tools-granted') continue
    for (const text of (e.data as { patterns: string[] }).patterns) {
      const pattern = parseToolPattern(text)
      if (pattern) out.push(pattern)
    }
  }
  return out
}

/**
 * Grants for the `` !`cmd` `` of one slash command's expansion, by the call-id prefix its runner uses:
 * the expansion runs before the command's turn starts, so no turn can hold the grant, and Claude Code's
 * own way to let a command's commands run is to list them in its allowed-tools. Each lives only while its
 * expansion runs (withExpansionGrant), and covers only that expansion's calls (`<prefix>:inline:<n>`) of
 * its agent — a model's call id is the provider's to choose, so the id alone would not do.
 */
const expansionGrants = new Map<string, { agent: ToolAgent; patterns: readonly ToolPattern[] }>()

/** Runs `expand` with `patterns` granted to `agent`'s calls whose id starts with `idPrefix:inline:`. */
export async function withExpansionGrant<T>(
  agent: ToolAgent,
  idPrefix: string,
  patterns: readonly string[],
  expand: () => Promise<T>,
): Promise<T> {
  const parsed = patterns.map(parseToolPattern).filter((p): p is ToolPattern => p !== undefined)
  if (parsed.length === 0) return expand()
  expansionGrants.set(`${idPrefix}:inline:`, { agent, patterns: parsed })
  try {
    return await expand()
  } finally {
    expansionGrants.delete(`${idPrefix}:inline:`)
  }
}

function expansionGrantsOf(exec: ToolExecution): readonly ToolPattern[] {
  for (const [prefix, grant] of expansionGrants)
    if (exec.callId.startsWith(prefix) && exec.agent === grant.agent) return grant.patterns
  return []
}

/** Listens on `tools/pre-execute` while `ctx` lives: a granted call's `ask` becomes `allow`. */
export function mountGrants(ctx: Context): void {
  ctx.on(
    'tools/pre-execute',
    async (exec: ToolExecution, next: () => Promise<PreToolDecision>) => {
      const downstream = await next()
      if (downstream.action !== 'ask' || !exec.agent) return downstream
      const grants = [...grantsOfTurn(exec.agent.session), ...expansionGrantsOf(exec)]
      if (grants.length === 0) return downstream
      const facts = factsOf(ctx, exec)
      if (!grants.some((g) => patternMatches(g, facts))) return downstream
      const { reason: _asked, ...rest } = downstream
      return { ...rest, action: 'allow' }
    },
    { phase: 'hooks' },
  )
}

function factsOf(ctx: Context, exec: ToolExecution): CallFacts {
  const def = (ctx.get('tools') as ToolRegistry | undefined)?.get(exec.name, exec.agent)
  const claude = def?.host?.claude?.name
  return {
    names: claude && claude !== exec.name ? [exec.name, claude] : [exec.name],
    arguments: exec.arguments,
  }
}

export type { ToolAgent }
