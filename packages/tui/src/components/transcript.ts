// The conversation: every entry of the view model in order — the user's prompts, the assistant's text
// as markdown (its reasoning dimmed above it), a card per tool call, and notices — with one blank line
// between entries. Each entry keeps its component, so pi-tui's markdown cache holds across frames and
// only the streaming answer is laid out again.
import { type Component, Markdown, truncateToWidth, wrapTextWithAnsi } from '@mariozechner/pi-tui'
import { escapeControls } from '../format.ts'
import type { Theme } from '../theme.ts'
import type { AssistantEntry, Entry, NoticeEntry, SessionView, UserEntry } from '../view-model.ts'
import { markdownTheme } from './markdown-theme.ts'
import { stablePrefixLength } from './stable-prefix.ts'
import { renderToolCard } from './tool-card.ts'

class AssistantBlock implements Component {
  readonly #entry: AssistantEntry
  /** The whole answer once it is complete; while it streams, its stable start. */
  readonly #text: Markdown
  /** The streaming answer's tail after its stable start. */
  readonly #tail: Markdown
  readonly #reasoning: Markdown
  #shownText = ''
  #shownTail = ''
  #shownReasoning = ''

  constructor(entry: AssistantEntry, theme: Theme) {
    this.#entry = entry
    const md = markdownTheme(theme)
    this.#text = new Markdown('', 0, 0, md)
    this.#tail = new Markdown('', 0, 0, md)
    this.#reasoning = new Markdown('', 0, 0, md, { color: theme.dim, italic: theme.color })
  }

  render(width: number): string[] {
    const { text, reasoning, streaming } = this.#entry
    // While the answer streams, only its tail is laid out again on each frame (stable-prefix.ts).
    const cut = streaming ? stablePrefixLength(text) : text.length
    const head = text.slice(0, cut).trimEnd()
    const tail = text.slice(cut).trimEnd()
    if (head !== this.#shownText) this.#text.setText((this.#shownText = head))
    if (tail !== this.#shownTail) this.#tail.setText((this.#shownTail = tail))
    if (reasoning !== this.#shownReasoning) this.#reasoning.setText((this.#shownReasoning = reasoning))
    const lines: string[] = []
    if (reasoning.trim() !== '') lines.push(...this.#reasoning.render(width))
    if (reasoning.trim() !== '' && text.trim() !== '') lines.push('')
    if (head !== '') lines.push(...this.#text.render(width))
    // The blank line markdown puts between two blocks, padded as its own lines are.
    if (head !== '' && tail.trim() !== '') lines.push(' '.repeat(width))
    if (tail.trim() !== '') lines.push(...this.#tail.render(width))
    return lines
  }

  invalidate(): void {
    this.#text.invalidate()
    this.#tail.invalidate()
    this.#reasoning.invalidate()
  }
}

function renderUser(entry: UserEntry, theme: Theme, width: number): string[] {
  const mark = entry.steering ? `${theme.glyphs.prompt}${theme.glyphs.prompt} ` : `${theme.glyphs.prompt} `
  const wrapped = wrapTextWithAnsi(entry.text, Math.max(1, width - mark.length))
  return wrapped.map((line, i) => theme.user(`${i === 0 ? mark : ' '.repeat(mark.length)}${line}`))
}

function renderNotice(entry: NoticeEntry, theme: Theme, width: number): string[] {
  const tone = { plain: (s: string) => s, info: theme.dim, warning: theme.warning, error: theme.error }[
    entry.tone
  ]
  return wrapTextWithAnsi(entry.text, width).map((line) => tone(line))
}

export class Transcript implements Component {
  readonly #view: SessionView
  readonly #theme: Theme
  readonly #diffMaxLines: number
  readonly #blocks = new WeakMap<AssistantEntry, AssistantBlock>()

  constructor(view: SessionView, theme: Theme, diffMaxLines: number) {
    this.#view = view
    this.#theme = theme
    this.#diffMaxLines = diffMaxLines
  }

  render(width: number): string[] {
    const lines: string[] = []
    for (const entry of this.#view.entries) {
      const rendered = this.#renderEntry(entry, width)
      if (rendered.length === 0) continue
      if (lines.length > 0) lines.push('')
      lines.push(...rendered)
    }
    for (const text of this.#view.queued)
      lines.push(
        truncateToWidth(this.#theme.dim(`queued: ${escapeControls(text).replace(/\s+/g, ' ')}`), width),
      )
    return lines
  }

  #renderEntry(entry: Entry, width: number): string[] {
    switch (entry.kind) {
      case 'user':
        return renderUser(entry, this.#theme, width)
      case 'notice':
        return renderNotice(entry, this.#theme, width)
      case 'tool':
        return renderToolCard(entry, this.#theme, width, Date.now(), this.#diffMaxLines)
      case 'assistant': {
        let block = this.#blocks.get(entry)
        if (!block) {
          block = new AssistantBlock(entry, this.#theme)
          this.#blocks.set(entry, block)
        }
        return block.render(width)
      }
    }
  }

  invalidate(): void {}
}
