// CP-1: the estimated size of the coming request in tokens — session prefix, derived history, system
// prompt and tool schemas — from `charsPerToken`. When the provider reported the input tokens of an
// earlier request and nothing was compacted since, that figure replaces the estimate for the part of the
// request it covered, and only what was appended after it is estimated.
import type { Message, Session, SessionEvent, ToolSchema, Usage } from '@tack/session'

/** Characters-per-token conversion; rounding up so a non-empty text is never free. */
export function tokensOf(chars: number, charsPerToken: number): number {
  return Math.ceil(chars / charsPerToken)
}

/** A few characters of framing per message (role, separators), as providers count them. */
const MESSAGE_OVERHEAD_CHARS = 16

/**
 * What an image is counted as: providers bill an image by its pixels, not its base64 text, and cap it
 * near 1,600 tokens (Anthropic's ~1.15 megapixel limit); 6,400 characters is that at 4 per token, an
 * overestimate for small images, which is the safe side for a compaction threshold.
 */
export const IMAGE_CHARS = 6400

/** Characters a message costs on the wire, roughly: its texts, images, call arguments and framing. */
export function messageChars(message: Message): number {
  let chars = MESSAGE_OVERHEAD_CHARS
  for (const block of message.content) {
    if (block.type === 'tool-call') chars += block.name.length + block.arguments.length + block.callId.length
    else if (block.type === 'image') chars += IMAGE_CHARS
    else chars += block.text.length
  }
  if (message.role === 'tool') chars += message.name.length + message.callId.length
  return chars
}

export interface RequestParts {
  readonly system: string
  readonly prefix: readonly Message[]
  readonly tools: readonly ToolSchema[]
}

/** The part of a request that is not the history: system prompt, tool schemas, session prefix. */
export function fixedChars(parts: RequestParts): number {
  let chars = parts.system.length
  if (parts.tools.length > 0) chars += JSON.stringify(parts.tools).length
  for (const m of parts.prefix) chars += messageChars(m)
  return chars
}

export interface Pressure {
  readonly tokens: number
  /** Whether reported usage replaced part of the estimate. */
  readonly reported: boolean
}

/** CP-1: the coming request's size in tokens. */
export function measurePressure(session: Session, parts: RequestParts, charsPerToken: number): Pressure {
  const surface = session.surface()
  const messages = session.deriveMessages()
  const anchor = reportedAnchor(session.events(), surface)
  if (anchor) {
    let chars = 0
    for (let i = anchor.position + 1; i < messages.length; i++) chars += messageChars(messages[i])
    return { tokens: anchor.tokens + tokensOf(chars, charsPerToken), reported: true }
  }
  let chars = fixedChars(parts)
  for (const m of messages) chars += messageChars(m)
  return { tokens: tokensOf(chars, charsPerToken), reported: false }
}

/**
 * The newest assistant message on the surface whose usage was reported, if no replace was folded after
 * it (a compaction since makes its input count stale): its input plus output tokens cover the request up
 * to and including it.
 */
function reportedAnchor(
  events: readonly SessionEvent[],
  surface: readonly SessionEvent[],
): { position: number; tokens: number } | undefined {
  for (let i = surface.length - 1; i >= 0; i--) {
    const node = surface[i]
    if (node.type !== 'assistant/message') continue
    const usage = (node.data as { usage?: Usage }).usage
    if (!usage || usage.inputTokens <= 0) return undefined
    for (let s = node.seq + 1; s < events.length; s++) if (events[s].op?.kind === 'replace') return undefined
    return { position: i, tokens: usage.inputTokens + usage.outputTokens }
  }
  return undefined
}
