// The scripted model (AL-21): plays script entries as streamed chunks through the real `llm/stream`
// seam, records every request it receives, and fails loudly when the script runs out.
import type { AssistantBlock, FinishReason, StreamChunk, Usage } from '@tack/session'
import { LlmError } from '../errors.ts'
import type { LlmAdapter, LlmFinal, LlmRequest, LlmResponse } from '../types.ts'
import type { ScriptEntry } from './script.ts'

export class ScriptExhaustedError extends Error {
  override readonly name = 'ScriptExhaustedError'
  readonly code = 'SCRIPT_EXHAUSTED'
  constructor(requestNumber: number) {
    super(`the scripted model got request ${requestNumber} but its script has no entry left`)
  }
}

export interface ScriptedModel {
  readonly adapter: LlmAdapter
  /** Every request received, in order (deep-frozen by the loop). */
  readonly requests: readonly LlmRequest[]
  /** Entries not yet played. */
  readonly remaining: number
  /** Throws while entries remain. */
  assertConsumed(): void
  /** Appends entries to the script. */
  push(...entries: ScriptEntry[]): void
}

export function createScriptedModel(entries: readonly ScriptEntry[]): ScriptedModel {
  const script = [...entries]
  const requests: LlmRequest[] = []
  let callCounter = 0
  const adapter: LlmAdapter = {
    stream(request, signal) {
      requests.push(request)
      let entry = script.shift()
      if (!entry) throw new ScriptExhaustedError(requests.length)
      while (entry.kind === 'respond') entry = entry.respond(request)
      return play(entry, signal, () => `call_${++callCounter}`)
    },
  }
  return {
    adapter,
    requests,
    get remaining() {
      return script.length
    },
    assertConsumed() {
      if (script.length > 0) throw new Error(`the scripted model still has ${script.length} unplayed entries`)
    },
    push(...more) {
      script.push(...more)
    },
  }
}

/** Turns one entry into a streamed response; also used by the `scripted` file provider. */
export function play(entry: ScriptEntry, signal: AbortSignal, nextCallId: () => string): LlmResponse {
  switch (entry.kind) {
    case 'text':
    case 'tool-calls': {
      const { chunks, content, finishReason, usage } = render(entry, nextCallId)
      return respondWith(chunks, { content, finishReason, ...(usage ? { usage } : {}) })
    }
    case 'error': {
      const fail = new LlmError(entry.message, {
        code: entry.code ?? (entry.status ? `HTTP_${entry.status}` : 'MODEL_ERROR'),
        ...(entry.transient !== undefined ? { transient: entry.transient } : {}),
        ...(entry.status !== undefined ? { status: entry.status } : {}),
      })
      if (entry.afterChunks === undefined) throw fail
      const pre: StreamChunk[] = []
      const t = entry.text ?? 'partial answer'
      for (let i = 0; i < entry.afterChunks; i++) pre.push({ type: 'text-delta', text: i === 0 ? t : ' …' })
      return brokenStream(pre, fail)
    }
    case 'hang':
      return hanging(signal, entry.text)
    case 'respond':
      throw new Error('respond entries are resolved before play()')
    default: {
      const never: never = entry
      throw new Error(`unknown script entry ${JSON.stringify(never)}`)
    }
  }
}

function render(
  entry: Extract<ScriptEntry, { kind: 'text' | 'tool-calls' }>,
  nextCallId: () => string,
): { chunks: StreamChunk[]; content: AssistantBlock[]; finishReason: FinishReason; usage?: Usage } {
  const chunks: StreamChunk[] = []
  const content: AssistantBlock[] = []
  if (entry.reasoning) {
    chunks.push({ type: 'reasoning-delta', text: entry.reasoning })
    content.push({ type: 'reasoning', text: entry.reasoning })
  }
  const t = entry.text ?? ''
  if (t) {
    // Two deltas, so consumers see streaming rather than one lump.
    const cut = Math.ceil(t.length / 2)
    chunks.push({ type: 'text-delta', text: t.slice(0, cut) })
    if (t.length > cut) chunks.push({ type: 'text-delta', text: t.slice(cut) })
    content.push({ type: 'text', text: t })
  }
  if (entry.kind === 'tool-calls') {
    for (const call of entry.calls) {
      const callId = call.id ?? nextCallId()
      const args = call.rawArguments ?? JSON.stringify(call.args ?? {})
      chunks.push({ type: 'tool-call-delta', callId, name: call.name, argumentsDelta: args })
      content.push({ type: 'tool-call', callId, name: call.name, arguments: args })
    }
  }
  const finishReason = entry.finishReason ?? (entry.kind === 'tool-calls' ? 'tool-calls' : 'stop')
  if (entry.usage) chunks.push({ type: 'usage', usage: entry.usage })
  chunks.push({ type: 'finish', reason: finishReason })
  return { chunks, content, finishReason, ...(entry.usage ? { usage: entry.usage } : {}) }
}

function respondWith(chunks: StreamChunk[], final: LlmFinal): LlmResponse {
  return {
    chunks: (async function* () {
      for (const c of chunks) yield c
    })(),
    final: Promise.resolve(final),
  }
}

function brokenStream(pre: StreamChunk[], fail: Error): LlmResponse {
  const final = Promise.reject(fail)
  final.catch(() => {})
  return {
    chunks: (async function* () {
      for (const c of pre) yield c
      throw fail
    })(),
    final,
  }
}

function hanging(signal: AbortSignal, t?: string): LlmResponse {
  const aborted = new Promise<never>((_, reject) => {
    const fire = () => reject(new LlmError('aborted', { code: 'ABORTED' }))
    if (signal.aborted) fire()
    else signal.addEventListener('abort', fire, { once: true })
  })
  aborted.catch(() => {})
  return {
    chunks: (async function* () {
      if (t) yield { type: 'text-delta', text: t } satisfies StreamChunk
      await aborted
    })(),
    final: aborted,
  }
}
