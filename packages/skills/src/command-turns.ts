// What a prompt command asks for its own turn only (85-skills-and-commands.md C2): a model, and the
// tools its `allowed-tools` pre-approve. A command answers `{kind: 'prompt', text}` and every host sends
// that text as the person's prompt, so the command leaves what it asked for here, keyed by agent; the
// prompt that starts with the command's header claims it on `agent/prompt-submit`, the turn that
// prompt runs in gets it on `agent/request`, and it ends with that turn. No host and no loop knows
// about it: the seams carry it (docs/decisions/0275-prompt-commands.md).
import type { KnowHowItem } from './types.ts'

/** What one expansion asked for, until its prompt is admitted. */
export interface CommandTurn {
  /** The expanded prompt starts with this (expansion.ts commandHeader). */
  readonly header: string
  readonly item: KnowHowItem
  /** `provider/model` for the turn, checked when the command ran. */
  readonly model?: string
  /** `allowed-tools` patterns the command may pre-approve (trusted sources only; K5). */
  readonly allowedTools: readonly string[]
}

interface Active {
  readonly turn: CommandTurn
  /** The loop's turn number, fixed by the first request after the claim. */
  number?: number
}

export class CommandTurns {
  readonly #pending = new WeakMap<object, CommandTurn>()
  readonly #active = new WeakMap<object, Active>()

  /** The command ran for `agent`: its prompt is on its way (a later run replaces it). */
  expect(agent: object, turn: CommandTurn): void {
    this.#pending.set(agent, turn)
  }

  /** The command turn this prompt text belongs to, now active for the agent; undefined for any other prompt. */
  claim(agent: object, promptText: string): CommandTurn | undefined {
    const turn = this.#pending.get(agent)
    if (!turn || !promptText.startsWith(turn.header)) return undefined
    this.#pending.delete(agent)
    this.#active.set(agent, { turn })
    return turn
  }

  /** The model the request of loop turn `number` runs on, when a command chose one for it. */
  modelFor(agent: object, number: number): string | undefined {
    const active = this.#active.get(agent)
    if (!active) return undefined
    active.number ??= number
    if (active.number !== number) {
      // A later turn (queued prompts run back to back without the agent going idle): the session's model.
      this.#active.delete(agent)
      return undefined
    }
    return active.turn.model
  }

  /** The agent went idle: whatever a command asked for its turn is over. */
  end(agent: object): void {
    this.#active.delete(agent)
  }
}
