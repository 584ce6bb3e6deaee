// The prompt box's completion of mentions (80-cli.md §5.3, 55-mcp.md M10): a word that starts with a
// trigger some mention provider answers (`@`) is completed from those providers (@tack/commands'
// mention registry); anything else — the `/` menu, paths — goes to pi-tui's own completion as before.
// The screen knows no provider: a plugin registers one, and its items show here.
import type { AutocompleteItem, AutocompleteProvider, AutocompleteSuggestions } from '@mariozechner/pi-tui'
import { mentionSuggestions, mentionTriggers } from '@tack/commands'
import type { Context } from 'cordis'

type Cursor = { lines: string[]; cursorLine: number; cursorCol: number }

export class MentionAutocomplete implements AutocompleteProvider {
  readonly #inner: AutocompleteProvider
  readonly #ctx: Context
  /** The folder prompts run in: the file provider offers its paths. */
  readonly #cwd: string
  /** The mention items last offered, by their value: whether each is a partial mention. */
  #offered = new Map<string, boolean>()

  constructor(inner: AutocompleteProvider, ctx: Context, cwd: string) {
    this.#inner = inner
    this.#ctx = ctx
    this.#cwd = cwd
  }

  async getSuggestions(
    lines: string[],
    cursorLine: number,
    cursorCol: number,
    options: { signal: AbortSignal; force?: boolean },
  ): Promise<AutocompleteSuggestions | null> {
    const word = mentionWord((lines[cursorLine] ?? '').slice(0, cursorCol))
    if (word && mentionTriggers(this.#ctx).has(word.trigger)) {
      const items = await mentionSuggestions(this.#ctx, word.trigger, word.query, options.signal, {
        cwd: this.#cwd,
      })
      if (items.length > 0) {
        this.#offered = new Map(items.map((item) => [`${word.trigger}${item.value}`, item.partial === true]))
        return {
          prefix: `${word.trigger}${word.query}`,
          // One column: a mention (a URI) is wider than the menu's name column, which would cut it
          // where mentions differ; the description follows it on the line.
          items: items.map(
            (item): AutocompleteItem => ({
              value: `${word.trigger}${item.value}`,
              label: `${word.trigger}${item.label ?? item.value}${item.description ? `  ${item.description}` : ''}`,
            }),
          ),
        }
      }
    }
    return this.#inner.getSuggestions(lines, cursorLine, cursorCol, options)
  }

  applyCompletion(
    lines: string[],
    cursorLine: number,
    cursorCol: number,
    item: AutocompleteItem,
    prefix: string,
  ): Cursor {
    const partial = this.#offered.get(item.value)
    if (partial === undefined) return this.#inner.applyCompletion(lines, cursorLine, cursorCol, item, prefix)
    const line = lines[cursorLine] ?? ''
    const head = line.slice(0, cursorCol - prefix.length) + item.value + (partial ? '' : ' ')
    const next = [...lines]
    next[cursorLine] = head + line.slice(cursorCol)
    return { lines: next, cursorLine, cursorCol: head.length }
  }

  /**
   * Whether `beforeCursor` ends in a whole mention the menu offers as it stands (not a template's head):
   * Enter then sends the prompt rather than taking the item it already is.
   */
  endsInWholeMention(beforeCursor: string): boolean {
    const word = mentionWord(beforeCursor)
    return word !== undefined && this.#offered.get(`${word.trigger}${word.query}`) === false
  }

  shouldTriggerFileCompletion(lines: string[], cursorLine: number, cursorCol: number): boolean {
    return this.#inner.shouldTriggerFileCompletion?.(lines, cursorLine, cursorCol) ?? true
  }
}

/**
 * The word before the cursor as a mention: its first character and the rest; none after a space,
 * except inside an open quote after the trigger (`@"my no` is the query `"my no`, a path with spaces).
 */
export function mentionWord(beforeCursor: string): { trigger: string; query: string } | undefined {
  const quoted = /(?:^|\s)(\S)("[^"\n]*)$/.exec(beforeCursor)
  if (quoted) return { trigger: quoted[1] as string, query: quoted[2] as string }
  const match = /(?:^|\s)(\S)(\S*)$/.exec(beforeCursor)
  return match ? { trigger: match[1] as string, query: match[2] as string } : undefined
}
