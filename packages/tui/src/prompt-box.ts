// The prompt box (80-cli.md §5.3): pi-tui's editor (multi-line, paste, undo, kill ring) with tack's
// history kept per folder, the `/` menu from the command registry, mention completion (`@…`) from the
// registered mention providers (mention-autocomplete.ts), the `ui/prompt-edit` seam after each edit and
// a ghost suggestion — the last prompt, which ↑ recalls — shown in the empty, idle box when
// `ui/prompt-suggest` agrees.
import {
  CombinedAutocompleteProvider,
  Editor,
  Key,
  matchesKey,
  type TUI,
  truncateToWidth,
} from '@mariozechner/pi-tui'
import { Lines } from './components/lines.ts'
import { MentionAutocomplete } from './mention-autocomplete.ts'
import type { Agent } from '@tack/agent'
import type { Context } from 'cordis'
import { PromptHistory } from './prompt-history.ts'
import { keyName, PromptSeams } from './prompt-seams.ts'
import type { Theme } from './theme.ts'

export interface PromptBoxOptions {
  readonly tui: TUI
  readonly theme: Theme
  readonly ctx: Context
  readonly cwd: string
  readonly historyDir: string
  /** The agent of the session on screen (the seams' first argument). */
  readonly agent: () => Agent | undefined
  /** Whether a turn runs (from the log: the agent's own status lags a `turn/end` by a tick). */
  readonly busy: () => boolean
  readonly submit: (text: string) => void
  /** Said once when the history file cannot be written. */
  readonly warn: (text: string) => void
}

export class PromptBox {
  readonly editor: Editor
  /** The ghost suggestion's line, drawn just above the box: one line, cut to the width (a 200-line paste is one). */
  readonly suggestion = new OneLine()
  readonly #opts: PromptBoxOptions
  readonly #history: PromptHistory
  readonly #seams: PromptSeams
  /** The key behind the next change (prompt-edit's `key`); undefined for a paste. */
  #lastKey: string | undefined
  #historyWarned = false
  /** The names the `/` menu offers (without the slash). */
  #commandNames: readonly string[] = []
  /** The user moved through the `/` menu since the box last changed: its highlighted item is a choice. */
  #menuChosen = false
  /** Esc closed the `/` menu since the box last changed: Enter sends the text as typed. */
  #menuDismissed = false
  /** The completion the editor uses (refreshCommands sets it): it knows the mentions the menu offers. */
  #mentions: MentionAutocomplete | undefined

  constructor(opts: PromptBoxOptions) {
    this.#opts = opts
    const t = opts.theme
    this.editor = new Editor(opts.tui, {
      borderColor: t.dim,
      selectList: {
        selectedPrefix: t.accent,
        selectedText: t.accent,
        description: t.dim,
        scrollInfo: t.dim,
        noMatch: t.dim,
      },
    })
    this.editor.onSubmit = (text) => {
      this.#seams.reset('')
      if (text.trim() === '') return
      this.#remember(text)
      opts.submit(text)
      // The editor cleared the box (and offered the then-last entry) before this entry was remembered:
      // offer again, so that after a slash command (no turn starts) the hint names what ↑ now recalls.
      this.offerSuggestion()
    }
    this.editor.onChange = (text) => this.#edited(text)
    this.#seams = new PromptSeams(opts.ctx)
    this.#history = new PromptHistory(opts.historyDir, opts.cwd, opts.ctx.tui.config.historyEntries)
    for (const entry of this.#history.load()) this.editor.addToHistory(entry)
    this.refreshCommands()
  }

  get text(): string {
    return this.editor.getText()
  }

  clear(): void {
    this.editor.setText('')
  }

  /** Called with every key the screen sees, before the editor: remembers the key of the next edit. */
  noteKey(data: string): void {
    this.#lastKey = keyName(data)
  }

  /** The `/` menu: the registry's commands for this screen, the same list `/help` prints. */
  refreshCommands(): void {
    const { ctx, cwd } = this.#opts
    const registered = ctx.get('commands') ? ctx.commands.list({ surface: 'tui' }) : []
    const items = registered.map((c) => ({
      name: c.name,
      description: c.description,
      ...(c.args ? { argumentHint: c.args } : {}),
    }))
    this.#commandNames = items.map((item) => item.name)
    this.editor.setAutocompleteProvider(
      (this.#mentions = new MentionAutocomplete(new CombinedAutocompleteProvider(items, cwd), ctx, cwd)),
    )
  }

  /**
   * Enter or Tab while the `/` menu shows, decided from the registry's names rather than the menu.
   * pi-tui refills the menu a moment after each key, so an Enter typed faster than that applied a stale
   * item (`/help` + Enter became `/helclear`); and an Enter on a bare `/` ran the first item, `/clear`.
   * A whole command name is taken as typed; a prefix of exactly one name completes to it; an item the
   * user moved to with ↑/↓ is theirs. Otherwise Enter does nothing and Tab completes the names' common
   * prefix. A mention menu's Enter on a mention typed whole sends the prompt. True when the key was handled.
   */
  settleMenuKey(data: string): boolean {
    const showing = this.editor.isShowingAutocomplete()
    if (!showing) return this.#settleUnshownMenu(data)
    if (matchesKey(data, Key.escape)) {
      this.#menuDismissed = true
      return false
    }
    if (matchesKey(data, Key.up) || matchesKey(data, Key.down)) {
      this.#menuChosen = true
      return false
    }
    const enter = matchesKey(data, Key.enter)
    if (enter && !this.#menuChosen && this.#mentions?.endsInWholeMention(this.#beforeCursor())) {
      // The mention is typed whole already: Enter sends, as it would with no menu.
      this.editor.handleInput('\x1b')
      this.editor.handleInput('\r')
      return true
    }
    if (!enter && !matchesKey(data, Key.tab)) return false
    const typed = /^\/(\S*)$/.exec(this.text)?.[1]
    if (typed === undefined || this.#menuChosen) return false
    const names = this.#commandNames
    const matching = names.filter((n) => n.startsWith(typed))
    if (matching.length === 0) return false // not a command (`/etc/hosts`): the box's text as typed
    const pick = names.includes(typed) ? typed : matching.length === 1 ? matching[0] : undefined
    if (pick === undefined) {
      const common = commonPrefix(matching)
      if (!enter && common.length > typed.length) this.editor.setText(`/${common}`)
      return true
    }
    this.editor.handleInput('\x1b') // closes the menu; the text stays
    if (pick !== typed) this.editor.setText(`/${pick}${enter ? '' : ' '}`)
    if (enter) this.editor.handleInput('\r')
    return true
  }

  /**
   * Enter before the `/` menu has drawn. pi-tui asks for the menu's items asynchronously, so an Enter in
   * the same burst as the name (a fast typist, a paste ending in a newline) reached the editor first and
   * sent `/exi` as typed: "unknown command". It is settled from the names as the menu would settle it,
   * unless Esc closed the menu since the box last changed — then the text is the user's, as typed.
   */
  #settleUnshownMenu(data: string): boolean {
    if (this.#menuDismissed || !matchesKey(data, Key.enter)) return false
    const typed = /^\/(\S+)$/.exec(this.text)?.[1]
    if (typed === undefined || this.#commandNames.includes(typed)) return false
    const matching = this.#commandNames.filter((n) => n.startsWith(typed))
    if (matching.length === 0) return false // not a command (`/etc/hosts`): the box's text as typed
    if (matching.length > 1) return true // as with the menu: Enter on an unfinished name does nothing
    this.editor.setText(`/${matching[0]}`)
    this.editor.handleInput('\r')
    return true
  }

  /** The box's text on the cursor's line, up to the cursor. */
  #beforeCursor(): string {
    const at = this.editor.getCursor()
    return (this.editor.getLines()[at.line] ?? '').slice(0, at.col)
  }

  /**
   * Offers the ghost suggestion of an empty, idle box: the last prompt. `ui/prompt-suggest` decides
   * whether it shows (65-mod-host.md prompt.suggest).
   */
  offerSuggestion(): void {
    const agent = this.#opts.agent()
    const last = this.#history.last()
    if (!agent || !last || this.#opts.busy() || this.text !== '') return
    void this.#seams.suggest(agent, last).then((shown) => {
      // an offer overtaken by a newer entry (the one just sent) shows nothing: its own offer follows
      if (shown && last === this.#history.last() && !this.#opts.busy() && this.text === '')
        this.#showSuggestion(last)
    })
  }

  #edited(text: string): void {
    const key = this.#lastKey
    this.#lastKey = undefined
    this.#menuChosen = false
    this.#menuDismissed = false
    this.#showSuggestion(undefined)
    const agent = this.#opts.agent()
    if (!agent) return
    const lines = this.editor.getLines()
    const at = this.editor.getCursor()
    const cursor = lines.slice(0, at.line).reduce((n, l) => n + l.length + 1, 0) + at.col
    void this.#seams.edited(agent, text, cursor, key).then((box) => {
      // Applied only while the box still holds what was offered: typing on wins over a slow listener.
      if (!box || this.text !== text) return
      this.editor.setText(box.text)
      this.#opts.tui.requestRender()
    })
    if (text === '') this.offerSuggestion()
  }

  #showSuggestion(text: string | undefined): void {
    const line =
      text === undefined
        ? ''
        : this.#opts.theme.dim(`${this.#opts.theme.glyphs.recall} ${text.replace(/\s+/g, ' ').trim()}`)
    this.suggestion.setText(line)
    this.#opts.tui.requestRender()
  }

  #remember(text: string): void {
    this.editor.addToHistory(text)
    try {
      this.#history.add(text)
    } catch (error) {
      if (this.#historyWarned) return
      this.#historyWarned = true
      this.#opts.warn(`prompt history not saved: ${(error as Error).message}`)
    }
  }
}

function commonPrefix(names: readonly string[]): string {
  if (names.length === 0) return ''
  let prefix = names[0]
  for (const name of names) while (!name.startsWith(prefix)) prefix = prefix.slice(0, -1)
  return prefix
}

/** A line of text cut to the width, never wrapped; empty text draws nothing. */
class OneLine extends Lines {
  #text = ''

  constructor() {
    super((width) => (this.#text === '' ? [] : [truncateToWidth(this.#text, width)]))
  }

  setText(text: string): void {
    this.#text = text
  }
}
