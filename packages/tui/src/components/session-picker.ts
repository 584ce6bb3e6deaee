// The resume picker (80-cli.md §2 `tack -r` with no id, and `/resume`): this folder's sessions, newest
// first, each as its first prompt — as much of it as the width allows — then when it last ran, its turns
// and its short id. ↑/↓ and Enter resume one; Esc closes the picker (at start-up: a new session).
// Typing filters: a session stays when its prompt contains the text or its id starts with it.
import {
  type Component,
  type Focusable,
  Key,
  matchesKey,
  truncateToWidth,
  visibleWidth,
} from '@mariozechner/pi-tui'
import type { SessionSummary } from '@tack/session'
import { escapeControls } from '../format.ts'
import { oneLine } from '../key-argument.ts'
import type { Theme } from '../theme.ts'

export const PICKER_TITLE = 'Resume a session'
export const PICKER_EMPTY = 'No earlier session in this folder.'
export const PICKER_NO_MATCH = 'No session matches.'
const VISIBLE_ROWS = 10

const padTo = (text: string, width: number) => text + ' '.repeat(Math.max(0, width - visibleWidth(text)))

/** `just now`, `5 min ago`, `3 h ago`, `2 days ago`. */
export function ago(iso: string, now = Date.now()): string {
  const minutes = Math.floor((now - Date.parse(iso)) / 60_000)
  if (!Number.isFinite(minutes) || minutes < 1) return 'just now'
  if (minutes < 60) return `${minutes} min ago`
  const hours = Math.floor(minutes / 60)
  if (hours < 48) return `${hours} h ago`
  return `${Math.floor(hours / 24)} days ago`
}

interface Row {
  readonly id: string
  readonly prompt: string
  readonly details: string
}

export class SessionPicker implements Component, Focusable {
  focused = false
  readonly #rows: readonly Row[]
  readonly #theme: Theme
  readonly #close: (id: string | undefined) => void
  #filter = ''
  #selected = 0

  constructor(sessions: readonly SessionSummary[], theme: Theme, close: (id: string | undefined) => void) {
    this.#theme = theme
    this.#close = close
    const sep = theme.glyphs.separator
    this.#rows = sessions.map((s) => ({
      id: s.id,
      prompt: oneLine(s.firstPrompt ?? '') || '(no prompt)',
      details: `${ago(s.lastTime ?? s.createdAt)} ${sep} ${s.turns} ${s.turns === 1 ? 'turn' : 'turns'} ${sep} ${s.id.slice(0, 8)}`,
    }))
  }

  #shown(): readonly Row[] {
    const f = this.#filter.toLowerCase()
    return f === ''
      ? this.#rows
      : this.#rows.filter((r) => r.id.startsWith(f) || r.prompt.toLowerCase().includes(f))
  }

  handleInput(data: string): void {
    const shown = this.#shown()
    if (matchesKey(data, Key.escape)) this.#close(undefined)
    else if (matchesKey(data, Key.enter)) this.#close(shown[this.#selected]?.id)
    else if (matchesKey(data, Key.up)) this.#selected = Math.max(0, this.#selected - 1)
    else if (matchesKey(data, Key.down)) this.#selected = Math.min(shown.length - 1, this.#selected + 1)
    else if (matchesKey(data, Key.backspace)) this.#setFilter(this.#filter.slice(0, -1))
    else if (data.length === 1 && data >= ' ' && data !== '\x7f') this.#setFilter(this.#filter + data)
  }

  #setFilter(filter: string): void {
    this.#filter = filter
    this.#selected = 0
  }

  render(width: number): string[] {
    const t = this.#theme
    const lines = [t.bold(PICKER_TITLE)]
    const shown = this.#shown()
    if (this.#rows.length === 0) lines.push(PICKER_EMPTY, t.dim('Enter or Esc to go on'))
    else {
      if (this.#filter) lines.push(t.dim(`filter: ${this.#filter}`))
      if (shown.length === 0) lines.push(t.dim(PICKER_NO_MATCH))
      const first = Math.max(
        0,
        Math.min(this.#selected - Math.floor(VISIBLE_ROWS / 2), shown.length - VISIBLE_ROWS),
      )
      shown.slice(first, first + VISIBLE_ROWS).forEach((row, i) => {
        lines.push(this.#row(row, first + i === this.#selected, width))
      })
      if (shown.length > VISIBLE_ROWS) lines.push(t.dim(`(${this.#selected + 1}/${shown.length})`))
      lines.push(t.dim(`${t.glyphs.upDown} Enter to resume, type to filter, Esc for none`))
    }
    return lines.map((l) => truncateToWidth(l, width))
  }

  /** The prompt gets the width the details leave; on a narrow terminal the details go first. */
  #row(row: Row, selected: boolean, width: number): string {
    const t = this.#theme
    const prefix = selected ? `${t.glyphs.pointer} ` : '  '
    const room = width - visibleWidth(prefix) - visibleWidth(row.details) - 2
    const text =
      room >= 12
        ? `${padTo(truncateToWidth(escapeControls(row.prompt), room), room)}  ${t.dim(row.details)}`
        : truncateToWidth(escapeControls(row.prompt), width - visibleWidth(prefix))
    return selected ? t.accent(`${prefix}${text}`) : `${prefix}${text}`
  }

  invalidate(): void {}
}
