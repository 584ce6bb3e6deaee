// The status line under the prompt box (80-cli.md §5.5): model, context used, the session's tokens and
// cost, permission mode, short session id — in that order, with fixed labels the tests read:
//   deepseek/deepseek-chat | ctx 12% | 3.4k tok | $0.0021 | mode ask | session 1a2b3c4d
// A narrow terminal drops fields from the right-hand end of this list of priorities (the model and the
// mode are kept longest), never cutting one in the middle.
import { truncateToWidth, visibleWidth } from '@mariozechner/pi-tui'
import { formatCost, formatTokens } from '../format.ts'
import type { Theme } from '../theme.ts'
import type { StatusView } from '../view-model.ts'

export function statusFields(s: StatusView): Array<{ text: string; priority: number }> {
  const percent =
    s.contextWindow > 0 ? Math.min(100, Math.round((s.contextTokens / s.contextWindow) * 100)) : 0
  return [
    { text: s.model, priority: 0 },
    { text: `ctx ${percent}%`, priority: 2 },
    { text: `${formatTokens(s.inputTokens + s.outputTokens)} tok`, priority: 3 },
    { text: s.cost === undefined ? 'cost n/a' : formatCost(s.cost), priority: 4 },
    { text: `mode ${s.permissionMode}`, priority: 1 },
    { text: `session ${s.sessionId.slice(0, 8)}`, priority: 5 },
  ]
}

export function renderStatusLine(s: StatusView, theme: Theme, width: number): string {
  const sep = ` ${theme.glyphs.separator} `
  let fields = statusFields(s)
  const widthOf = (fs: typeof fields) => visibleWidth(fs.map((f) => f.text).join(sep))
  while (fields.length > 1 && widthOf(fields) > width) {
    const drop = Math.max(...fields.map((f) => f.priority))
    fields = fields.filter((f) => f.priority !== drop)
  }
  const text = fields.map((f, i) => (i === 0 ? theme.accent(f.text) : theme.dim(f.text))).join(theme.dim(sep))
  return truncateToWidth(text, width)
}
