// CP-4: the one-shot summary call. The summarised region is rendered as a plain transcript in one user
// message (so the call needs no tool schemas and has no tool pairing of its own), sent through
// `llm/stream` like every model call — marked one-shot, since it is built from no session's surface — and
// retried `compactionRetries` times on failure.
import { callModel, type LlmRequest } from '@tack/agent'
import { deepFreeze } from '@tack/kernel'
import { type ImageBlock, imageNote, markOneShotRequest, type Message, type Usage } from '@tack/session'
import type { Context } from 'cordis'

export const SUMMARY_SYSTEM_PROMPT = [
  "You compact a coding agent's conversation so the agent can continue the same work with only your summary",
  'and the newest messages in front of it. Write a dense summary in plain text, no preamble, covering:',
  "the user's goals and every instruction or constraint they gave; decisions taken and why; files read,",
  'created or changed and their current state; commands run and results that still matter; errors met and',
  'how they were handled; open questions; and what the agent was about to do next. Keep names, paths,',
  'identifiers and numbers exact. Earlier summaries in the transcript are part of the history: fold them in.',
].join('\n')

/** One block of the transcript is cut to this many characters, keeping its start and end. */
const BLOCK_CHARS = 4000

export interface SummaryRequestOptions {
  readonly model: string
  readonly maxTokens: number
  /** The user's focus for this summary, if they gave one. */
  readonly instructions?: string
  /** The transcript keeps its newest part within this many characters. */
  readonly maxTranscriptChars: number
}

/** A block's words for the summary model: an image is its note (the summary model reads text only). */
const wordsOf = (block: { type: 'text'; text: string } | ImageBlock): string =>
  block.type === 'image' ? imageNote(block) : block.text

/** The transcript of `messages` the summary model reads. */
export function renderTranscript(messages: readonly Message[], maxChars: number): string {
  const parts: string[] = []
  for (const m of messages) {
    for (const block of m.content) {
      if (block.type === 'tool-call') parts.push(`[assistant calls ${block.name}] ${clip(block.arguments)}`)
      else if (block.type === 'reasoning') continue
      else if (m.role === 'tool')
        parts.push(`[${m.isError ? 'error from' : 'result of'} ${m.name}] ${clip(wordsOf(block))}`)
      else parts.push(`[${m.role}] ${clip(wordsOf(block))}`)
    }
  }
  let text = parts.join('\n\n')
  if (text.length > maxChars)
    text = `[... older history omitted ...]\n\n${text.slice(text.length - maxChars)}`
  return text
}

function clip(text: string): string {
  if (text.length <= BLOCK_CHARS) return text
  const half = BLOCK_CHARS / 2
  return `${text.slice(0, half)}\n[... ${text.length - BLOCK_CHARS} characters omitted ...]\n${text.slice(-half)}`
}

export function summaryRequest(messages: readonly Message[], opts: SummaryRequestOptions): LlmRequest {
  const transcript = renderTranscript(messages, opts.maxTranscriptChars)
  const focus = opts.instructions
    ? `\n\nWhen summarising, follow these instructions of the user: ${opts.instructions}`
    : ''
  const request: LlmRequest = deepFreeze({
    config: { model: opts.model, maxTokens: opts.maxTokens },
    system: SUMMARY_SYSTEM_PROMPT,
    messages: [
      {
        role: 'user',
        content: [{ type: 'text', text: `Summarise this conversation:\n\n${transcript}${focus}` }],
      },
    ],
  })
  markOneShotRequest(request)
  return request
}

export interface SummaryResult {
  readonly text: string
  readonly usage?: Usage
}

/** Calls the model for `request` up to `1 + retries` times; throws the last failure. */
export async function summarise(
  ctx: Context,
  request: LlmRequest,
  retries: number,
  signal: AbortSignal,
): Promise<SummaryResult> {
  let last: unknown
  for (let attempt = 0; attempt <= retries; attempt++) {
    signal.throwIfAborted()
    try {
      return await summariseOnce(ctx, request, signal)
    } catch (error) {
      last = error
    }
  }
  throw last
}

async function summariseOnce(ctx: Context, request: LlmRequest, signal: AbortSignal): Promise<SummaryResult> {
  const response = await callModel(ctx, request, signal)
  response.final.catch(() => {})
  // Read the stream through: some adapters settle `final` only once their chunks are consumed.
  for await (const _chunk of response.chunks) if (signal.aborted) break
  signal.throwIfAborted()
  const final = await response.final
  const text = final.content
    .filter((b) => b.type === 'text')
    .map((b) => b.text)
    .join('')
    .trim()
  if (!text) throw new Error('the summary model answered with no text')
  return { text, ...(final.usage ? { usage: final.usage } : {}) }
}
