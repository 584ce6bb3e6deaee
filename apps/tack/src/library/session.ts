// A library session (api.ts TackSession): one booted context (boot.ts, as `tack run` boots) holding one
// agent. `prompt` sends as `tack run` sends and streams the events the session appends meanwhile;
// `abort` cancels like Ctrl-C; `close` ends as `tack run` ends: the agent disposed (the log flushed, the
// store's writer lease released), the context's plugins disposed. A new session is stored from its
// first turn (index.ts), so one opened and closed without a prompt leaves nothing behind. What it hands
// out — events, results — is redacted as `tack run --json`'s lines are (redaction.ts).
import type { AgentHandle } from '@tack/agent'
import type { SecretRedactor } from '@tack/kernel'
import { lastAssistantText, type SessionEvent, type TurnEndReason, type Usage } from '@tack/session'
import { resultError, runStats } from '../commands/run-json.ts'
import type { Booted } from '../boot.ts'
import type { PromptOptions, TackEvent, TackSession, Turn, TurnResult } from './api.ts'
import { CostMeter } from './cost-limit.ts'
import { TackError } from './errors.ts'
import { EventRedaction, redactedCopy } from './redaction.ts'
import { TurnStream } from './turn-stream.ts'

type CostOf = (model: string, usage: Usage) => number | undefined

export interface SessionParts {
  readonly booted: Booted
  readonly handle: AgentHandle
  readonly costOf: CostOf
  readonly maxCostUsd?: number
  /** The CLI's redactor for this session (the environment's and the boot's declared secrets). */
  readonly redact: SecretRedactor
}

export class LibrarySession implements TackSession {
  readonly #parts: SessionParts
  readonly #redaction: EventRedaction
  #running: Promise<TurnResult> | undefined
  #closing: Promise<void> | undefined

  constructor(parts: SessionParts) {
    this.#parts = parts
    this.#redaction = new EventRedaction(parts.redact)
  }

  get id(): string {
    return this.#agent.session.id
  }

  get cwd(): string {
    return this.#agent.cwd
  }

  get model(): string {
    return this.#agent.model
  }

  get #agent() {
    return this.#parts.handle.agent
  }

  events(): readonly TackEvent[] {
    return this.#redaction.events(this.#agent.session.events() as readonly TackEvent[])
  }

  prompt(text: string, options: PromptOptions = {}): Turn {
    if (this.#closing) throw new TackError('usage', `session ${this.id} is closed`)
    if (this.#running)
      throw new TackError(
        'usage',
        `session ${this.id} is running a turn: await its result (or abort it) first`,
      )
    if (typeof text !== 'string' || text.trim() === '')
      throw new TackError('usage', 'prompt needs the task as a non-empty string')
    const agent = this.#agent
    const start = agent.session.length
    const limit = this.#parts.maxCostUsd
    const meter = limit !== undefined ? new CostMeter(agent.model, this.#parts.costOf) : undefined
    let stoppedAt: number | undefined
    const result = Promise.withResolvers<TurnResult>()
    const stream = new TurnStream(result.promise)
    const shown = this.#redaction.stream<TackEvent>()
    const off = agent.session.subscribe((e) => {
      for (const ready of shown(e as TackEvent)) stream.push(ready)
      if (!meter || stoppedAt !== undefined || limit === undefined) return
      const spent = meter.add(e)
      if (spent > limit) {
        stoppedAt = spent
        // Logged before the cancel, so the log says why the turn ended aborted.
        agent.session.append('session/limit', { kind: 'max-cost', limitUsd: limit, spentUsd: spent })
        agent.cancel('max-cost')
      }
    })
    const signal = options.signal
    const onAbort = () => agent.cancel('aborted by the caller')
    signal?.addEventListener('abort', onAbort, { once: true })
    const sending = agent.send({ content: text, source: { kind: 'user' } })
    // Aborted before the prompt was sent: cancelled now, the prompt is dropped without a turn (AL-23).
    if (signal?.aborted) agent.cancel('aborted by the caller')
    this.#running = sending
      .then((outcome) => this.#resultOf(start, outcome.reason, stoppedAt))
      .finally(() => {
        off()
        signal?.removeEventListener('abort', onAbort)
        this.#running = undefined
      })
    this.#running.then(
      (value) => {
        stream.end()
        result.resolve(value)
      },
      (error: unknown) => {
        stream.end({ error })
        result.reject(error)
      },
    )
    return stream
  }

  abort(reason?: string): void {
    this.#agent.cancel(reason ?? 'aborted by the caller')
  }

  close(): Promise<void> {
    this.#closing ??= this.#close()
    return this.#closing
  }

  async #close(): Promise<void> {
    const { booted, handle } = this.#parts
    try {
      if (this.#running) {
        this.#agent.cancel('session closed')
        await this.#running.catch(() => {})
      }
      await handle.dispose('exit')
    } finally {
      await booted.close()
    }
  }

  /** The prompt's result, redacted like its events (its text, the error's message). */
  #resultOf(start: number, reason: TurnEndReason, stoppedAt: number | undefined): TurnResult {
    return redactedCopy(this.#rawResultOf(start, reason, stoppedAt), this.#parts.redact)
  }

  #rawResultOf(start: number, reason: TurnEndReason, stoppedAt: number | undefined): TurnResult {
    const agent = this.#agent
    const events = agent.session.events().slice(start) as readonly SessionEvent[]
    const stats = runStats(events, agent.model, this.#parts.costOf)
    const byLimit = stoppedAt !== undefined && reason.kind === 'aborted'
    const error = byLimit
      ? {
          code: 'MAX_COST',
          message: `the turn was stopped after spending $${stoppedAt.toFixed(4)}, over maxCostUsd $${this.#parts.maxCostUsd}`,
        }
      : resultError(reason)
    return {
      sessionId: agent.session.id,
      exitReason: byLimit ? 'max-cost' : reason.kind,
      reason,
      finalText: lastAssistantText(events, { nonEmpty: true }) ?? '',
      usage: stats.usage,
      ...(stats.costUsd !== undefined ? { costUsd: stats.costUsd } : {}),
      ...(error ? { error } : {}),
      turns: stats.turns,
      steps: stats.steps,
      permissionDenials: stats.permissionDenials,
    }
  }
}
