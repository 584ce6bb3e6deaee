// The AI SDK stream parts of one `doStream` call → our `StreamChunk`s and the final
// `{content, finishReason, usage}`. A stream is complete only when it carries a finish part that
// says the model finished; one that ends without it, or breaks, fails with an `LlmError` (the loop
// ends the turn `error`; `withRetry` retries only failures before the first chunk).
import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4FinishReason,
  LanguageModelV4StreamPart,
  LanguageModelV4Usage,
  SharedV4ProviderMetadata,
} from '@ai-sdk/provider'
import { LlmError, type LlmFinal, type LlmResponse } from '@tack/agent'
import type { AssistantBlock, FinishReason, StreamChunk, Usage } from '@tack/session'
import { type ErrorContext, toLlmError } from '../errors.ts'
import { type StallBounds, type StallPhase, StallWatchdog, watchedSignal } from './watchdog.ts'

export interface StreamHooks {
  /** A reasoning block's signature from provider metadata (Anthropic thinking), if any. */
  reasoningSignature?(metadata: SharedV4ProviderMetadata | undefined): string | undefined
  /** Whether a finish part really ends the answer (some packages synthesise one on a cut stream). */
  finishedCleanly?(reason: LanguageModelV4FinishReason): boolean
  /** Usage mapping where the protocol carries more than the package maps. */
  usage?(usage: LanguageModelV4Usage): Usage | undefined
}

export interface StreamRun {
  readonly model: LanguageModelV4
  readonly options: LanguageModelV4CallOptions
  readonly hooks: StreamHooks
  readonly errors: ErrorContext
  /** How long the provider may stay silent (watchdog.ts); the protocol's model must use `watchedFetch`. */
  readonly stallBounds: StallBounds
}

/** The config key of each bound, named in the failure so the user knows what to raise. */
const STALL_KEYS: Record<StallPhase, string> = {
  'first-byte': 'plugins.llm.firstByteTimeoutMs',
  idle: 'plugins.llm.idleTimeoutMs',
}

function stallError(provider: string, phase: StallPhase, ms: number): LlmError {
  const what =
    phase === 'first-byte'
      ? `no response within ${ms} ms of sending the request`
      : `the response stream was silent for ${ms} ms`
  return new LlmError(`${provider}: ${what} (${STALL_KEYS[phase]})`, { code: 'TIMEOUT', transient: true })
}

/** Opens the stream (HTTP errors reject here, before any chunk) and maps its parts lazily. */
export async function streamModel(run: StreamRun, signal: AbortSignal): Promise<LlmResponse> {
  const watchdog = new StallWatchdog(run.stallBounds)
  const combined = watchedSignal(signal, watchdog)
  const fail = (error: unknown): LlmError => {
    const phase = watchdog.stalled
    return phase && !signal.aborted
      ? stallError(run.errors.provider, phase, watchdog.boundOf(phase))
      : toLlmError(error, run.errors)
  }
  let stream: ReadableStream<LanguageModelV4StreamPart>
  try {
    stream = (await run.model.doStream({ ...run.options, abortSignal: combined })).stream
  } catch (error) {
    watchdog.stop()
    throw fail(error)
  }
  let resolveFinal!: (final: LlmFinal) => void
  let rejectFinal!: (error: unknown) => void
  const final = new Promise<LlmFinal>((resolve, reject) => {
    resolveFinal = resolve
    rejectFinal = reject
  })
  // Nobody may await `final` when the consumer gives up early; the rejection is still reported
  // through the chunk iterator.
  final.catch(() => {})
  const assembler = new Assembler(run.hooks)
  async function* chunks(): AsyncGenerator<StreamChunk> {
    const reader = stream.getReader()
    let settled = false
    try {
      while (true) {
        let next: Awaited<ReturnType<typeof reader.read>>
        try {
          next = await reader.read()
        } catch (error) {
          throw fail(error)
        }
        if (next.done) break
        const out = assembler.accept(next.value, run.errors)
        for (const chunk of out) yield chunk
      }
      const result = assembler.result(run.errors.provider)
      settled = true
      resolveFinal(result)
    } catch (error) {
      // A stall can surface as the package's own error part (a broken body); the stall is the reason.
      const failure = error instanceof LlmError && !watchdog.stalled ? error : fail(error)
      settled = true
      rejectFinal(failure)
      throw failure
    } finally {
      watchdog.stop()
      if (!settled) {
        rejectFinal(
          new LlmError('the model stream was abandoned before it finished', {
            code: 'ABORTED',
            transient: false,
          }),
        )
      }
      reader.cancel().catch(() => {})
    }
  }
  return { chunks: chunks(), final }
}

type Slot =
  | { type: 'text'; text: string }
  | { type: 'reasoning'; text: string; signature?: string }
  | { type: 'tool-call'; callId: string; name: string; arguments: string; done: boolean }
type ToolSlot = Extract<Slot, { type: 'tool-call' }>

/** Builds the final answer from stream parts and says which chunks each part yields. */
class Assembler {
  readonly #hooks: StreamHooks
  readonly #slots: Slot[] = []
  readonly #byId = new Map<string, Slot>()
  #finish?: { reason: FinishReason; usage?: Usage }

  constructor(hooks: StreamHooks) {
    this.#hooks = hooks
  }

  #slot<T extends Slot>(key: string, make: () => T): T {
    let slot = this.#byId.get(key)
    if (!slot) {
      slot = make()
      this.#byId.set(key, slot)
      this.#slots.push(slot)
    }
    return slot as T
  }

  accept(part: LanguageModelV4StreamPart, errors: ErrorContext): StreamChunk[] {
    switch (part.type) {
      case 'text-delta': {
        if (!part.delta) return []
        this.#slot(`text:${part.id}`, () => ({ type: 'text', text: '' })).text += part.delta
        return [{ type: 'text-delta', text: part.delta }]
      }
      case 'reasoning-start':
      case 'reasoning-delta':
      case 'reasoning-end': {
        const signature = this.#hooks.reasoningSignature?.(part.providerMetadata)
        const delta = part.type === 'reasoning-delta' ? part.delta : ''
        if (!delta && !signature) return []
        const slot = this.#slot(`reasoning:${part.id}`, (): Slot => ({ type: 'reasoning', text: '' }))
        if (slot.type !== 'reasoning') return []
        if (signature) slot.signature = signature
        slot.text += delta
        return delta ? [{ type: 'reasoning-delta', text: delta }] : []
      }
      case 'tool-input-start': {
        if (part.providerExecuted) return []
        this.#slot(
          `tool:${part.id}`,
          (): ToolSlot => ({
            type: 'tool-call',
            callId: part.id,
            name: part.toolName,
            arguments: '',
            done: false,
          }),
        )
        return [{ type: 'tool-call-delta', callId: part.id, name: part.toolName, argumentsDelta: '' }]
      }
      case 'tool-input-delta': {
        const slot = this.#byId.get(`tool:${part.id}`)
        if (slot?.type !== 'tool-call' || !part.delta) return []
        slot.arguments += part.delta
        return [{ type: 'tool-call-delta', callId: slot.callId, argumentsDelta: part.delta }]
      }
      case 'tool-call': {
        if (part.providerExecuted) return []
        const fresh = !this.#byId.has(`tool:${part.toolCallId}`)
        const slot = this.#slot(
          `tool:${part.toolCallId}`,
          (): ToolSlot => ({
            type: 'tool-call',
            callId: part.toolCallId,
            name: part.toolName,
            arguments: '',
            done: false,
          }),
        )
        if (slot.type !== 'tool-call') return []
        // The final input is authoritative (raw model text, valid JSON or not); deltas that fell
        // short of it are completed so the chunks still add up to the logged arguments.
        const rest = part.input.startsWith(slot.arguments) ? part.input.slice(slot.arguments.length) : ''
        slot.arguments = part.input
        slot.done = true
        const out: StreamChunk[] = []
        if (fresh || rest)
          out.push({
            type: 'tool-call-delta',
            callId: slot.callId,
            ...(fresh ? { name: slot.name } : {}),
            argumentsDelta: rest,
          })
        return out
      }
      case 'finish': {
        const clean = this.#hooks.finishedCleanly?.(part.finishReason) ?? true
        const reason = toFinishReason(part.finishReason)
        if (part.finishReason.unified === 'error' && part.finishReason.raw !== undefined)
          throw new LlmError(`${errors.provider}: the model stopped with "${part.finishReason.raw}"`, {
            code: 'MODEL_STOPPED',
            transient: true,
          })
        if (!clean || reason === undefined)
          throw new LlmError(`${errors.provider}: the stream ended before the model finished`, {
            code: 'STREAM_TRUNCATED',
            transient: true,
          })
        const usage = this.#hooks.usage?.(part.usage) ?? toUsage(part.usage)
        this.#finish = { reason, ...(usage ? { usage } : {}) }
        const out: StreamChunk[] = []
        if (usage) out.push({ type: 'usage', usage })
        out.push({ type: 'finish', reason })
        return out
      }
      case 'error':
        // @ai-sdk/openai-compatible reports a stream that ended without a finish reason this way.
        if (
          (part.error as { name?: unknown } | null)?.name === 'AI_InvalidResponseDataError' &&
          /without a finish reason/.test(String((part.error as { message?: unknown }).message))
        )
          throw new LlmError(`${errors.provider}: the stream ended before the model finished`, {
            code: 'STREAM_TRUNCATED',
            transient: true,
          })
        throw toLlmError(part.error, errors)
      case 'text-start':
      case 'text-end':
      case 'tool-input-end':
      case 'stream-start':
      case 'response-metadata':
      case 'raw':
      case 'ping':
      case 'source':
      case 'file':
      case 'reasoning-file':
      case 'custom':
      case 'tool-result':
      case 'tool-approval-request':
        return []
      default: {
        const never: never = part
        void never
        return []
      }
    }
  }

  result(provider: string): LlmFinal {
    if (!this.#finish)
      throw new LlmError(`${provider}: the stream ended without a finish reason`, {
        code: 'STREAM_TRUNCATED',
        transient: true,
      })
    const content: AssistantBlock[] = []
    for (const slot of this.#slots) {
      switch (slot.type) {
        case 'text':
          content.push({ type: 'text', text: slot.text })
          break
        case 'reasoning':
          content.push(
            slot.signature
              ? { type: 'reasoning', text: slot.text, signature: slot.signature }
              : { type: 'reasoning', text: slot.text },
          )
          break
        case 'tool-call':
          content.push({ type: 'tool-call', callId: slot.callId, name: slot.name, arguments: slot.arguments })
          break
        default: {
          const never: never = slot
          throw new Error(`unknown slot ${JSON.stringify(never)}`)
        }
      }
    }
    return {
      content,
      finishReason: this.#finish.reason,
      ...(this.#finish.usage ? { usage: this.#finish.usage } : {}),
    }
  }
}

/** Undefined for the unified reasons that mean the answer did not finish (`error`, `interrupted`). */
function toFinishReason(reason: LanguageModelV4FinishReason): FinishReason | undefined {
  switch (reason.unified) {
    case 'stop':
    case 'length':
    case 'content-filter':
    case 'tool-calls':
    case 'other':
      return reason.unified
    case 'error':
    case 'interrupted':
      return undefined
    default: {
      const never: never = reason.unified
      void never
      return 'other'
    }
  }
}

/** Our usage: `inputTokens` includes cache reads and writes; zero optional counts are left out. */
export function toUsage(usage: LanguageModelV4Usage, cacheWriteFallback?: number): Usage | undefined {
  const { inputTokens: i, outputTokens: o } = usage
  const read = i.cacheRead ?? 0
  const write = i.cacheWrite ?? cacheWriteFallback ?? 0
  const input = i.total ?? (i.noCache !== undefined ? i.noCache + read + write : undefined)
  if (input === undefined && o.total === undefined) return undefined
  return {
    inputTokens: input ?? 0,
    outputTokens: o.total ?? 0,
    ...(read > 0 ? { cachedInputTokens: read } : {}),
    ...(write > 0 ? { cacheWriteTokens: write } : {}),
    ...(o.reasoning ? { reasoningTokens: o.reasoning } : {}),
  }
}
