// One tool call as a card (80-cli.md §5.1): a header line — status glyph, tool name, key argument, then
// the status word and duration on the right — and below it the calls it made inside itself (a run_code
// program's, a subagent's) with their status, then the applied diff of an edit/write or a few lines of
// output (bash's first ones, a failure's last ones, the names of a result's images); while it runs, its
// latest progress report (docs/decisions/0310-failures-stay-visible.md). The status words are fixed vocabulary (see the README): pending, waiting for approval,
// running, done, failed, denied.
import { truncateToWidth, visibleWidth } from '@mariozechner/pi-tui'
import { formatDuration } from '../format.ts'
import type { Theme } from '../theme.ts'
import type { InnerCall, InnerCalls } from '../inner-calls.ts'
import type { ToolEntry } from '../view-model.ts'
import { DIFF_MAX_LINES, renderDiff } from './diff-view.ts'

export function statusWord(card: ToolEntry): string {
  if (card.approval === 'asked' && card.status === 'pending') return 'waiting for approval'
  if (card.approval === 'denied') return 'denied'
  return card.status
}

export function renderToolCard(
  card: ToolEntry,
  theme: Theme,
  width: number,
  now = Date.now(),
  diffMaxLines = DIFF_MAX_LINES,
): string[] {
  const g = theme.glyphs
  const glyph = { pending: g.pending, running: g.running, done: g.done, failed: g.failed }[card.status]
  const tone = { pending: theme.dim, running: theme.accent, done: theme.success, failed: theme.error }[
    card.status
  ]
  const started = card.startedAt
  // A denied call never ran: it has no duration.
  const elapsed =
    started === undefined || card.approval === 'denied' ? undefined : (card.endedAt ?? now) - started
  const right = `${statusWord(card)}${elapsed === undefined ? '' : ` ${formatDuration(elapsed)}`}`
  const left = `${glyph} ${card.name}`
  // The key argument gets what is left once the name and the status fit; it is cut first.
  const room = width - visibleWidth(left) - visibleWidth(right) - 3
  const arg = card.keyArg !== '' && room > 3 ? ` ${truncateToWidth(card.keyArg, room)}` : ''
  const gap = Math.max(1, width - visibleWidth(left + arg) - visibleWidth(right))
  const header = truncateToWidth(
    `${tone(glyph)} ${theme.bold(card.name)}${theme.dim(arg)}${' '.repeat(gap)}${tone(right)}`,
    width,
  )
  const lines = [header]
  if (card.progress && card.status === 'running')
    lines.push(truncateToWidth(`    ${theme.dim(`${g.running} ${card.progress}`)}`, width))
  if (card.inner) lines.push(...renderInner(card.inner, theme, width))
  if (card.diff) lines.push(...renderDiff(card.diff, theme, width, diffMaxLines))
  else if (card.output)
    for (const line of card.output.split('\n'))
      lines.push(
        truncateToWidth(`    ${card.status === 'failed' ? theme.error(line) : theme.dim(line)}`, width),
      )
  return lines
}

/** The inner calls: a count of the earlier ones (and their failures), then one line per shown call. */
function renderInner(inner: InnerCalls, theme: Theme, width: number): string[] {
  const lines: string[] = []
  if (inner.earlier > 0) {
    const failed = inner.earlierFailed > 0 ? theme.error(` (${inner.earlierFailed} failed)`) : ''
    const noun = inner.earlier === 1 ? 'call' : 'calls'
    lines.push(truncateToWidth(`    ${theme.dim(`↳ … ${inner.earlier} earlier ${noun}`)}${failed}`, width))
  }
  for (const call of inner.shown) lines.push(truncateToWidth(`    ${innerLine(call, theme)}`, width))
  return lines
}

function innerLine(call: InnerCall, theme: Theme): string {
  const g = theme.glyphs
  switch (call.status) {
    case 'running':
      return theme.dim(`↳ ${g.running} ${call.label}`)
    case 'done':
      return theme.dim(`↳ ${theme.success(g.done)} ${call.label}`)
    case 'denied':
      return theme.warning(`↳ ${g.failed} ${call.label} — denied`)
    case 'failed':
      return theme.error(`↳ ${g.failed} ${call.label}${call.detail ? ` — ${call.detail}` : ''}`)
  }
}
