// The picker of a `choose` command result (`/model` alone, 85-skills-and-commands.md I3): the choices known
// at once, then what each pending batch brings (a provider's model list) as it arrives — the screen never
// waits for them. The current entry is marked and selected first. ↑/↓ and Enter pick; typing filters
// (an entry stays when it contains the text); Esc closes without a pick. A batch that failed leaves its
// note as a line under the list.
import {
  type Component,
  type Focusable,
  Key,
  matchesKey,
  truncateToWidth,
  visibleWidth,
} from '@mariozechner/pi-tui'
import type { ChoiceBatch, CommandChoice } from '@tack/commands'
import { escapeControls } from '../format.ts'
import type { Theme } from '../theme.ts'

export const CHOICES_NO_MATCH = 'Nothing matches.'
export const CHOICES_LOADING = 'asking providers for their lists…'
const VISIBLE_ROWS = 12

export class ChoicePicker implements Component, Focusable {
  focused = false
  readonly #title: string
  readonly #theme: Theme
  readonly #close: (value: string | undefined) => void
  readonly #changed: () => void
  #choices: CommandChoice[]
  readonly #notes: string[] = []
  #pending: number
  #filter = ''
  #selected: number
  #closed = false

  constructor(
    opts: {
      readonly title: string
      readonly choices: readonly CommandChoice[]
      readonly more?: readonly (() => Promise<ChoiceBatch>)[]
      readonly theme: Theme
      /** Redraw: a batch arrived. */
      readonly changed: () => void
    },
    close: (value: string | undefined) => void,
  ) {
    this.#title = opts.title
    this.#theme = opts.theme
    this.#close = close
    this.#changed = opts.changed
    this.#choices = [...opts.choices]
    this.#selected = Math.max(
      0,
      this.#choices.findIndex((c) => c.current),
    )
    const more = opts.more ?? []
    this.#pending = more.length
    for (const ask of more)
      Promise.resolve()
        .then(ask)
        .then(
          (b) => this.#add(b),
          (error: unknown) => this.#add({ choices: [], note: String((error as Error)?.message ?? error) }),
        )
  }

  #add(batch: ChoiceBatch): void {
    this.#pending--
    if (this.#closed) return
    const seen = new Set(this.#choices.map((c) => c.value))
    const selected = this.#shown()[this.#selected]?.value
    for (const c of batch.choices) if (!seen.has(c.value)) this.#choices.push(c)
    if (batch.note) this.#notes.push(batch.note)
    // Arrivals never move the highlighted entry out from under the person.
    const index = selected === undefined ? -1 : this.#shown().findIndex((c) => c.value === selected)
    if (index >= 0) this.#selected = index
    this.#changed()
  }

  /** The entries the filter keeps. */
  #shown(): readonly CommandChoice[] {
    const f = this.#filter.toLowerCase()
    return f === '' ? this.#choices : this.#choices.filter((c) => c.value.toLowerCase().includes(f))
  }

  handleInput(data: string): void {
    const shown = this.#shown()
    if (matchesKey(data, Key.escape)) this.#finish(undefined)
    else if (matchesKey(data, Key.enter)) {
      const chosen = shown[this.#selected]?.value
      if (chosen !== undefined) this.#finish(chosen)
    } else if (matchesKey(data, Key.up)) this.#selected = Math.max(0, this.#selected - 1)
    else if (matchesKey(data, Key.down))
      this.#selected = Math.max(0, Math.min(shown.length - 1, this.#selected + 1))
    else if (matchesKey(data, Key.backspace)) this.#setFilter(this.#filter.slice(0, -1))
    else if (data.length === 1 && data >= ' ' && data !== '\x7f') this.#setFilter(this.#filter + data)
  }

  #finish(value: string | undefined): void {
    if (this.#closed) return
    this.#closed = true
    this.#close(value)
  }

  #setFilter(filter: string): void {
    this.#filter = filter
    this.#selected = 0
  }

  render(width: number): string[] {
    const t = this.#theme
    const lines = [t.bold(this.#title)]
    const shown = this.#shown()
    if (this.#filter) lines.push(t.dim(`filter: ${escapeControls(this.#filter)}`))
    if (shown.length === 0) lines.push(t.dim(CHOICES_NO_MATCH))
    const first = Math.max(
      0,
      Math.min(this.#selected - Math.floor(VISIBLE_ROWS / 2), shown.length - VISIBLE_ROWS),
    )
    shown.slice(first, first + VISIBLE_ROWS).forEach((choice, i) => {
      lines.push(this.#row(choice, first + i === this.#selected, width))
    })
    if (shown.length > VISIBLE_ROWS) lines.push(t.dim(`(${this.#selected + 1}/${shown.length})`))
    if (this.#pending > 0) lines.push(t.dim(CHOICES_LOADING))
    for (const note of this.#notes) lines.push(t.warning(escapeControls(note)))
    lines.push(t.dim(`${t.glyphs.upDown} Enter to choose, type to filter, Esc to keep the current one`))
    return lines.map((l) => truncateToWidth(l, width))
  }

  #row(choice: CommandChoice, selected: boolean, width: number): string {
    const t = this.#theme
    const prefix = selected ? `${t.glyphs.pointer} ` : '  '
    const detail = [choice.current ? 'current' : undefined, choice.detail].filter(Boolean).join(', ')
    const value = escapeControls(choice.value)
    const room = width - visibleWidth(prefix) - visibleWidth(detail) - 2
    const text =
      detail && room >= 12
        ? `${truncateToWidth(value, room)}${' '.repeat(Math.max(0, room - visibleWidth(truncateToWidth(value, room))))}  ${t.dim(detail)}`
        : truncateToWidth(value, width - visibleWidth(prefix))
    return selected ? t.accent(`${prefix}${text}`) : `${prefix}${text}`
  }

  invalidate(): void {}
}
