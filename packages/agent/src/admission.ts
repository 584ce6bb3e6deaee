// Input on its way into the loop, in one place: the queue that holds prompts, steering, injections
// and forced continuations until the loop takes them (one append path, `InputQueue.hold`), and their
// admission — prompts and user steering pass `agent/prompt-submit` (AL-11); plugin steering,
// injections and forced continuations are appended as they are.
import { SeamError, waterfall } from '@tack/kernel'
import {
  type ContentBlock,
  type HookContext,
  type MessageSource,
  type Session,
  toContentBlocks,
} from '@tack/session'
import type { Context } from 'cordis'
import { ABORTED, settledOrAborted } from './abortable.ts'
import { MissingSourceError, TurnError } from './errors.ts'
import type { Agent, Prompt, PromptDecision, TurnOutcome } from './types.ts'

/** The plugin source a forced continuation is recorded with (AL-16). */
export const CONTINUATION_SOURCE = { kind: 'plugin', name: 'agent/turn-continuation' } as const

/** A prompt waiting for the next turn; `settle` resolves its `send`. */
export interface HeldPrompt {
  readonly kind: 'prompt'
  readonly input: Prompt
  readonly settle: (outcome: TurnOutcome) => void
}

/** Input a running turn takes at its next drain: the start of its next step (step.ts). */
export type DrainedInput =
  | { readonly kind: 'steer'; readonly input: Prompt }
  | { readonly kind: 'inject'; readonly input: HookContext }
  | { readonly kind: 'continue'; readonly reason: string; readonly source?: MessageSource }

/** Input held until the loop takes it. */
export type HeldInput = HeldPrompt | DrainedInput

/**
 * Everything held for an agent, in arrival order: prompts become the next turn's batch (AL-2);
 * steering, injections and continuations are drained by the running turn (AL-3, AL-4, AL-16).
 */
export class InputQueue {
  #items: HeldInput[] = []

  /** The one way input is held. */
  hold(item: HeldInput): void {
    this.#items.push(item)
  }

  hasPrompts(): boolean {
    return this.#items.some((i) => i.kind === 'prompt')
  }

  hasSteering(): boolean {
    return this.#items.some((i) => i.kind === 'steer')
  }

  /** Removes and returns the held prompts: the next turn's batch. */
  takePrompts(): HeldPrompt[] {
    return this.#take((i): i is HeldPrompt => i.kind === 'prompt')
  }

  /** Removes and returns held steering, injections and continuations: what a drain appends. */
  takeDrained(): DrainedInput[] {
    return this.#take((i): i is DrainedInput => i.kind !== 'prompt')
  }

  /** Removes every held prompt and settles its `send` with `outcome` (cancel, dispose). */
  settlePrompts(outcome: TurnOutcome): void {
    for (const p of this.takePrompts()) p.settle(outcome)
  }

  /** AL-23: cancel drops held steering and continuations; injections stay held. */
  dropSteering(): void {
    this.#items = this.#items.filter((i) => i.kind === 'prompt' || i.kind === 'inject')
  }

  #take<T extends HeldInput>(wanted: (i: HeldInput) => i is T): T[] {
    const taken = this.#items.filter(wanted)
    this.#items = this.#items.filter((i) => !wanted(i))
    return taken
  }
}

export function requireSource(input: Prompt | HookContext | undefined, where: string): void {
  const source = (input as { source?: unknown } | undefined)?.source as Prompt['source'] | undefined
  if (!source || (source.kind !== 'user' && !(source.kind === 'plugin' && typeof source.name === 'string'))) {
    throw new MissingSourceError(where)
  }
}

/** Appends one `context/message`; every additionalContext item needs its own source (AL-1). */
export function appendContext(session: Session, item: HookContext): void {
  try {
    requireSource(item, 'additionalContext')
  } catch (error) {
    throw new TurnError('MISSING_SOURCE', (error as Error).message)
  }
  session.append('context/message', { content: blocks(item.content), source: item.source })
}

function blocks(content: HookContext['content']): ContentBlock[] {
  return toContentBlocks(content)
}

/** The `prompt/blocked` reason of a prompt whose admission a cancel cut short (AL-23). */
export const CANCELLED_BEFORE_ADMISSION = 'cancelled before it was admitted'

/** What became of one prompt at admission. */
export type Admission = { admitted: true } | { admitted: false; reason: string }

/**
 * Runs `agent/prompt-submit` for a prompt (or user steering) and records the outcome as `as` or
 * `prompt/blocked`, followed by the decision's context items. Returns whether it was admitted.
 *
 * `signal` is the turn's (listeners read it as `agent.turnSignal`). A cancel stops the wait at once,
 * whether or not the listeners heed it, and whatever they decide later is dropped: the prompt is
 * recorded as `prompt/blocked` with `CANCELLED_BEFORE_ADMISSION`, so text the gate never passed does
 * not reach a later request (docs/decisions/0195-cancel-during-admission.md).
 */
export async function admitPrompt(
  ctx: Context,
  agent: Agent,
  session: Session,
  prompt: Prompt,
  as: 'user/message' | 'steering/message',
  signal: AbortSignal,
): Promise<Admission> {
  if (signal.aborted) return notAdmitted(session, prompt, CANCELLED_BEFORE_ADMISSION)
  const deciding = waterfall(ctx, 'agent/prompt-submit', [agent, prompt], () => ({ action: 'allow' }))
  let decision: PromptDecision | typeof ABORTED
  try {
    decision = await settledOrAborted(deciding, signal)
  } catch (error) {
    if (signal.aborted) return notAdmitted(session, prompt, CANCELLED_BEFORE_ADMISSION)
    throw pluginError('agent/prompt-submit', error)
  }
  if (decision === ABORTED) {
    // Left behind, not forgotten: the agent's disposal waits for it like other detached work, so what
    // its listeners still log (a killed hook's `hook/result`) lands before the log closes (AL-24).
    ctx.agents.trackDetached(agent, deciding)
    return notAdmitted(session, prompt, CANCELLED_BEFORE_ADMISSION)
  }
  // A listener that saw the abort may still answer (a hook run cut short passes): not a decision.
  if (signal.aborted) return notAdmitted(session, prompt, CANCELLED_BEFORE_ADMISSION)
  if (decision?.action === 'allow' || decision?.action === 'block') {
    for (const item of decision.leadingContext ?? []) appendContext(session, item)
  }
  switch (decision?.action) {
    case 'allow': {
      const content = decision.content !== undefined ? decision.content : prompt.content
      session.append(as, { content: blocks(content), source: prompt.source })
      for (const item of decision.additionalContext ?? []) appendContext(session, item)
      return { admitted: true }
    }
    case 'block': {
      const blocked = notAdmitted(session, prompt, String(decision.reason ?? 'blocked'))
      for (const item of decision.additionalContext ?? []) appendContext(session, item)
      return blocked
    }
    default:
      throw new TurnError(
        'PLUGIN_ERROR',
        `agent/prompt-submit returned an invalid decision: ${describe(decision)}`,
      )
  }
}

/** Records a prompt that did not go in, where its message would have been (AL-11). */
function notAdmitted(session: Session, prompt: Prompt, reason: string): Admission {
  session.append('prompt/blocked', { content: blocks(prompt.content), source: prompt.source, reason })
  return { admitted: false, reason }
}

/** Drains held input in arrival order; returns how many steering inputs were admitted. */
export async function drainHeld(
  ctx: Context,
  agent: Agent,
  session: Session,
  queue: InputQueue,
  signal: AbortSignal,
): Promise<number> {
  let admittedSteering = 0
  for (const item of queue.takeDrained()) {
    switch (item.kind) {
      case 'steer':
        if (item.input.source.kind === 'user') {
          const r = await admitPrompt(ctx, agent, session, item.input, 'steering/message', signal)
          if (r.admitted) admittedSteering++
        } else {
          session.append('steering/message', {
            content: blocks(item.input.content),
            source: item.input.source,
          })
          admittedSteering++
        }
        break
      case 'inject':
        session.append('context/message', { content: blocks(item.input.content), source: item.input.source })
        break
      case 'continue':
        session.append('steering/message', {
          content: blocks(item.reason),
          source: item.source ?? CONTINUATION_SOURCE,
        })
        break
      default: {
        const never: never = item
        throw new Error(`unknown held input ${describe(never)}`)
      }
    }
  }
  return admittedSteering
}

/**
 * AL-4, after `turn/end`: injections still held are appended now; steering that arrived too late for
 * the turn becomes a prompt of the next one when `keepSteering` (it is never lost while the agent
 * runs on); forced continuations lapse.
 */
export function settleLeftovers(session: Session, queue: InputQueue, keepSteering: boolean): void {
  for (const item of queue.takeDrained()) {
    if (item.kind === 'inject') {
      session.append('context/message', { content: blocks(item.input.content), source: item.input.source })
    } else if (item.kind === 'steer' && keepSteering) {
      queue.hold({ kind: 'prompt', input: item.input, settle: () => {} })
    }
  }
}

/** Turns a seam failure into the turn-ending `PLUGIN_ERROR` that names the seam (AL-18). */
export function pluginError(seam: string, error: unknown): TurnError {
  if (error instanceof TurnError) return error
  if (error instanceof SeamError) return new TurnError('PLUGIN_ERROR', error.message, error)
  return new TurnError(
    'PLUGIN_ERROR',
    `${seam}: ${error instanceof Error ? error.message : String(error)}`,
    error,
  )
}

function describe(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value)
  } catch {
    return String(value)
  }
}
