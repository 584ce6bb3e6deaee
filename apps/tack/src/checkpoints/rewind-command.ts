// `/rewind` for every host (docs/decisions/0305-checkpoints-and-rewind.md): alone, the turns of this
// session with what each changed — a picker in the TUI, a list elsewhere; `/rewind N [--files-only |
// --conversation-only]` restores the files as they were before turn N and forks the conversation there.
// The TUI then switches to the fork; ACP and headless name it (they cannot switch sessions).
import type { CommandDefinition, CommandResult } from '@tack/commands'
import type { SessionsService } from '@tack/session'
import type { Context } from 'cordis'
import {
  changeSummary,
  outcomeText,
  parseRewindArgs,
  rewindPoints,
  rewindTo,
  storeFor,
  turnChanges,
} from './rewind.ts'

export function rewindCommand(
  ctx: Context,
  config: { readonly root: string; readonly maxFileBytes: number },
): CommandDefinition {
  return {
    name: 'rewind',
    description: 'Go back to before a turn: its files and/or the conversation (a picker without a turn)',
    args: 'turn [--files-only | --conversation-only]',
    run: async ({ agent, args, surface }): Promise<CommandResult> => {
      const parsed = parseRewindArgs(args.split(/\s+/).filter(Boolean))
      if (typeof parsed === 'string') return { kind: 'error', message: `/rewind: ${parsed}` }
      const points = rewindPoints(agent.session.events())
      if (points.length === 0) return { kind: 'text', text: 'no turns to rewind to yet' }
      if (parsed.turn === undefined) {
        const store = storeFor(config.root, agent.cwd)
        const now = points.some((p) => p.tree)
          ? (await store.snapshot(config.maxFileBytes).catch(() => undefined))?.tree
          : undefined
        const changes = await turnChanges(store, points, now)
        const rows = points.map((p) => ({
          value: String(p.turn),
          detail: `${p.prompt || '(no prompt)'} — ${changeSummary(changes.get(p.turn))}`,
        }))
        const text = [
          'turns (rewind with /rewind N; files and conversation as they were before turn N):',
          ...rows.map((r) => `  ${r.value.padStart(3)}  ${r.detail}`),
        ].join('\n')
        if (surface !== 'tui') return { kind: 'text', text }
        return { kind: 'choose', title: 'Rewind to before turn', command: 'rewind', choices: rows, text }
      }
      const turn = parsed.turn
      // Files restored under a running turn would be overwritten by its next call, or overwrite it.
      if (agent.status === 'running')
        return {
          kind: 'error',
          message: '/rewind: a turn is running; wait for it to end or interrupt it (Esc)',
        }
      try {
        const sessions = ctx.get('sessions') as SessionsService
        const outcome = await rewindTo(
          { ...config, cwd: agent.cwd, points, turn, mode: parsed.mode },
          async (atSeq) => (await sessions.fork(agent.session.id, { atSeq })).id,
        )
        const text = outcomeText(turn, parsed.mode, outcome)
        if (surface === 'tui' && outcome.forkId)
          return { kind: 'resume', sessionId: outcome.forkId, notice: text }
        const reopen =
          outcome.forkId && surface === 'acp'
            ? '\n(this conversation goes on as before; load the forked session to continue from there)'
            : outcome.forkId
              ? `\n(continue it with tack -r ${outcome.forkId})`
              : ''
        return { kind: 'text', text: `${text}${reopen}` }
      } catch (error) {
        return { kind: 'error', message: `/rewind: ${(error as Error).message.split('\n')[0]}` }
      }
    },
  }
}
