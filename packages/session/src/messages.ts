// The projection of one surface node to the message the model sees (§3 of the spec). Plugin-sourced
// words are wrapped in a `<context source=…>` envelope so they never pass as the user's.
import { deepFreeze } from '@tack/kernel'
import { SessionEventError } from './errors.ts'
import { blockText } from './image.ts'
import type { Content, ContentBlock, Message, MessageSource, SessionEvent } from './events.ts'

/** A string becomes one text block; blocks are copied as given. */
export function toContentBlocks(content: Content): ContentBlock[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }]
  return content.map((block) => ({ ...block }))
}

/** The attribute value naming a source: `user`, `plugin:NAME`, or a merged source kind. */
export function sourceLabel(source: MessageSource): string {
  const named = source as { kind: string; name?: unknown }
  if (named.kind === 'user') return 'user'
  return typeof named.name === 'string' ? `${named.kind}:${named.name}` : named.kind
}

const escapeAttribute = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;')

/**
 * Wraps content in `<context source="…">…</context>` as one text block (blocks joined by newlines, no
 * padding). A closing tag inside the text is neutralised (`<\/context`), so wrapped text cannot end
 * its envelope early and speak outside it.
 */
export function renderContextEnvelope(
  source: MessageSource,
  content: readonly ContentBlock[],
): ContentBlock[] {
  const body = content
    .map(blockText)
    .join('\n')
    .replace(/<\/(context)/gi, '<\\/$1')
  return [
    { type: 'text', text: `<context source="${escapeAttribute(sourceLabel(source))}">${body}</context>` },
  ]
}

/** The message of one surface event (deep-frozen). Throws `NOT_ON_SURFACE` for a log-only event. */
export function deriveEventMessage(event: SessionEvent): Message {
  return deepFreeze(project(event))
}

function project(event: SessionEvent): Message {
  const e = event as SessionEvent<'user/message' | 'context/message' | 'steering/message'>
  switch (event.type) {
    case 'user/message':
    case 'steering/message':
      if (e.data.source.kind === 'user') return { role: 'user', content: e.data.content }
      return { role: 'user', content: renderContextEnvelope(e.data.source, e.data.content) }
    case 'context/message':
      return { role: 'user', content: renderContextEnvelope(e.data.source, e.data.content) }
    case 'assistant/message':
      return { role: 'assistant', content: (event as SessionEvent<'assistant/message'>).data.content }
    case 'tool/result': {
      const { callId, name, content, isError } = (event as SessionEvent<'tool/result'>).data
      return { role: 'tool', callId, name, content, isError }
    }
    default:
      throw new SessionEventError('NOT_ON_SURFACE', `${event.type} is not a surface event`)
  }
}

/** The number of tool-call blocks a surface node opens, minus the one call a tool result closes. */
export function balanceStep(event: SessionEvent): number {
  if (event.type === 'tool/result') return -1
  if (event.type !== 'assistant/message') return 0
  let calls = 0
  for (const block of (event as SessionEvent<'assistant/message'>).data.content)
    if (block.type === 'tool-call') calls++
  return calls
}
