// One compaction (35-compaction.md CP-2..CP-6): plan the cut, bracket the work in `compact/start` …
// `compact/end`, summarise, and only then append the summary as a `context/message` that replaces the
// region — in the same synchronous frame as `compact/summary` and `compact/end`, so one flush persists
// all three or none (CP-5: a crash before it leaves the old surface). `compaction/pre` may block it or
// add instructions before anything is logged; `compaction/post` follows a successful one (seams.ts).
import { type Agent, errorMessage } from '@tack/agent'
import { emitSafely, waterfall } from '@tack/kernel'
import { contextWindowOf } from '@tack/llm'
import type { Message, Session } from '@tack/session'
import type { Context } from 'cordis'
import type { CompactionConfig } from './config.ts'
import { COMPACTION_SOURCE, type CompactionTrigger } from './log-events.ts'
import { measurePressure, messageChars, type RequestParts, tokensOf } from './pressure.ts'
import { planCompaction } from './retention.ts'
import type { PostCompactInfo, PostCompactResult, PreCompactDecision, PreCompactInfo } from './seams.ts'
import { summarise, summaryRequest } from './summary.ts'

/** What a compaction did. */
export type CompactionResult =
  | {
      readonly compacted: true
      readonly fromSeq: number
      readonly toSeq: number
      readonly summarised: number
      readonly retained: number
      readonly pressure: number
      /** What `compaction/post` listeners asked to show with the result. */
      readonly notices?: readonly string[]
    }
  | { readonly compacted: false; readonly reason: string }

/** The line ahead of the summary, so the model reads it as history, not as a new request. */
export const SUMMARY_HEADING =
  'The earlier part of this session was compacted. Summary of what happened before the messages that follow:'

export interface CompactionRun {
  readonly agent: Agent
  readonly trigger: CompactionTrigger
  readonly parts: RequestParts
  readonly signal: AbortSignal
  /** What the user asked the summary to focus on (`/compact keep the API decisions`). */
  readonly instructions?: string
  /** Checked before the summary lands: false when the session moved on meanwhile (a turn started). */
  readonly stillSafe?: () => boolean
}

export class Compactor {
  readonly #ctx: Context
  readonly #config: CompactionConfig

  constructor(ctx: Context, config: CompactionConfig) {
    this.#ctx = ctx
    this.#config = config
  }

  get config(): CompactionConfig {
    return this.#config
  }

  /** The window of `model`: configured, else the catalogue's, else 128000. */
  windowOf(model: string): number {
    return this.#config.contextWindow ?? contextWindowOf(model)
  }

  /** CP-2: whether the coming request of `agent` has reached the threshold. */
  pressure(agent: Agent, parts: RequestParts): { tokens: number; limit: number } {
    const { tokens } = measurePressure(agent.session, parts, this.#config.charsPerToken)
    return { tokens, limit: Math.floor(this.#config.thresholdRatio * this.windowOf(agent.model)) }
  }

  /** Runs one compaction of `run.agent`'s session now (between turns or between steps). */
  async compact(run: CompactionRun): Promise<CompactionResult> {
    const { agent, signal } = run
    const session = agent.session
    const cfg = this.#config
    const window = this.windowOf(agent.model)
    // A model window smaller than `retainTokens` would keep everything: keep half the window at most.
    let retain = Math.min(cfg.retainTokens, Math.floor(window / 2))
    // Asked for (`/compact`, `ctx.compact()`) or forced by the provider's "context too long" (whose real
    // window may be far below the one we assumed, e.g. a local server's), it always shrinks: at most half
    // the history stays verbatim (docs/decisions/0060-compaction.md).
    if (run.trigger !== 'auto')
      retain = Math.min(retain, Math.floor(historyTokens(session, cfg.charsPerToken) / 2))
    const plan = planCompaction(session, retain, cfg.charsPerToken)
    if (!plan) return { compacted: false, reason: 'nothing before the kept tail to summarise' }
    const pre = await preCompact(this.#ctx, run)
    if (pre.action === 'block') return { compacted: false, reason: pre.reason }
    const instructions = [run.instructions, ...(pre.additionalInstructions ?? [])].filter(Boolean).join('\n')
    const pressure = measurePressure(session, run.parts, cfg.charsPerToken).tokens
    const region = regionMessages(session, plan.summarised)
    session.append('compact/start', {
      fromSeq: plan.fromSeq,
      toSeq: plan.toSeq,
      pressure,
      trigger: run.trigger,
    })
    await session.flush()
    const model = cfg.summarizationModel ?? agent.model
    const request = summaryRequest(region, {
      model,
      maxTokens: cfg.maxTokens,
      ...(instructions ? { instructions } : {}),
      maxTranscriptChars: transcriptBudget(this.windowOf(model), cfg.maxTokens, cfg.charsPerToken),
    })
    let summary: Awaited<ReturnType<typeof summarise>>
    try {
      summary = await summarise(this.#ctx, request, cfg.compactionRetries, signal)
    } catch (error) {
      const why = signal.aborted ? 'cancelled' : error instanceof Error ? error.message : String(error)
      session.append('compact/end', { ok: false, error: why })
      await session.flush()
      return { compacted: false, reason: `the summary failed: ${why}` }
    }
    if (run.stillSafe && !run.stillSafe()) {
      const why = 'a turn started while the summary was written; nothing was replaced'
      session.append('compact/end', { ok: false, error: why })
      await session.flush()
      return { compacted: false, reason: why }
    }
    // One synchronous frame: the replace is never persisted without its brackets, nor they without it.
    session.append('compact/summary', {
      text: summary.text,
      ...(summary.usage ? { usage: summary.usage } : {}),
    })
    session.append(
      'context/message',
      {
        content: [{ type: 'text', text: `${SUMMARY_HEADING}\n\n${summary.text}` }],
        source: COMPACTION_SOURCE,
      },
      { kind: 'replace', fromSeq: plan.fromSeq, toSeq: plan.toSeq },
    )
    session.append('compact/end', { ok: true })
    await session.flush()
    const notices = await postCompact(this.#ctx, agent, {
      trigger: run.trigger,
      summary: summary.text,
      fromSeq: plan.fromSeq,
      toSeq: plan.toSeq,
    })
    // CP-6: the surface began a new epoch; Claude Code's SessionStart hooks see source `compact`.
    emitSafely(this.#ctx, 'agent/session-start', agent, 'compact')
    return { compacted: true, ...plan, pressure, ...(notices.length > 0 ? { notices } : {}) }
  }
}

/**
 * `compaction/pre`: a listener's block, or its extra instructions. A throwing or malformed listener
 * blocks (fails closed, as a throwing waterfall listener does elsewhere): the reason names the fault.
 */
async function preCompact(ctx: Context, run: CompactionRun): Promise<PreCompactDecision> {
  const info: PreCompactInfo = Object.freeze({
    trigger: run.trigger,
    ...(run.instructions ? { instructions: run.instructions } : {}),
    signal: run.signal,
  })
  let decision: PreCompactDecision
  try {
    decision = await waterfall(ctx, 'compaction/pre', [run.agent, info], () => PROCEED)
  } catch (error) {
    // A SeamError's message names the seam and the plugin.
    return { action: 'block', reason: errorMessage(error) }
  }
  switch (decision?.action) {
    case 'proceed':
      return {
        action: 'proceed',
        additionalInstructions: (decision.additionalInstructions ?? []).map(String),
      }
    case 'block':
      return { action: 'block', reason: String(decision.reason || 'a plugin blocked the compaction') }
    default:
      return { action: 'block', reason: 'compaction/pre returned an invalid decision' }
  }
}

/** `compaction/post`: the notices its listeners return. A failing listener is warned about; the compaction stands. */
async function postCompact(ctx: Context, agent: Agent, info: PostCompactInfo): Promise<readonly string[]> {
  try {
    const result = await waterfall(ctx, 'compaction/post', [agent, Object.freeze(info)], () => NO_NOTICES)
    return Array.isArray(result?.notices) ? result.notices.map(String) : []
  } catch (error) {
    ctx.logger('compaction').warn('%s; its notices are lost, the compaction stands', errorMessage(error))
    return []
  }
}

const PROCEED: PreCompactDecision = Object.freeze({ action: 'proceed' })
const NO_NOTICES: PostCompactResult = Object.freeze({ notices: Object.freeze([]) })

function historyTokens(session: Session, charsPerToken: number): number {
  return tokensOf(
    session.deriveMessages().reduce((n, m) => n + messageChars(m), 0),
    charsPerToken,
  )
}

function regionMessages(session: Session, count: number): Message[] {
  return session.deriveMessages().slice(0, count)
}

/**
 * Characters of transcript the summary model can read: its window less the answer (at most a quarter of
 * the window) with a fifth kept free for the instructions and for the estimate's error.
 */
export function transcriptBudget(window: number, maxTokens: number, charsPerToken: number): number {
  const answer = Math.min(maxTokens, Math.floor(window / 4))
  return Math.floor((window - answer) * 0.8 * charsPerToken)
}
