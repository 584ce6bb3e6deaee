// Chunk mapping between tack's model stream and a `turn.step` hook's stream (65-mod-host.md
// requirement 7): text delta → `text`, reasoning delta → `thinking`, tool-call delta → `input`, each
// tool call of the final message → `tool` before `stop`, finish → `stop`, usage → `engine` (tack's
// chunk passed through untouched). And back: what a chain yields becomes tack's chunks and final.
import type { LlmFinal, LlmResponse } from '@tack/agent'
import type { AssistantBlock, FinishReason, StreamChunk, Usage } from '@tack/session'

export type ModChunk =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'thinking'; readonly thinking: string }
  | { readonly type: 'input'; readonly id: string; readonly name?: string; readonly partial: string }
  | { readonly type: 'tool'; readonly id: string; readonly name: string; readonly input: unknown }
  | { readonly type: 'stop'; readonly reason: FinishReason }
  | { readonly type: 'engine'; readonly chunk: StreamChunk }

export interface ClaudeUsage {
  readonly input_tokens: number
  readonly output_tokens: number
  readonly cache_read_input_tokens: number
  readonly cache_creation_input_tokens: number
  readonly model: string
}

export interface StepResult {
  readonly turnId: string
  readonly index: number
  readonly answer: string
  readonly toolUses: { name: string; input: unknown }[]
  readonly stopReason: FinishReason | null
  readonly usage: ClaudeUsage | null
}

export function claudeUsage(usage: Usage | undefined, model: string): ClaudeUsage | null {
  if (!usage) return null
  const cached = usage.cachedInputTokens ?? 0
  return {
    input_tokens: usage.inputTokens - cached,
    output_tokens: usage.outputTokens,
    cache_read_input_tokens: cached,
    cache_creation_input_tokens: 0,
    model,
  }
}

const parseInput = (text: string): unknown => {
  try {
    return JSON.parse(text || '{}')
  } catch {
    return text
  }
}

/** tack's response as a hook stream; the generator's return value is the step result. */
export async function* modStreamOf(
  response: LlmResponse,
  base: { turnId: string; index: number; model: string },
  toClaudeName: (tackName: string) => string,
): AsyncGenerator<ModChunk, StepResult> {
  response.final.catch(() => {})
  let finish: FinishReason | undefined
  for await (const chunk of response.chunks) {
    if (chunk.type === 'text-delta') yield { type: 'text', text: chunk.text }
    else if (chunk.type === 'reasoning-delta') yield { type: 'thinking', thinking: chunk.text }
    else if (chunk.type === 'tool-call-delta')
      yield {
        type: 'input',
        id: chunk.callId,
        ...(chunk.name ? { name: chunk.name } : {}),
        partial: chunk.argumentsDelta,
      }
    else if (chunk.type === 'usage') yield { type: 'engine', chunk }
    else if (chunk.type === 'finish') finish = chunk.reason
  }
  const final = await response.final
  const toolUses: { name: string; input: unknown }[] = []
  for (const block of final.content)
    if (block.type === 'tool-call') {
      const name = toClaudeName(block.name)
      const input = parseInput(block.arguments)
      toolUses.push({ name, input })
      yield { type: 'tool', id: block.callId, name, input }
    }
  const stopReason = finish ?? final.finishReason
  yield { type: 'stop', reason: stopReason }
  return {
    ...base,
    answer: final.content.map((b) => (b.type === 'text' ? b.text : '')).join(''),
    toolUses,
    stopReason,
    usage: claudeUsage(final.usage, base.model),
  }
}

/**
 * What the chain yielded, back as tack's response. `fromCore` are the hook-stream chunks the model's
 * own stream produced: when a chain forwarded exactly those, tack's own final stands (signatures,
 * usage); otherwise the final is built from the yielded chunks, with `usage` absent (an answered step).
 */
export function tackResponseOf(
  chunks: AsyncIterable<ModChunk>,
  coreFinal: () => Promise<LlmFinal | undefined>,
  fromCore: WeakSet<object>,
  toTackName: (claudeName: string) => string,
): LlmResponse {
  const { promise: final, resolve: settle, reject: fail } = Promise.withResolvers<LlmFinal>()
  async function* run(): AsyncGenerator<StreamChunk> {
    let untouched = true
    let text = ''
    let thinking = ''
    const calls: AssistantBlock[] = []
    let reason: FinishReason = 'stop'
    try {
      for await (const c of chunks) {
        if (!fromCore.has(c)) untouched = false
        if (c.type === 'text') {
          text += c.text
          yield { type: 'text-delta', text: c.text }
        } else if (c.type === 'thinking') {
          thinking += c.thinking
          yield { type: 'reasoning-delta', text: c.thinking }
        } else if (c.type === 'input')
          yield {
            type: 'tool-call-delta',
            callId: c.id,
            ...(c.name ? { name: c.name } : {}),
            argumentsDelta: c.partial,
          }
        else if (c.type === 'engine') yield c.chunk
        else if (c.type === 'tool')
          calls.push({
            type: 'tool-call',
            callId: c.id,
            name: toTackName(c.name),
            arguments: JSON.stringify(c.input ?? {}),
          })
        else if (c.type === 'stop') {
          reason = c.reason
          yield { type: 'finish', reason }
        }
      }
      const core = untouched ? await coreFinal() : undefined
      if (core) settle(core)
      else {
        const content: AssistantBlock[] = []
        if (thinking) content.push({ type: 'reasoning', text: thinking })
        if (text) content.push({ type: 'text', text })
        content.push(...calls)
        settle({ content, finishReason: calls.length && reason === 'stop' ? 'tool-calls' : reason })
      }
    } catch (error) {
      fail(error)
      throw error
    }
  }
  final.catch(() => {})
  return { chunks: run(), final }
}
