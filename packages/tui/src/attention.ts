// `ui/notification` (packages/commands/src/seams.ts): the interactive UI tells listeners — a desktop
// notifier, a sound, Claude Code's Notification hooks — when the person may be looking elsewhere while
// tack waits on them. A permission question unanswered for `permissionNotifyMs` is noted once; after a
// turn ends, a prompt box left untouched for `idleNotifyMs` is noted once, until the next key or turn.
import type { Agent } from '@tack/agent'
import type { UiNotification } from '@tack/commands'
import { emitSafely } from '@tack/kernel'
import type { Context } from 'cordis'

export interface AttentionTimes {
  readonly permissionNotifyMs: number
  readonly idleNotifyMs: number
}

export class Attention {
  readonly #ctx: Context
  readonly #times: AttentionTimes
  #idle: NodeJS.Timeout | undefined

  constructor(ctx: Context, times: AttentionTimes) {
    this.#ctx = ctx
    this.#times = times
  }

  /** A permission question about `tool` is on screen; the returned function says it was answered. */
  questionShown(agent: Agent | undefined, tool: string): () => void {
    this.activity()
    if (!agent) return () => {}
    const timer = setTimeout(
      () =>
        this.#note(agent, {
          kind: 'permission-prompt',
          message: `tack needs your permission to use ${tool}`,
        }),
      this.#times.permissionNotifyMs,
    )
    timer.unref()
    return () => clearTimeout(timer)
  }

  /** A turn ended and the prompt box waits for the person. */
  turnEnded(agent: Agent | undefined): void {
    this.activity()
    if (!agent) return
    this.#idle = setTimeout(() => {
      this.#idle = undefined
      this.#note(agent, { kind: 'idle-prompt', message: 'tack is waiting for your input' })
    }, this.#times.idleNotifyMs)
    this.#idle.unref()
  }

  /** The person did something (a key, a turn started, the session closed): no idle spell is running. */
  activity(): void {
    clearTimeout(this.#idle)
    this.#idle = undefined
  }

  #note(agent: Agent, note: UiNotification): void {
    if (agent.status === 'disposed') return
    emitSafely(this.#ctx, 'ui/notification', agent, Object.freeze(note))
  }
}
