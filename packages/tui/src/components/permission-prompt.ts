// The question for an `ask` decision (80-cli.md §5.2): which call, why it asks, the change it would make
// (a write's or an edit's diff from its dry run, docs/decisions/0300-approval-shows-the-change.md), and
// three answers —
//   Allow once · Allow for this session · Deny (type a reason for the model)
// ↑/↓ and Enter, or the keys 1/2/3; Esc denies and interrupts the turn. Deny (3) asks for a reason in one line (Enter sends
// it, empty sends none); the reason goes back to the model as the refusal's text.
//
// A person typing a message when the question pops up must not answer it: letters answer nothing (an
// `a` in "also" used to allow the tool for the session), and a digit or Enter that comes hard on the
// heels of such a stray key is taken as more typing, not as an answer.
import {
  type Component,
  type Focusable,
  Input,
  Key,
  matchesKey,
  truncateToWidth,
  wrapTextWithAnsi,
} from '@mariozechner/pi-tui'
import type { Theme } from '../theme.ts'
import type { DiffView } from '../view-model.ts'
import { renderDiff } from './diff-view.ts'

export type PermissionChoice =
  | { readonly choice: 'once' }
  | { readonly choice: 'session' }
  /** `interrupt`: Esc (or Ctrl-C) at the question — deny, and stop the turn, as Esc does elsewhere. */
  | { readonly choice: 'deny'; readonly reason: string; readonly interrupt?: true }

export interface PermissionQuestion {
  readonly tool: string
  readonly keyArg: string
  /** Every line of a key argument that has several (a multi-line command), shown before the choices. */
  readonly lines?: readonly string[]
  /** Why the permission mode asks (the decision's reason), when it gave one. */
  readonly reason?: string
  /** The change the call would make, already bounded (`approvalPreviewMaxChars`): shown whole. */
  readonly preview?: readonly PreviewPart[]
}

/** A part of a question's preview: a diff drawn as a result's card draws it, or a line of note. */
export type PreviewPart = { readonly diff: DiffView } | { readonly note: string }

export const PERMISSION_TITLE = 'Permission required'
export const PERMISSION_CHOICES = Object.freeze(['Allow once', 'Allow for this session', 'Deny'] as const)
export const DENY_REASON_LABEL = 'Reason for the model (Enter to send, empty for none):'

/** How soon after a key that answers nothing a digit or Enter still counts as typing that ran on. */
const TYPING_RUN_ON_MS = 400

export class PermissionPrompt implements Component, Focusable {
  readonly #question: PermissionQuestion
  readonly #theme: Theme
  readonly #answer: (choice: PermissionChoice) => void
  readonly #reason = new Input()
  #selected = 0
  #typingReason = false
  #answered = false
  #focused = false
  /** When the last key that answers nothing (a letter, a space) came. */
  #strayAt = Number.NEGATIVE_INFINITY

  constructor(question: PermissionQuestion, theme: Theme, answer: (choice: PermissionChoice) => void) {
    this.#question = question
    this.#theme = theme
    this.#answer = answer
    this.#reason.onSubmit = (value) => this.#settle({ choice: 'deny', reason: value.trim() })
    this.#reason.onEscape = () => {
      this.#typingReason = false
    }
  }

  get focused(): boolean {
    return this.#focused
  }

  set focused(value: boolean) {
    this.#focused = value
    this.#reason.focused = value && this.#typingReason
  }

  handleInput(data: string): void {
    if (this.#answered) return
    if (this.#typingReason) {
      this.#reason.handleInput(data)
      this.#reason.focused = this.#focused && this.#typingReason
      return
    }
    const now = Date.now()
    const answers = data === '1' || data === '2' || data === '3' || matchesKey(data, Key.enter)
    if (answers && now - this.#strayAt < TYPING_RUN_ON_MS) {
      this.#strayAt = now // still typing
      return
    }
    if (matchesKey(data, Key.up)) this.#selected = (this.#selected + 2) % 3
    else if (matchesKey(data, Key.down) || matchesKey(data, Key.tab))
      this.#selected = (this.#selected + 1) % 3
    else if (matchesKey(data, Key.enter)) this.#choose(this.#selected)
    else if (matchesKey(data, Key.escape)) this.#settle({ choice: 'deny', reason: '', interrupt: true })
    else if (data === '1') this.#choose(0)
    else if (data === '2') this.#choose(1)
    else if (data === '3') this.#choose(2)
    else if (isTyping(data)) this.#strayAt = now
  }

  #choose(index: number): void {
    if (index === 0) this.#settle({ choice: 'once' })
    else if (index === 1) this.#settle({ choice: 'session' })
    else {
      this.#selected = 2
      this.#typingReason = true
      this.#reason.focused = this.#focused
    }
  }

  #settle(choice: PermissionChoice): void {
    if (this.#answered) return
    this.#answered = true
    this.#answer(choice)
  }

  render(width: number): string[] {
    const t = this.#theme
    const q = this.#question
    // What is asked is wrapped, never cut: the end of a long command is where a surprise would hide.
    const wrap = (text: string) => wrapTextWithAnsi(text, Math.max(1, width))
    const lines = [
      t.warning(t.bold(PERMISSION_TITLE)),
      ...wrap(`Allow ${t.bold(q.tool)}${q.keyArg ? ` ${q.keyArg}` : ''}?`),
    ]
    for (const line of q.lines ?? []) lines.push(...wrap(`    ${line}`))
    if (q.reason) for (const line of q.reason.split('\n')) lines.push(...wrap(t.dim(line)))
    for (const part of q.preview ?? []) {
      if ('diff' in part) lines.push(...renderDiff(part.diff, t, width, Number.POSITIVE_INFINITY))
      else lines.push(...wrap(t.dim(`  ${part.note}`)))
    }
    PERMISSION_CHOICES.forEach((label, i) => {
      const chosen = i === this.#selected
      const text = `${chosen ? t.glyphs.prompt : ' '} ${i + 1}. ${label}`
      lines.push(chosen ? t.accent(text) : text)
    })
    if (this.#typingReason) {
      lines.push(DENY_REASON_LABEL)
      lines.push(...this.#reason.render(width))
    } else lines.push(t.dim(`${t.glyphs.upDown} Enter, or 1 2 3; Esc denies`))
    return lines.map((line) => truncateToWidth(line, width))
  }

  invalidate(): void {
    this.#reason.invalidate()
  }
}

/** Printable text (a key or a paste), not a control or escape sequence. */
function isTyping(data: string): boolean {
  return data.length > 0 && !data.startsWith('\x1b') && !/^[\x00-\x1f\x7f]$/.test(data)
}
