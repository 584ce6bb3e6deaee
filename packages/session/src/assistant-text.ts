// What the model last said, read off the log: used by the hook bridges (`last_assistant_message`), the
// subagent tool (the child's answer) and `tack run` (the printed answer).
import type { AssistantBlock, SessionEvent } from './events.ts'

/** The text blocks of an assistant message, joined (reasoning and tool calls left out). */
export function assistantText(content: readonly AssistantBlock[]): string {
  let text = ''
  for (const block of content) if (block.type === 'text') text += block.text
  return text
}

/**
 * The text of the last `assistant/message` in `events`, or undefined when there is none. With
 * `nonEmpty`, the last one whose text is not blank (a final step may only call tools).
 */
export function lastAssistantText(
  events: readonly SessionEvent[],
  opts: { nonEmpty?: boolean } = {},
): string | undefined {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]
    if (e.type !== 'assistant/message') continue
    const text = assistantText((e as SessionEvent<'assistant/message'>).data.content)
    if (!opts.nonEmpty || text.trim()) return text
  }
  return undefined
}
