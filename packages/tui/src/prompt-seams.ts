// The prompt box's seams (80-cli.md §7.3, 65-mod-host.md prompt.edit / prompt.suggest): after each edit
// the box is offered to `ui/prompt-edit` listeners, which may rewrite it; before a suggestion shows in
// the empty, idle box `ui/prompt-suggest` says whether it does. The mod host serves Claude Code mods'
// `prompt.edit` / `prompt.suggest` on them, so agent-state's draft signals work in tack.
import type { Agent } from '@tack/agent'
import { firePromptEdit, firePromptSuggest, type PromptBox, type PromptEdit } from '@tack/commands'
import type { Context } from 'cordis'

/** The edit that turned `before` into `after`: the replaced range of `before` and what replaced it. */
export function describeEdit(before: string, after: string, cursor: number, key?: string): PromptEdit {
  let start = 0
  const max = Math.min(before.length, after.length)
  while (start < max && before[start] === after[start]) start++
  let tail = 0
  while (tail < max - start && before[before.length - 1 - tail] === after[after.length - 1 - tail]) tail++
  return {
    ...(key !== undefined ? { key } : {}),
    text: after,
    cursor,
    start,
    end: before.length - tail,
    inputText: after.slice(start, after.length - tail),
  }
}

/** A short name for the key that made an edit (`a`, `backspace`, `enter`); undefined for a paste. */
export function keyName(data: string): string | undefined {
  if (data.startsWith('\x1b[200~')) return undefined
  if (data === '\x7f' || data === '\b') return 'backspace'
  if (data === '\r' || data === '\n') return 'enter'
  if (data === '\t') return 'tab'
  if (data === '\x1b[3~') return 'delete'
  if (data.length === 1 && data >= ' ') return data
  return undefined
}

export class PromptSeams {
  readonly #ctx: Context
  #seen = ''

  constructor(ctx: Context) {
    this.#ctx = ctx
  }

  /**
   * Offers the box after an edit to the listeners; resolves with the box to show when a listener changed
   * it, undefined when the typed text stands.
   */
  async edited(agent: Agent, text: string, cursor: number, key?: string): Promise<PromptBox | undefined> {
    const before = this.#seen
    this.#seen = text
    if (before === text) return undefined
    const box = await firePromptEdit(this.#ctx, agent, describeEdit(before, text, cursor, key))
    if (box.text === text) return undefined
    this.#seen = box.text
    return box
  }

  /** The box was set from outside (history, a submit): the next edit is measured from `text`. */
  reset(text: string): void {
    this.#seen = text
  }

  async suggest(agent: Agent, text: string): Promise<boolean> {
    const { isShown } = await firePromptSuggest(this.#ctx, agent, { text })
    return isShown
  }
}
