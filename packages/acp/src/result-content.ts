// What a finished tool call shows (50-acp.md requirement 8): edits and overwrites their applied hunks
// from the result's `meta` (30-tools.md TL-15), one diff per hunk with its context lines on both sides,
// superseding the call-time snippet; a created file its whole content as a new file; anything else
// the result text the model saw.
import type { ToolCallContent } from '@agentclientprotocol/sdk'
import type { ContentBlock } from '@tack/session'
import { isDiffMeta } from '@tack/tool-fs'
import type { DiffHunk } from '@tack/tools'
import { absolutePath } from './tool-kinds.ts'

export interface LoggedResult {
  readonly name: string
  readonly content: readonly ContentBlock[]
  readonly isError: boolean
  readonly meta?: unknown
}

export function resultContent(
  result: LoggedResult,
  args: Record<string, unknown>,
  cwd: string,
): ToolCallContent[] {
  if (!result.isError && (result.name === 'edit' || result.name === 'write')) {
    const meta = result.meta
    if (isDiffMeta(meta)) return meta.hunks.map((hunk) => hunkDiff(absolutePath(cwd, meta.path), hunk))
    // `write` logs no meta for a file it created (tool-fs write.ts): the new file is the content.
    if (result.name === 'write' && result.meta === undefined && typeof args.file_path === 'string') {
      const newText = typeof args.content === 'string' ? args.content : ''
      return [{ type: 'diff', path: absolutePath(cwd, args.file_path), oldText: null, newText }]
    }
  }
  const text = result.content.map((block) => block.text).join('\n')
  return text === '' ? [] : [{ type: 'content', content: { type: 'text', text } }]
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
