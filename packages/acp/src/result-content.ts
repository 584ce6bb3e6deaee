// What a finished tool call shows (50-acp.md requirement 8), from the result intents its tool declares
// (@tack/tools): an applied change its hunks, one diff per hunk with its context lines on both sides,
// superseding the call-time snippet; a created file its whole content as a new file; a result with
// images its words and ACP image blocks in order (docs/decisions/0255-image-content.md); anything else
// the result text the model saw.
import type { ToolCallContent } from '@agentclientprotocol/sdk'
import type { DiffHunk, ResultIntent, ResultPresentation } from '@tack/tools'
import { absolutePath } from './tool-kinds.ts'

export function resultContent(shown: ResultPresentation, cwd: string): ToolCallContent[] {
  const changes = shown.intents.flatMap((intent): ToolCallContent[] => {
    if (intent.kind === 'diff')
      return intent.hunks.map((hunk) => hunkDiff(absolutePath(cwd, intent.path), hunk))
    if (intent.kind === 'created')
      return [{ type: 'diff', path: absolutePath(cwd, intent.path), oldText: null, newText: intent.content }]
    return []
  })
  if (changes.length > 0 && !shown.isError) return changes
  if (shown.intents.some((intent) => intent.kind === 'image'))
    return shown.intents.flatMap((intent): ToolCallContent[] => {
      if (intent.kind === 'image')
        return [{ type: 'content', content: { type: 'image', data: intent.data, mimeType: intent.mimeType } }]
      return intent.kind === 'text' ? [{ type: 'content', content: { type: 'text', text: intent.text } }] : []
    })
  return shown.text === '' ? [] : [{ type: 'content', content: { type: 'text', text: shown.text } }]
}

/**
 * What a permission request's tool call shows (docs/decisions/0300-approval-shows-the-change.md): the
 * change the call would make, from the tool's dry run — the same hunks, drawn the same way, as its
 * result will show once applied — and the notes of a bounded or skipped preview. Undefined without one.
 */
export function previewContent(
  preview: readonly ResultIntent[] | undefined,
  cwd: string,
): ToolCallContent[] | undefined {
  if (!preview || preview.length === 0) return undefined
  return preview.flatMap((intent): ToolCallContent[] => {
    if (intent.kind === 'diff')
      return intent.hunks.map((hunk) => hunkDiff(absolutePath(cwd, intent.path), hunk))
    if (intent.kind === 'created')
      return [{ type: 'diff', path: absolutePath(cwd, intent.path), oldText: null, newText: intent.content }]
    if (intent.kind === 'text') return [{ type: 'content', content: { type: 'text', text: intent.text } }]
    return []
  })
}

/** One applied hunk as an ACP diff: context and removed lines on the old side, context and added on the new. */
export function hunkDiff(path: string, hunk: DiffHunk): ToolCallContent {
  const oldLines: string[] = []
  const newLines: string[] = []
  for (const line of hunk.lines) {
    const body = line.slice(1)
    if (line.startsWith(' ')) {
      oldLines.push(body)
      newLines.push(body)
    } else if (line.startsWith('-')) oldLines.push(body)
    else if (line.startsWith('+')) newLines.push(body)
    // `\ No newline at end of file` markers describe the line before; ACP has no place for them.
  }
  return { type: 'diff', path, oldText: oldLines.join('\n'), newText: newLines.join('\n') }
}
