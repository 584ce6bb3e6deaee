// An edit's or a write's applied change as a coloured diff (80-cli.md §5.1): the file, then each hunk
// with its `@@` header and every line numbered — removed lines red with `-`, added green with `+`,
// context dim. The signs stay without colour (NO_COLOR) so the diff still reads. Long diffs are cut
// at `maxLines` with a count of what is hidden.
import { truncateToWidth } from '@mariozechner/pi-tui'
import type { DiffHunk } from '@tack/tools'
import type { Theme } from '../theme.ts'
import type { DiffView } from '../view-model.ts'

export const DIFF_MAX_LINES = 40

export function renderDiff(diff: DiffView, theme: Theme, width: number, maxLines = DIFF_MAX_LINES): string[] {
  const body = 'created' in diff ? createdLines(diff.created, theme) : hunkLines(diff.hunks, theme)
  const header = 'created' in diff ? `${diff.path} (new file)` : diff.path
  const shown = body.length > maxLines ? body.slice(0, maxLines) : body
  const lines = [theme.bold(header), ...shown]
  if (body.length > maxLines) lines.push(theme.dim(`… ${body.length - maxLines} more lines`))
  if ('hunks' in diff && diff.hunks.length === 0) lines.push(theme.dim('(no change)'))
  return lines.map((line) => truncateToWidth(`  ${line}`, width))
}

function hunkLines(hunks: readonly DiffHunk[], theme: Theme): string[] {
  const out: string[] = []
  for (const hunk of hunks) {
    out.push(theme.accent(`@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`))
    const digits = String(Math.max(hunk.oldStart + hunk.oldLines, hunk.newStart + hunk.newLines)).length
    const num = (n: number) => String(n).padStart(digits)
    let oldNo = hunk.oldStart
    let newNo = hunk.newStart
    for (const line of hunk.lines) {
      const sign = line[0]
      const text = expandTabs(line.slice(1))
      if (sign === '-') out.push(theme.removed(`${num(oldNo++)} - ${text}`))
      else if (sign === '+') out.push(theme.added(`${num(newNo++)} + ${text}`))
      else if (sign === ' ') {
        out.push(theme.dim(`${num(newNo)}   ${text}`))
        oldNo++
        newNo++
      }
      // `\ No newline at end of file` describes the line before; it is not a line of the file.
    }
  }
  return out
}

function createdLines(content: string, theme: Theme): string[] {
  const lines = content.endsWith('\n') ? content.slice(0, -1).split('\n') : content.split('\n')
  const digits = String(lines.length).length
  return lines.map((line, i) => theme.added(`${String(i + 1).padStart(digits)} + ${expandTabs(line)}`))
}

/** Tabs would move the terminal's cursor past what pi-tui measured: two spaces each. */
function expandTabs(text: string): string {
  return text.replace(/\t/g, '  ')
}
