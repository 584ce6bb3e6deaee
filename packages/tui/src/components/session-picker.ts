// The resume picker (80-cli.md §2 `tack -r` with no id, and `/resume`): this folder's sessions, newest
// first, each as its first prompt with when it last ran, its turns and its short id. ↑/↓ and Enter
// resume one; Esc closes the picker (at start-up: a new session). Typing filters by id prefix.
import {
  type Component,
  type Focusable,
  Key,
  matchesKey,
  SelectList,
  truncateToWidth,
} from '@mariozechner/pi-tui'
import type { SessionSummary } from '@tack/session'
import type { Theme } from '../theme.ts'

export const PICKER_TITLE = 'Resume a session'
export const PICKER_EMPTY = 'No earlier session in this folder.'

/** `just now`, `5 min ago`, `3 h ago`, `2 days ago`. */
export function ago(iso: string, now = Date.now()): string {
  const minutes = Math.floor((now - Date.parse(iso)) / 60_000)
  if (!Number.isFinite(minutes) || minutes < 1) return 'just now'
  if (minutes < 60) return `${minutes} min ago`
  const hours = Math.floor(minutes / 60)
  if (hours < 48) return `${hours} h ago`
  return `${Math.floor(hours / 24)} days ago`
}

export class SessionPicker implements Component, Focusable {
  focused = false
  readonly #list: SelectList | undefined
  readonly #theme: Theme
  readonly #close: (id: string | undefined) => void
  #filter = ''

  constructor(sessions: readonly SessionSummary[], theme: Theme, close: (id: string | undefined) => void) {
    this.#theme = theme
    this.#close = close
    if (sessions.length === 0) return
    const items = sessions.map((s) => ({
      value: s.id,
      label: (s.firstPrompt ?? '(no prompt)').replace(/\s+/g, ' ').trim() || '(no prompt)',
      description: `${ago(s.lastTime ?? s.createdAt)} ${theme.glyphs.separator} ${s.turns} ${s.turns === 1 ? 'turn' : 'turns'} ${theme.glyphs.separator} ${s.id.slice(0, 8)}`,
    }))
    this.#list = new SelectList(items, 10, {
      selectedPrefix: theme.accent,
      selectedText: theme.accent,
      description: theme.dim,
      scrollInfo: theme.dim,
      noMatch: theme.dim,
    })
    this.#list.onSelect = (item) => close(item.value)
    this.#list.onCancel = () => close(undefined)
  }

  handleInput(data: string): void {
    if (!this.#list) {
      if (matchesKey(data, Key.escape) || matchesKey(data, Key.enter)) this.#close(undefined)
      return
    }
    if (matchesKey(data, Key.backspace)) this.#setFilter(this.#filter.slice(0, -1))
    else if (data.length === 1 && data >= ' ' && data !== '\x7f') this.#setFilter(this.#filter + data)
    else this.#list.handleInput(data)
  }

  #setFilter(filter: string): void {
    this.#filter = filter
    this.#list?.setFilter(filter)
  }

  render(width: number): string[] {
    const t = this.#theme
    const lines = [t.bold(PICKER_TITLE)]
    if (!this.#list) lines.push(PICKER_EMPTY, t.dim('Enter or Esc to go on'))
    else {
      if (this.#filter) lines.push(t.dim(`filter: ${this.#filter}`))
      lines.push(...this.#list.render(width))
      lines.push(t.dim(`${t.glyphs.upDown} Enter to resume, type an id to filter, Esc for none`))
    }
    return lines.map((l) => truncateToWidth(l, width))
  }

  invalidate(): void {
    this.#list?.invalidate()
  }
}
