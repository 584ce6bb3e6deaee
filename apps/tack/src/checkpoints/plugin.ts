// Checkpoints (docs/decisions/0305-checkpoints-and-rewind.md): before a turn's first change to the
// workspace — the first call of a tool that writes or executes, once the permission chain let it through —
// the working tree is recorded in tack's own git store (git-store.ts) and a `checkpoint/taken` event names
// the turn and the tree in the session log. Rewinding is a projection of those events (rewind.ts). The
// listener sits on `tools/execute`, around the body, so a denied call takes no snapshot, and a subagent's
// call checkpoints the turn of the top agent, whose session a person rewinds. A snapshot that fails (no
// git, an unreadable store) is said once on stderr and never stops the call.
import { realpathSync } from 'node:fs'
import { join } from 'node:path'
import { registerCommand } from '@tack/commands'
import { definePlugin, type ConfigOf, Schema } from '@tack/kernel'
import type { ToolAgent, ToolExecution, ToolExecutionResult } from '@tack/tools'
import type { Session } from '@tack/session'
import { GitStore } from './git-store.ts'
import { rewindCommand } from './rewind-command.ts'

declare module '@tack/session' {
  interface SessionEventMap {
    /**
     * The working tree before turn `turn`'s first change: git tree `tree` in tack's checkpoint store
     * (docs/decisions/0305-checkpoints-and-rewind.md). `skipped` names files left out for their size (at
     * most 20), `skippedCount` how many there were.
     */
    'checkpoint/taken': {
      turn: number
      tree: string
      skipped?: Array<{ path: string; bytes: number }>
      skippedCount?: number
    }
  }
}

export const CheckpointsConfig = Schema.object({
  enabled: Schema.boolean({
    default: true,
    description:
      "Record the working tree before each turn's first change (write, edit or command) in tack's own git store under $TACK_HOME/checkpoints, for /rewind and `tack rewind`.",
  }),
  keep: Schema.integer({
    default: 200,
    min: 1,
    max: 100_000,
    description:
      'Checkpoints kept per workspace; past it the oldest are pruned (their files stay only as far as a newer checkpoint holds them).',
  }),
  maxFileBytes: Schema.integer({
    default: 10 * 1024 * 1024,
    min: 1,
    max: 1024 * 1024 * 1024,
    description:
      'A file larger than this is left out of a checkpoint (named in the session log) and left alone by a rewind.',
  }),
  root: Schema.absolutePath({
    description: 'The folder of the checkpoint stores; the CLI sets $TACK_HOME/checkpoints.',
  }).optional(),
})
export type CheckpointsConfig = ConfigOf<typeof CheckpointsConfig>

/** At most this many skipped files are named in a `checkpoint/taken` event. */
const SKIPPED_NAMED = 20

export const CheckpointsPlugin = definePlugin({
  name: 'checkpoints',
  Config: CheckpointsConfig,
  apply(ctx, config) {
    if (!config.enabled || !config.root) return
    const root = config.root
    const stores = new Map<string, GitStore>()
    const running = new Map<string, Promise<void>>()
    let warned = false
    ctx.inject(['commands'], (sub) => {
      registerCommand(sub, rewindCommand(sub, { root, maxFileBytes: config.maxFileBytes }))
    })

    const checkpoint = async (agent: ToolAgent): Promise<void> => {
      const session = agent.session
      const turn = turnWithoutCheckpoint(session)
      if (turn === undefined) return
      const workspace = realpathSync(agent.cwd)
      let store = stores.get(workspace)
      if (!store) stores.set(workspace, (store = new GitStore({ root, workspace })))
      const snap = await store.snapshot(config.maxFileBytes)
      // The ref keeps the tree's objects until pruned; names sort by time, so pruning drops the oldest.
      await store.keep(`${Date.now().toString().padStart(15, '0')}-${session.id}-${turn}`, snap.tree)
      session.append('checkpoint/taken', {
        turn,
        tree: snap.tree,
        ...(snap.skipped.length > 0
          ? { skipped: snap.skipped.slice(0, SKIPPED_NAMED), skippedCount: snap.skipped.length }
          : {}),
      })
      if (snap.skipped.length > 0)
        ctx.logger('checkpoints').warn(
          '%s',
          `checkpoint of turn ${turn} left out ${snap.skipped.length} file(s) over plugins.checkpoints.maxFileBytes (${config.maxFileBytes}): ${snap.skipped
            .slice(0, 3)
            .map((s) => s.path)
            .join(', ')}${snap.skipped.length > 3 ? ', …' : ''}`,
        )
      await store.prune(config.keep)
    }

    ctx.on('tools/execute', async (exec: ToolExecution, next: () => Promise<ToolExecutionResult>) => {
      const agent = exec.agent && topAgent(exec.agent)
      const access = ctx.get('tools')?.get(exec.name, exec.agent)?.access ?? 'write'
      if (agent && (access === 'write' || access === 'execute')) {
        // Calls that change files run one at a time, but a subagent's may overlap its parent's: one snapshot per session at a time.
        const key = agent.session.id
        const before = running.get(key) ?? Promise.resolve()
        const mine = before.then(() => checkpoint(agent))
        running.set(
          key,
          mine.catch(() => {}),
        )
        try {
          await mine
        } catch (error) {
          if (!warned) {
            warned = true
            ctx
              .logger('checkpoints')
              .warn(
                '%s',
                `no checkpoint taken (rewind cannot restore this turn's files): ${(error as Error).message}`,
              )
          }
        }
      }
      return next()
    })
  },
})

/** The agent a person talks to: a subagent's changes belong to its parent's turn. */
function topAgent(agent: ToolAgent): ToolAgent {
  let a = agent
  while (a.parent) a = a.parent
  return a
}

/** The running turn when it has no checkpoint yet; undefined outside a turn or once it has one. */
export function turnWithoutCheckpoint(session: Session): number | undefined {
  const events = session.events()
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]
    if (!e) continue
    if (e.type === 'checkpoint/taken') return undefined
    if (e.type === 'turn/end') return undefined
    if (e.type === 'turn/start') return (e.data as { turn: number }).turn
  }
  return undefined
}

/** `$TACK_HOME/checkpoints`. */
export function checkpointsRoot(home: string): string {
  return join(home, 'checkpoints')
}
