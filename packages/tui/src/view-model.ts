// The screen's state, derived from the session log one event at a time (data flows one way: log events →
// this view model → components). Nothing here draws; components read `entries`, `todos` and `status`.
// Two facts are not in the log and come from the app: a call's body starting (`markRunning`, from the
// `tools/execute` seam) and typed text waiting to be sent as steering (`queue`).
import { typedCommandOf } from '@tack/commands'
import { blockText, formatBytes } from '@tack/session'
import type { AnySessionEvent, ContentBlock, SessionEvent, Usage } from '@tack/session'
import {
  type DiffHunk,
  type Presenter,
  plainPresenter,
  progressText,
  type ResultPresentation,
} from '@tack/tools'
import { escapeControls, escapeDeep } from './format.ts'
import { failureDetail, firstLines, lastLines } from './card-output.ts'
import { addInner, dispatchedCall, endInner, type InnerCalls, settleInner } from './inner-calls.ts'
import { keyArgument, oneLine } from './key-argument.ts'

export type ToolStatus = 'pending' | 'running' | 'done' | 'failed'

/** What an edit or a write changed: its applied hunks, or the whole content of a file it created. */
export type DiffView =
  | { readonly path: string; readonly hunks: readonly DiffHunk[] }
  | { readonly path: string; readonly created: string }

export interface ToolEntry {
  readonly kind: 'tool'
  readonly callId: string
  readonly name: string
  readonly keyArg: string
  status: ToolStatus
  /** Epoch ms the call was logged / its body started / its result logged. */
  readonly loggedAt: number
  startedAt?: number
  endedAt?: number
  diff?: DiffView
  /**
   * A few lines of the result for calls whose output matters: a terminal's first lines, a failure's last
   * ones (where the error is, 0310), its images' names.
   */
  output?: string
  /** A run_code program's sub-calls or a subagent's own calls, with their status (0310). */
  inner?: InnerCalls
  /** Set while the call waits for the user's answer, and `denied` after a refusal. */
  approval?: 'asked' | 'denied'
  /** How far a running call is (its latest `tool/progress`), until its result. */
  progress?: string
}

export interface AssistantEntry {
  readonly kind: 'assistant'
  readonly key: string
  text: string
  reasoning: string
  streaming: boolean
}

export interface UserEntry {
  readonly kind: 'user'
  readonly text: string
  readonly steering: boolean
}

export interface NoticeEntry {
  readonly kind: 'notice'
  readonly text: string
  /** `plain`: a command's output, drawn as is; `info` dim; `warning`, `error` coloured. */
  readonly tone: 'plain' | 'info' | 'warning' | 'error'
}

export type Entry = ToolEntry | AssistantEntry | UserEntry | NoticeEntry

export interface TodoView {
  readonly content: string
  readonly status: 'pending' | 'in_progress' | 'completed'
}

export interface StatusView {
  model: string
  permissionMode: string
  sessionId: string
  inputTokens: number
  outputTokens: number
  /** Summed per step; undefined while any step's model has no known price. */
  cost: number | undefined
  /** Tokens of the last request (its input plus its answer): what the context holds now. */
  contextTokens: number
  contextWindow: number
  running: boolean
}

/** How much of a call's result and inner calls a card keeps (`plugins.tui`). */
export interface ViewLimits {
  /** Last lines of a failed call's output (`failureTailLines`). */
  readonly failureTailLines: number
  /** Latest inner calls listed (`innerCallsShown`). */
  readonly innerCallsShown: number
}

const DEFAULT_LIMITS: ViewLimits = { failureTailLines: 6, innerCallsShown: 8 }

export interface Pricing {
  costOf(model: string, usage: Usage): number | undefined
  contextWindowOf(model: string): number
}

const textOf = (content: readonly ContentBlock[]): string => content.map(blockText).join('\n')
const at = (event: SessionEvent): number => Date.parse(event.time)

export class SessionView {
  readonly entries: Entry[] = []
  todos: readonly TodoView[] = []
  readonly queued: string[] = []
  readonly status: StatusView
  readonly #pricing: Pricing
  readonly #look: Presenter
  readonly #limits: ViewLimits
  readonly #tools = new Map<string, ToolEntry>()
  /** Each call's logged argument text, for its result's presentation. */
  readonly #args = new Map<string, string>()
  #assistant: AssistantEntry | undefined
  /** A `command/expanded` came: the next user/message is shown as the command typed. */
  #expanded = false
  /** Bumped on every change, so the app knows when to render. */
  version = 0

  /**
   * `look` is how calls look: the session's tool registry (`ctx.tools`), whose tools declare their
   * presentation; without one every call gets the defaults of a tool that declares nothing.
   */
  constructor(
    init: { model: string; permissionMode: string; sessionId: string },
    pricing: Pricing,
    look: Presenter = plainPresenter,
    limits: ViewLimits = DEFAULT_LIMITS,
  ) {
    this.#pricing = pricing
    this.#look = look
    this.#limits = limits
    this.status = {
      ...init,
      model: escapeControls(init.model),
      inputTokens: 0,
      outputTokens: 0,
      // 0 for a priced model, undefined (cost n/a) from the start for one without a price.
      cost: pricing.costOf(init.model, { inputTokens: 0, outputTokens: 0 }),
      contextTokens: 0,
      contextWindow: pricing.contextWindowOf(init.model),
      running: false,
    }
  }

  apply(event: SessionEvent): void {
    this.version++
    const logged = event as AnySessionEvent
    const e = safeToDraw(logged)
    switch (e.type) {
      case 'user/message': {
        const text = textOf(e.data.content)
        const typed = this.#expanded ? typedCommandOf(text) : undefined
        this.#expanded = false
        if (typed === undefined) this.entries.push({ kind: 'user', text, steering: false })
        // A command's expansion shows as the `/name args` typed (0275), once: the app echoed it live.
        else if (this.#lastUserText() !== typed)
          this.entries.push({ kind: 'user', text: typed, steering: false })
        return
      }
      case 'steering/message':
        if (e.data.source.kind !== 'user') return
        this.#dequeue(textOf(e.data.content))
        this.entries.push({ kind: 'user', text: textOf(e.data.content), steering: true })
        return
      case 'prompt/blocked':
        // Blocked steering was taken by the loop all the same: it is no longer queued.
        if (e.data.source.kind === 'user') this.#dequeueExactly(textOf(e.data.content))
        this.#notice(`prompt blocked: ${e.data.reason}`, 'warning')
        return
      case 'turn/start':
        this.status.running = true
        return
      case 'turn/end':
        this.status.running = false
        this.#assistant = undefined
        this.queued.length = 0
        this.#turnEnded(e.data.reason)
        return
      case 'assistant/chunk':
        this.#chunk(`${e.data.turn}:${e.data.step}`, e.data.chunk)
        return
      case 'assistant/message':
        this.#message(`${e.data.turn}:${e.data.step}`, e.data)
        return
      case 'tool/call':
        // presented from the log as written; what it shows is escaped below
        if (logged.type === 'tool/call') this.#call(e.data.callId, logged.data, at(event))
        return
      case 'tool/result':
        if (logged.type === 'tool/result') this.#result(logged.data, at(event))
        return
      default:
        this.#logOnly(e)
    }
  }

  /** A call's body started (the `tools/execute` seam): it is running from now on. */
  markRunning(callId: string, now = Date.now()): void {
    const card = this.#tools.get(callId)
    if (card?.status !== 'pending') return
    card.status = 'running'
    card.startedAt = now
    card.approval = card.approval === 'asked' ? undefined : card.approval
    this.version++
  }

  /**
   * An event of a subagent's session, the child of the call `parentCallId` (the app follows it through
   * the `subagent/start` seam: the parent's log does not hold it). Its calls are listed on that card.
   */
  applyChild(parentCallId: string, event: SessionEvent): void {
    const card = this.#tools.get(parentCallId)
    if (!card) return
    const logged = event as AnySessionEvent
    if (logged.type === 'tool/call') {
      const { callId, name, arguments: args } = logged.data
      card.inner = addInner(
        card.inner,
        { id: callId, label: this.#label(name, args), status: 'running' },
        this.#limits.innerCallsShown,
      )
    } else if (logged.type === 'tool/result') {
      const { callId, isError, error, meta } = logged.data
      const status = error?.code === 'DENIED' ? 'denied' : isError ? 'failed' : 'done'
      settleInner(
        card.inner,
        callId,
        status,
        isError ? escapeControls(failureDetail(error, meta)) : undefined,
      )
    } else return
    this.version++
  }

  /** A call as one short line: its name and key argument, escaped. */
  #label(name: string, rawArguments: string): string {
    const shown = this.#look.presentCall(name, rawArguments)
    const key = keyArgument(escapeControls(shown.keyArgument))
    return `${escapeControls(name)}${key ? ` ${key}` : ''}`
  }

  /** Text typed during a turn, shown as queued until the loop drains it as a steering message. */
  queue(text: string): void {
    this.queued.push(text)
    this.version++
  }

  /**
   * Takes back the queued text the loop has not taken (Esc): cancel drops held steering (AL-23), so the
   * app puts it back in the prompt box rather than lose what the user typed. Oldest first.
   */
  withdrawQueued(): string[] {
    const texts = this.queued.splice(0)
    if (texts.length > 0) this.version++
    return texts
  }

  /** A slash command as typed: shown like a prompt, though it never reaches the log. */
  echo(text: string): void {
    this.entries.push({ kind: 'user', text, steering: false })
    this.version++
  }

  /** A line the app adds (a command's answer, an error it caught). */
  notice(text: string, tone: NoticeEntry['tone'] = 'info'): void {
    this.#notice(text, tone)
  }

  setModel(model: string): void {
    this.status.model = escapeControls(model)
    this.status.contextWindow = this.#pricing.contextWindowOf(model)
    this.version++
  }

  #notice(text: string, tone: NoticeEntry['tone']): void {
    this.entries.push({ kind: 'notice', text: escapeControls(text), tone })
    this.version++
  }

  /** Where queued `text` (as the log holds it: escaped) waits, or -1. */
  #queuedAt(text: string): number {
    return this.queued.findIndex((q) => escapeControls(q) === text)
  }

  #dequeue(text: string): void {
    const i = this.#queuedAt(text)
    this.queued.splice(Math.max(i, 0), 1)
  }

  #dequeueExactly(text: string): void {
    const i = this.#queuedAt(text)
    if (i >= 0) this.queued.splice(i, 1)
  }

  #assistantFor(key: string): AssistantEntry {
    if (this.#assistant?.key === key) return this.#assistant
    const entry: AssistantEntry = { kind: 'assistant', key, text: '', reasoning: '', streaming: true }
    this.entries.push(entry)
    this.#assistant = entry
    return entry
  }

  #chunk(key: string, chunk: Extract<AnySessionEvent, { type: 'assistant/chunk' }>['data']['chunk']): void {
    if (chunk.type === 'text-delta') this.#assistantFor(key).text += chunk.text
    else if (chunk.type === 'reasoning-delta') this.#assistantFor(key).reasoning += chunk.text
  }

  #message(key: string, data: Extract<AnySessionEvent, { type: 'assistant/message' }>['data']): void {
    const text = data.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('')
    const reasoning = data.content.flatMap((b) => (b.type === 'reasoning' ? [b.text] : [])).join('')
    if (text !== '' || reasoning !== '' || this.#assistant?.key === key) {
      const entry = this.#assistantFor(key)
      entry.text = text
      entry.reasoning = reasoning
      entry.streaming = false
    }
    // The step is over: a later step's text starts a new entry below this step's tool cards.
    this.#assistant = undefined
    if (data.usage) this.#usage(data.usage)
  }

  #usage(usage: Usage): void {
    const s = this.status
    s.inputTokens += usage.inputTokens
    s.outputTokens += usage.outputTokens
    s.contextTokens = usage.inputTokens + usage.outputTokens
    const cost = this.#pricing.costOf(s.model, usage)
    s.cost = s.cost === undefined || cost === undefined ? undefined : s.cost + cost
  }

  #call(
    callId: string,
    data: Extract<AnySessionEvent, { type: 'tool/call' }>['data'],
    loggedAt: number,
  ): void {
    const shown = this.#look.presentCall(data.name, data.arguments)
    const card: ToolEntry = {
      kind: 'tool',
      callId,
      name: escapeControls(data.name),
      // decoded from JSON only now, so its `\u001b`s become control characters only now
      keyArg: keyArgument(escapeControls(shown.keyArgument)),
      status: 'pending',
      loggedAt,
    }
    this.#tools.set(callId, card)
    this.#args.set(callId, data.arguments)
    this.entries.push(card)
  }

  #result(data: Extract<AnySessionEvent, { type: 'tool/result' }>['data'], endedAt: number): void {
    const card = this.#tools.get(data.callId)
    if (!card) return
    card.status = data.isError ? 'failed' : 'done'
    card.progress = undefined
    card.startedAt ??= card.loggedAt
    card.endedAt = endedAt
    const shown = this.#look.presentResult(data.name, this.#args.get(data.callId) ?? '{}', data)
    const diff = data.isError ? undefined : diffOf(shown)
    if (diff) card.diff = escapeDeep(diff)
    else {
      const terminal = shown.intents.find((intent) => intent.kind === 'terminal')
      // A terminal cannot draw the image; the card names each one.
      const images = shown.intents.flatMap((intent) =>
        intent.kind === 'image'
          ? [`[image ${escapeControls(intent.mimeType)} ${formatBytes(intent.bytes)}]`]
          : [],
      )
      // A failure's error is at the end of its output (a test runner's summary, a compiler's error).
      if (data.isError) card.output = lastLines(terminal?.output ?? shown.text, this.#limits.failureTailLines)
      else if (terminal) card.output = firstLines(terminal.output, 4)
      else if (images.length) card.output = firstLines(images.join('\n'), 4)
    }
  }

  #turnEnded(reason: Extract<AnySessionEvent, { type: 'turn/end' }>['data']['reason']): void {
    // A call the turn left without a result (Esc, a crash) did not finish.
    for (const card of this.#tools.values()) {
      if (card.status === 'pending' || card.status === 'running') card.status = 'failed'
      endInner(card.inner)
    }
    for (const entry of this.entries) if (entry.kind === 'assistant') entry.streaming = false
    switch (reason.kind) {
      case 'completed':
      case 'rejected':
        return
      case 'aborted':
        this.#notice('interrupted', 'warning')
        return
      case 'error':
        this.#notice(`error: ${oneLine(reason.message)}`, 'error')
        return
      default:
        this.#notice(`turn ended: ${reason.kind}`, 'warning')
    }
  }

  #lastUserText(): string | undefined {
    for (let i = this.entries.length - 1; i >= 0; i--) {
      const entry = this.entries[i]
      if (entry?.kind === 'user') return entry.text
    }
    return undefined
  }

  #logOnly(event: SessionEvent): void {
    const type = event.type as string
    const data = event.data as Record<string, unknown>
    switch (type) {
      case 'command/expanded':
        // The next user/message is a slash command's expansion (@tack/skills).
        this.#expanded = true
        return
      case 'todo/write':
        this.todos = Array.isArray(data.todos) ? (data.todos as TodoView[]) : []
        return
      case 'permission/mode':
        if (typeof data.mode === 'string') this.status.permissionMode = data.mode
        return
      case 'agent/model':
        // /model switched it; the status line follows (and its context window, its price).
        if (typeof data.model === 'string') this.setModel(data.model)
        return
      case 'approval/requested': {
        const card = this.#tools.get(String(data.callId))
        if (card) card.approval = 'asked'
        return
      }
      case 'tool/progress': {
        const card = this.#tools.get(String(data.callId))
        if (card && (card.status === 'running' || card.status === 'pending'))
          card.progress = oneLine(progressText(data))
        else this.version--
        return
      }
      case 'tool/code-dispatch': {
        // A run_code program's sub-call, logged when it settled (TL-27): listed on the program's card.
        const card = this.#tools.get(String(data.parentCallId))
        if (!card) {
          this.version--
          return
        }
        card.inner = addInner(
          card.inner,
          dispatchedCall(data, this.#label(String(data.name), JSON.stringify(data.arguments ?? {}))),
          this.#limits.innerCallsShown,
        )
        return
      }
      case 'approval/resolved': {
        const card = this.#tools.get(String(data.callId))
        if (card) card.approval = data.decision === 'deny' ? 'denied' : undefined
        return
      }
      case 'compact/start':
        this.#notice('compacting the conversation…', 'info')
        return
      case 'compact/end':
        this.#notice(
          data.ok === true ? 'conversation compacted' : `compaction failed: ${String(data.error ?? '')}`,
          data.ok === true ? 'info' : 'error',
        )
        return
      case 'hook/result':
        if (typeof data.systemMessage === 'string' && data.systemMessage !== '')
          this.#notice(data.systemMessage, 'info')
        return
      default:
        this.version-- // nothing this screen shows
    }
  }
}

/** The change a finished call shows: its result's first diff or created-file intent. */
function diffOf(shown: ResultPresentation): DiffView | undefined {
  for (const intent of shown.intents) {
    if (intent.kind === 'diff') return { path: intent.path, hunks: intent.hunks }
    if (intent.kind === 'created') return { path: intent.path, created: intent.content }
  }
  return undefined
}

/**
 * `event` with every string the session's log holds escaped (format.ts `escapeControls`): what the
 * model, a tool, a hook or a prompt wrote reaches the screen shown, not obeyed. A tool result's content
 * is left for `firstLines`, which removes a program's colour codes rather than writing them out.
 */
function safeToDraw(event: AnySessionEvent): AnySessionEvent {
  if (event.type !== 'tool/result') return escapeDeep(event)
  return { ...event, data: { ...escapeDeep({ ...event.data, content: [] }), content: event.data.content } }
}
