// The size bound of an approval's preview (docs/decisions/0300-approval-shows-the-change.md): a
// rewrite of a 5,000-line file must not become a 5,000-line question (nor a megabyte ACP message).
// Characters are counted, so one huge line is bounded too. What fits is kept whole line by line, in
// order; what does not is counted and named in a closing `text` note, so the person knows the
// preview is not the whole change.
import type { DiffHunk, ResultIntent } from '../presentation.ts'

export function boundPreview(intents: readonly ResultIntent[], maxChars: number): readonly ResultIntent[] {
  let left = maxChars
  let omitted = 0
  const kept: ResultIntent[] = []
  /** Takes the lines that still fit; counts the rest. */
  const take = (lines: readonly string[]): string[] => {
    const taken: string[] = []
    for (const line of lines) {
      if (omitted === 0 && line.length + 1 <= left) {
        taken.push(line)
        left -= line.length + 1
      } else omitted++
    }
    return taken
  }
  for (const intent of intents) {
    switch (intent.kind) {
      case 'diff': {
        const hunks: DiffHunk[] = []
        for (const hunk of intent.hunks) {
          const lines = take(hunk.lines)
          if (lines.length > 0) hunks.push({ ...hunk, lines })
        }
        if (hunks.length > 0 || intent.hunks.length === 0) kept.push({ ...intent, hunks })
        break
      }
      case 'created': {
        const lines = take(intent.content.split('\n'))
        if (lines.length > 0) kept.push({ ...intent, content: lines.join('\n') })
        break
      }
      case 'text': {
        const lines = take(intent.text.split('\n'))
        if (lines.length > 0) kept.push({ ...intent, text: lines.join('\n') })
        break
      }
      default:
        // Terminal output, todos and images are no part of a change's preview: dropped, not counted.
        break
    }
  }
  if (omitted > 0) {
    const note = `… ${omitted} more line${omitted === 1 ? '' : 's'} of the change not shown (plugins.tools.approvalPreviewMaxChars is ${maxChars}).`
    kept.push({ kind: 'text', text: note })
  }
  return kept
}
