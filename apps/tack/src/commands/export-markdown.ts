// A readable Markdown rendering of a session log (prompts, answers, tool calls and results).
import { imageNote, isImageBlock, type SessionEvent, type SessionHeader } from '@tack/session'

export function exportMarkdown(header: SessionHeader, events: readonly SessionEvent[]): string {
  const out: string[] = [
    `# tack session ${header.id}`,
    '',
    `- created: ${header.createdAt}`,
    `- workspace: ${header.cwd}`,
    '',
  ]
  for (const e of events) {
    const d = e.data as Record<string, unknown>
    // Words only: an image is its note (docs/decisions/0255-image-content.md), reasoning and calls are left out.
    const text = () =>
      ((d.content as ReadonlyArray<{ type: string; text?: string }>) ?? [])
        .flatMap((b) => (b.type === 'text' ? [b.text] : isImageBlock(b) ? [imageNote(b)] : []))
        .join('')
    switch (e.type) {
      case 'user/message':
        out.push('## User', '', text(), '')
        break
      case 'steering/message':
      case 'context/message':
        out.push(
          `> ${e.type === 'steering/message' ? 'steering' : 'context'} (${JSON.stringify(d.source)}): ${text().replace(/\n/g, ' ')}`,
          '',
        )
        break
      case 'assistant/message': {
        const t = text()
        if (t) out.push('## Assistant', '', t, '')
        break
      }
      case 'tool/call':
        // Named by call id: read calls of one message run side by side, so results need not follow their call.
        out.push(`### Tool call \`${d.name}\` (${d.callId})`, '', '```json', String(d.arguments), '```', '')
        break
      case 'tool/result':
        out.push(
          `### Result of \`${d.name}\` (${d.callId})${d.isError ? ' (error)' : ''}`,
          '',
          '```',
          text(),
          '```',
          '',
        )
        break
      case 'turn/end':
        out.push(`*turn ${d.turn} ended: ${(d.reason as { kind: string }).kind}*`, '')
        break
      default:
        break
    }
  }
  return `${out.join('\n')}\n`
}
