// Answers `ask` decisions with the permission prompt (80-cli.md §5.2), one question at a time: parallel
// calls that ask wait their turn. "Allow for this session" is remembered for the session (the tool, and
// for bash the exact command — SessionApprovals), so a matching call later runs without asking. A
// denial carries the reason the user typed to the model, or a plain refusal when they typed none. A
// request whose turn is cancelled (Esc) goes away from the screen and is denied. A `write` or `edit`
// shows the change its dry run computed (`ApprovalRequest.preview`, docs/decisions/0300), as the
// result's card will show it once applied.
import {
  type ApprovalAnswer,
  type ApprovalRequest,
  approvalRuleKey,
  type Presenter,
  plainPresenter,
  type ResultIntent,
  SessionApprovals,
} from '@tack/tools'
import type { PermissionChoice, PermissionQuestion, PreviewPart } from './components/permission-prompt.ts'
import { escapeControls, escapeDeep } from './format.ts'
import { keyArgument } from './key-argument.ts'

export const USER_DENIED = 'The user denied this tool call.'

/** What the screen does with a question: shows it, and calls back once with the answer. */
export type Ask = (question: PermissionQuestion, signal: AbortSignal) => Promise<PermissionChoice>

export class ApprovalQueue {
  #rules = new SessionApprovals()
  #tail: Promise<unknown> = Promise.resolve()
  readonly #ask: Ask
  readonly #look: Presenter

  /** `look`: how calls look, for the question's key argument (the tool registry; see SessionView). */
  constructor(ask: Ask, look: Presenter = plainPresenter) {
    this.#ask = ask
    this.#look = look
  }

  /** A new session forgets the previous one's "for this session" answers. */
  reset(): void {
    this.#rules = new SessionApprovals()
  }

  /** The answer a "for this session" choice gives this call, if one does (asked before any hook runs). */
  remembered(req: Omit<ApprovalRequest, 'signal'>): ApprovalAnswer | undefined {
    return this.#rules.match(approvalRuleKey(req))
  }

  request(req: ApprovalRequest): Promise<ApprovalAnswer> {
    const turn = this.#tail.then(() => this.#answer(req))
    this.#tail = turn.catch(() => undefined)
    return turn
  }

  async #answer(req: ApprovalRequest): Promise<ApprovalAnswer> {
    const key = approvalRuleKey(req)
    const remembered = this.#rules.match(key)
    if (remembered) return remembered
    if (req.signal.aborted) return { action: 'deny', by: 'none', reason: 'The turn was cancelled.' }
    // the arguments are the model's: shown with their control characters written out, never obeyed
    const keyText = escapeControls(
      this.#look.presentCall(req.exec.name, req.exec.arguments ?? {}).keyArgument,
    )
    const question: PermissionQuestion = {
      tool: escapeControls(req.exec.name),
      keyArg: keyArgument(keyText),
      ...wholeText(keyText),
      ...(req.reason ? { reason: escapeControls(req.reason) } : {}),
      ...previewOf(req.preview),
    }
    const choice = await this.#ask(question, req.signal)
    if (choice.choice !== 'deny') return this.#rules.answer(key, { action: 'allow', scope: choice.choice })
    const reason = choice.reason === '' ? USER_DENIED : `${USER_DENIED} The user said: ${choice.reason}`
    return this.#rules.answer(key, { action: 'deny', scope: 'once', reason })
  }
}

/** A key argument of several lines, shown whole under the question (a one-line one is in the question). */
function wholeText(text: string): { lines?: readonly string[] } {
  const lines = text.split('\n').filter((l) => l.trim() !== '')
  return lines.length > 1 ? { lines } : {}
}

/**
 * The change a call would make, as the question shows it: the file's text shown, never obeyed. A path
 * and a note are one line each: a newline in them (a file name may hold one) is written out, or it
 * would draw lines of its own in the question — a fake set of choices above the real ones.
 */
function previewOf(intents: readonly ResultIntent[] | undefined): { preview?: readonly PreviewPart[] } {
  const oneLine = (text: string) => text.replace(/\n/g, '\\n')
  const parts = escapeDeep(intents ?? []).flatMap((intent): PreviewPart[] => {
    if (intent.kind === 'diff') return [{ diff: { path: oneLine(intent.path), hunks: intent.hunks } }]
    if (intent.kind === 'created') return [{ diff: { path: oneLine(intent.path), created: intent.content } }]
    if (intent.kind === 'text') return [{ note: oneLine(intent.text) }]
    return []
  })
  return parts.length > 0 ? { preview: parts } : {}
}
