// The interactive screen (80-cli.md §5): the transcript of the session, the todo panel, the prompt box
// (or, in its place, a permission prompt, the resume picker or a command's picker), an activity line and the status line.
// Data flows one way: the session log feeds the view model (view-model.ts), components draw it, and
// keys act on the agent (send, steer, cancel) — whose effects come back through the log.
//
// Keys: Enter sends; Shift+Enter or `\`+Enter adds a line; ↑/↓ walk the history; typing while a turn
// runs queues a steering message; Esc interrupts the turn (a running bash call is killed with it);
// Ctrl-C clears the box, or asks to be pressed again to exit; Ctrl-D on an empty box exits.
import {
  type Component,
  Container,
  Key,
  matchesKey,
  ProcessTerminal,
  Spacer,
  type Terminal,
  TUI,
} from '@mariozechner/pi-tui'
import type { Agent, AgentHandle, DisposeCause } from '@tack/agent'
import { type ContentBlock, contentText, formatBytes } from '@tack/session'
import { type CommandChoices, fireCommand, parseSlashCommand } from '@tack/commands'
import { type ApprovalRequest, type Presenter, plainPresenter, type ToolExecution } from '@tack/tools'
import type { Context } from 'cordis'
import { ApprovalQueue } from './approvals.ts'
import { Attention } from './attention.ts'
import { applyCommandResult } from './command-results.ts'
import { captureConsole } from './console-capture.ts'
import { asciiTerminal } from './ascii-terminal.ts'
import { type Activity, EXIT_HINT, renderActivity } from './components/activity-line.ts'
import { renderHeader } from './components/header.ts'
import { Lines } from './components/lines.ts'
import {
  type PermissionChoice,
  PermissionPrompt,
  type PermissionQuestion,
} from './components/permission-prompt.ts'
import { ChoicePicker } from './components/choice-picker.ts'
import { SessionPicker } from './components/session-picker.ts'
import { TerminalSafe } from './components/terminal-safe.ts'
import { renderStatusLine } from './components/status-line.ts'
import { renderTodos } from './components/todo-panel.ts'
import { Transcript } from './components/transcript.ts'
import type { InteractiveHost, SessionTarget } from './host.ts'
import { PromptBox } from './prompt-box.ts'
import { attachImagePaths, mayHoldImagePaths } from './image-paths.ts'
import { type Theme, type ThemeEnv, themeFromEnv } from './theme.ts'
import { followSubagents } from './subagent-follow.ts'
import { type Pricing, SessionView } from './view-model.ts'

/** How long a first Ctrl-C waits for the second. */
export const EXIT_CONFIRM_MS = 2000
const ENDING_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP']
/** Long enough for pi-tui to draw a requested frame (it draws at most every 16 ms). */
const FRAME_MS = 40
/** How often a running turn redraws its clock and spinner. */
const TICK_MS = 100

export interface InteractiveOptions {
  readonly env: ThemeEnv
  /** The session to show first; `pick` opens the resume picker (`tack -r` without an id). */
  readonly start: SessionTarget | { readonly pick: true }
  readonly pricing: Pricing
  /** A terminal other than the process's (tests). */
  readonly terminal?: Terminal
}

export class InteractiveApp {
  readonly #host: InteractiveHost
  readonly #opts: InteractiveOptions
  readonly #theme: Theme
  readonly #tui: TUI
  readonly #box: PromptBox
  readonly #slot = new Container()
  readonly #transcriptSlot = new Container()
  readonly #statusSlot = new Container()
  readonly #todoSlot = new Container()
  readonly #activity: Activity = { runningSince: undefined, hint: undefined }
  readonly #approvals: ApprovalQueue
  readonly #attention: Attention
  /** Aborted by Esc while a slash command runs. */
  #command: AbortController | undefined
  #handle: AgentHandle | undefined
  #view: SessionView | undefined
  /** Warnings said while a session opens (the host's resume notices), shown once its view exists. */
  #held: string[] | undefined
  #unsubscribe: (() => void) | undefined
  #detach: (() => void) | undefined
  #tick: NodeJS.Timeout | undefined
  #hintTimer: NodeJS.Timeout | undefined
  #lastCtrlC = 0
  #finished: ((cause: DisposeCause) => void) | undefined
  #closing = false
  #signal: NodeJS.Signals | undefined
  /** The last session shown, and whether anything happened in it (for the "resume with" line). */
  #last: { id: string; used: boolean } | undefined
  readonly #offCommands: () => void

  constructor(host: InteractiveHost, opts: InteractiveOptions) {
    this.#host = host
    this.#opts = opts
    this.#theme = themeFromEnv(opts.env)
    const raw = opts.terminal ?? new ProcessTerminal()
    this.#tui = new TUI(this.#theme.unicode ? raw : asciiTerminal(raw))
    this.#box = new PromptBox({
      tui: this.#tui,
      theme: this.#theme,
      ctx: host.ctx,
      cwd: host.cwd,
      historyDir: host.historyDir,
      agent: () => this.#handle?.agent,
      busy: () => this.#view?.status.running === true,
      submit: (text) => this.#submit(text),
      warn: (text) => this.#view?.notice(text, 'warning'),
    })
    this.#approvals = new ApprovalQueue(
      (question, signal) => this.#ask(question, signal),
      presenterOf(host.ctx),
    )
    this.#attention = new Attention(host.ctx, host.ctx.tui.config)
    // Every part of the screen goes into `screen`, whose lines TerminalSafe checks on their way out.
    const screen = new Container()
    this.#tui.addChild(new TerminalSafe(screen))
    screen.addChild(new Lines((width) => renderHeader(host.cwd, opts.env.HOME, this.#theme, width)))
    screen.addChild(this.#transcriptSlot)
    screen.addChild(new Spacer(1))
    screen.addChild(this.#todoSlot)
    screen.addChild(this.#box.suggestion)
    screen.addChild(this.#slot)
    screen.addChild(new Lines((width) => renderActivity(this.#activity, this.#theme, width)))
    screen.addChild(this.#statusSlot)
    this.#tui.addInputListener((data) => this.#globalKey(data))
    this.#offCommands = host.ctx.on('commands/changed', () => this.#box.refreshCommands())
  }

  /** Runs until the user exits; resolves with why the session ended. */
  async run(): Promise<DisposeCause> {
    const done = new Promise<DisposeCause>((resolve) => {
      this.#finished = resolve
    })
    this.#detach = this.#host.ctx.tui.attach({
      approve: (req: ApprovalRequest) => this.#approvals.request(req),
      remembered: (req: Omit<ApprovalRequest, 'signal'>) => this.#approvals.remembered(req),
      started: (exec: ToolExecution) => this.#started(exec),
    })
    this.#host.redirectWarnings((line) => {
      if (this.#held) this.#held.push(line.trimEnd())
      else this.#view?.notice(line.trimEnd(), 'warning')
    })
    const releaseConsole = captureConsole((text, level) => {
      this.#view?.notice(text.trimEnd(), level)
      this.render()
    })
    // In raw mode Ctrl-C is a key, not SIGINT; a signal from outside still ends the session cleanly.
    const onSignal = (signal: NodeJS.Signals) => {
      this.#signal ??= signal
      this.exit('signal')
    }
    for (const signal of ENDING_SIGNALS) process.on(signal, onSignal)
    this.#tui.start()
    try {
      if ('pick' in this.#opts.start) await this.#pick(true)
      else await this.#open(this.#opts.start)
      const cause = await done
      await this.#close(cause)
      return cause
    } catch (error) {
      await this.#close('error')
      throw error
    } finally {
      for (const signal of ENDING_SIGNALS) process.off(signal, onSignal)
      releaseConsole()
    }
  }

  /** Ends the session and the screen (`/exit`, Ctrl-D, a second Ctrl-C, a signal). */
  exit(cause: DisposeCause = 'exit'): void {
    this.#finished?.(cause)
  }

  /** The signal that ended the screen, if one did. */
  get signal(): NodeJS.Signals | undefined {
    return this.#signal
  }

  /** The session on screen when it closed: its id, and whether it has a turn (worth resuming). */
  get lastSession(): { readonly id: string; readonly used: boolean } | undefined {
    return this.#last
  }

  get agent(): Agent | undefined {
    return this.#handle?.agent
  }

  get view(): SessionView | undefined {
    return this.#view
  }

  get theme(): Theme {
    return this.#theme
  }

  /** The screen as the next frame will draw it, one string per line (what tests read). */
  frame(): string[] {
    return this.#tui.render(this.#tui.terminal.columns)
  }

  /** Redraws on the next frame (after the view model changed). */
  render(): void {
    this.#tui.requestRender()
  }

  /** Leaves the current session (its end carries `cause`) and shows `target`. */
  async switchTo(target: SessionTarget, cause: DisposeCause): Promise<void> {
    const old = this.#handle
    this.#unbind()
    this.#handle = undefined
    if (old) {
      old.agent.cancel('session switched')
      await old.dispose(cause)
    }
    this.#approvals.reset()
    try {
      await this.#open(target, { redraw: true })
    } catch (error) {
      // The old session is gone already: never leave the screen without one.
      await this.#open({}, { redraw: true })
      this.#view?.notice(`could not open that session: ${(error as Error).message.split('\n')[0]}`, 'error')
    }
  }

  /** Opens the resume picker; at start-up, Esc there starts a new session. */
  async #pick(atStart: boolean): Promise<void> {
    const sessions = await this.#host.sessions()
    const chosen = await new Promise<string | undefined>((resolve) => {
      const picker = new SessionPicker(sessions, this.#theme, resolve)
      this.#showInSlot(picker)
    })
    this.#showEditor()
    if (chosen !== undefined)
      await (atStart ? this.#open({ resume: chosen }) : this.switchTo({ resume: chosen }, 'resume'))
    else if (atStart) await this.#open({})
  }

  /**
   * Shows `target`'s session. `redraw` (a switch: /clear, /resume) repaints the whole screen; at start-up
   * the screen is drawn below what the terminal already shows — a full repaint in pi-tui also erases the
   * scrollback, which would take the user's earlier output and tack's start-up warnings with it.
   */
  async #open(target: SessionTarget, { redraw = false }: { redraw?: boolean } = {}): Promise<void> {
    this.#held = []
    let handle: Awaited<ReturnType<InteractiveHost['open']>>
    try {
      handle = await this.#host.open(target)
    } catch (error) {
      for (const line of this.#held) this.#view?.notice(line, 'warning')
      this.#held = undefined
      throw error
    }
    const held = this.#held
    this.#held = undefined
    this.#handle = handle
    const agent = handle.agent
    const view = new SessionView(
      {
        model: agent.model,
        permissionMode: agent.options.permissionMode ?? this.#host.permissionMode,
        sessionId: agent.session.id,
      },
      this.#opts.pricing,
      presenterOf(this.#host.ctx),
      {
        failureTailLines: this.#host.ctx.tui.config.failureTailLines,
        innerCallsShown: this.#host.ctx.tui.config.innerCallsShown,
      },
    )
    this.#view = view
    for (const event of agent.session.events()) view.apply(event)
    if (target.resume) view.notice(`resumed session ${agent.session.id}`)
    for (const line of held) view.notice(line, 'warning')
    const unsubscribe = agent.session.subscribe((event) => {
      view.apply(event)
      this.#syncActivity()
      this.render()
    })
    const unfollow = followSubagents(this.#host.ctx, agent.session, (callId, event) => {
      view.applyChild(callId, event)
      this.render()
    })
    this.#unsubscribe = () => {
      unsubscribe()
      unfollow()
    }
    this.#transcriptSlot.clear()
    this.#transcriptSlot.addChild(new Transcript(view, this.#theme, this.#host.ctx.tui.config.diffMaxLines))
    this.#todoSlot.clear()
    this.#todoSlot.addChild(new Lines((width) => renderTodos(view.todos, this.#theme, width)))
    this.#statusSlot.clear()
    this.#statusSlot.addChild(new Lines((width) => [renderStatusLine(view.status, this.#theme, width)]))
    this.#showEditor()
    this.#syncActivity()
    this.#box.offerSuggestion()
    this.#tui.requestRender(redraw)
  }

  #unbind(): void {
    this.#unsubscribe?.()
    this.#unsubscribe = undefined
  }

  #showInSlot(component: Component): void {
    this.#slot.clear()
    this.#slot.addChild(component)
    this.#tui.setFocus(component)
    this.render()
  }

  #showEditor(): void {
    this.#showInSlot(this.#box.editor)
  }

  #submit(text: string): void {
    const agent = this.#handle?.agent
    if (!agent) return
    const command = parseSlashCommand(text)
    if (command?.name === 'exit' || command?.name === 'quit') {
      this.exit('exit')
      return
    }
    if (command) {
      this.#view?.echo(text.trim())
      void this.#runCommand(agent, command.name, command.args)
    } else this.#send(text)
  }

  /**
   * A prompt: sent, or — while a turn runs — queued as steering (AL-1), drained at the turn's next step.
   * Image paths in it (a file dropped on the terminal) are attached first (image-paths.ts).
   */
  #send(text: string): void {
    if (!mayHoldImagePaths(text)) {
      this.#deliver(text)
      return
    }
    void attachImagePaths(text).then(
      ({ content, attached }) => {
        for (const { name, image } of attached)
          this.#view?.notice(`[image: ${name}, ${formatBytes(image.bytes)}]`)
        this.#deliver(content)
      },
      (error: unknown) => {
        this.#view?.notice(`error: ${(error as Error).message}`, 'error')
        this.render()
      },
    )
  }

  #deliver(content: string | ContentBlock[]): void {
    const agent = this.#handle?.agent
    if (!agent) return
    if (agent.status === 'running') {
      // the queue shows the words the steering message will show (an image as its note)
      this.#view?.queue(typeof content === 'string' ? content : contentText(content))
      agent.steer({ content, source: { kind: 'user' } })
    } else {
      void agent.send({ content, source: { kind: 'user' } }).catch((error: unknown) => {
        this.#view?.notice(`error: ${(error as Error).message}`, 'error')
        this.render()
      })
    }
    this.render()
  }

  async #runCommand(agent: Agent, name: string, args: string): Promise<void> {
    const controller = new AbortController()
    this.#command = controller
    try {
      const result = await fireCommand(this.#host.ctx, agent, name, args, {
        surface: 'tui',
        columns: this.#tui.terminal.columns,
        signal: controller.signal,
      })
      if (controller.signal.aborted) return
      await applyCommandResult(result, {
        notice: (text, tone) => this.#view?.notice(text, tone),
        send: (text) => this.#send(text),
        clear: () => this.switchTo({ cleared: true }, 'clear'),
        resume: (id) => (id === undefined ? this.#pick(false) : this.switchTo({ resume: id }, 'resume')),
        choose: (choices) => this.#choose(agent, choices),
        exit: () => this.exit('exit'),
      })
    } catch (error) {
      this.#view?.notice(`/${name}: ${(error as Error).message}`, 'error')
    } finally {
      if (this.#command === controller) this.#command = undefined
      this.render()
    }
  }

  /**
   * A `choose` answer (`/model` alone): the picker takes the prompt box's place; a pick runs the command
   * with it (`/model provider/model`), the current entry or Esc keeps what is in force.
   */
  async #choose(agent: Agent, choices: CommandChoices): Promise<void> {
    const chosen = await new Promise<string | undefined>((resolve) => {
      const picker = new ChoicePicker(
        { ...choices, theme: this.#theme, changed: () => this.render() },
        resolve,
      )
      this.#showInSlot(picker)
    })
    this.#showEditor()
    if (this.#handle?.agent !== agent) return
    const current = choices.choices.find((c) => c.current)?.value
    if (chosen === undefined || chosen === current) {
      this.#view?.notice(`${choices.command} unchanged${current ? `: ${current}` : ''}`, 'plain')
      return
    }
    this.#view?.echo(`/${choices.command} ${chosen}`)
    await this.#runCommand(agent, choices.command, chosen)
  }

  #ask(question: PermissionQuestion, signal: AbortSignal): Promise<PermissionChoice> {
    return new Promise((resolve) => {
      const answered = this.#attention.questionShown(this.#handle?.agent, question.tool)
      const settle = (choice: PermissionChoice) => {
        answered()
        signal.removeEventListener('abort', onAbort)
        this.#showEditor()
        resolve(choice)
        // Esc at the question: the call is denied (logged as such), then the turn stops
        if (choice.choice === 'deny' && choice.interrupt) this.#handle?.agent.cancel('interrupted')
      }
      const onAbort = () => settle({ choice: 'deny', reason: '' })
      signal.addEventListener('abort', onAbort, { once: true })
      this.#showInSlot(new PermissionPrompt(question, this.#theme, settle))
    })
  }

  #started(exec: ToolExecution): void {
    if (exec.agent !== undefined && exec.agent !== this.#handle?.agent) return
    this.#view?.markRunning(exec.callId)
    this.render()
  }

  /** Keys that act whatever has focus; returning `consume` keeps them from the focused component. */
  #globalKey(data: string): { consume: true } | undefined {
    this.#attention.activity()
    const editorFocused = this.#slot.children[0] === this.#box.editor
    if (matchesKey(data, Key.ctrl('c'))) {
      this.#ctrlC(editorFocused)
      return { consume: true }
    }
    if (!editorFocused) return undefined
    if (matchesKey(data, Key.escape) && !this.#box.editor.isShowingAutocomplete()) {
      this.#command?.abort()
      if (this.#handle?.agent.status === 'running') this.#interrupt(this.#handle.agent)
      return { consume: true }
    }
    this.#box.noteKey(data)
    if (this.#box.settleMenuKey(data)) return { consume: true }
    if (matchesKey(data, Key.ctrl('d')) && this.#box.text === '') {
      this.exit('exit')
      return { consume: true }
    }
    return undefined
  }

  /**
   * Esc during a turn: cancels it, and steering the loop has not taken yet — which cancel drops (AL-23) —
   * goes back into the prompt box, before whatever the box holds, so nothing typed is lost.
   */
  #interrupt(agent: Agent): void {
    agent.cancel('interrupted')
    const withdrawn = this.#view?.withdrawQueued() ?? []
    if (withdrawn.length === 0) return
    const typed = this.#box.text
    this.#box.editor.setText([...withdrawn, ...(typed === '' ? [] : [typed])].join('\n'))
    this.render()
  }

  #ctrlC(editorFocused: boolean): void {
    if (!editorFocused) {
      // A question on screen: Ctrl-C answers it as Esc does (deny, close the picker).
      const focused = this.#slot.children[0]
      focused?.handleInput?.('\x1b')
      return
    }
    if (this.#box.text !== '') {
      this.#box.clear()
      this.render()
      return
    }
    const now = Date.now()
    if (now - this.#lastCtrlC < EXIT_CONFIRM_MS) {
      this.exit('exit')
      return
    }
    this.#lastCtrlC = now
    if (this.#handle?.agent.status === 'running') this.#handle.agent.cancel('interrupted')
    this.#activity.hint = EXIT_HINT
    clearTimeout(this.#hintTimer)
    this.#hintTimer = setTimeout(() => {
      this.#activity.hint = undefined
      this.render()
    }, EXIT_CONFIRM_MS)
    this.#hintTimer.unref()
    this.render()
  }

  /** Starts or stops the clock of a running turn. */
  #syncActivity(): void {
    const running = this.#view?.status.running === true
    if (running && this.#activity.runningSince === undefined) {
      this.#attention.activity()
      this.#activity.runningSince = Date.now()
      this.#tick = setInterval(() => this.render(), TICK_MS)
    } else if (!running && this.#activity.runningSince !== undefined) {
      this.#activity.runningSince = undefined
      clearInterval(this.#tick)
      this.#tick = undefined
      this.#box.offerSuggestion()
      this.#attention.turnEnded(this.#handle?.agent)
    }
  }

  async #close(cause: DisposeCause): Promise<void> {
    if (this.#closing) return
    this.#closing = true
    clearInterval(this.#tick)
    clearTimeout(this.#hintTimer)
    this.#attention.activity()
    this.#unbind()
    this.#detach?.()
    this.#offCommands()
    this.#command?.abort()
    const handle = this.#handle
    this.#handle = undefined
    if (handle) {
      const events = handle.agent.session.events()
      this.#last = { id: handle.agent.session.id, used: events.some((e) => e.type === 'turn/start') }
    }
    try {
      if (handle) {
        handle.agent.cancel('exit')
        await handle.dispose(cause)
      }
    } finally {
      // The last frame stays in the scrollback: without the prompt box and its hints, it reads as the
      // transcript of the session, then the status line.
      this.#slot.clear()
      this.#box.suggestion.setText('')
      this.#activity.hint = undefined
      this.#activity.runningSince = undefined
      this.render()
      await new Promise((resolve) => setTimeout(resolve, FRAME_MS))
      this.#tui.stop()
      this.#host.redirectWarnings(undefined)
    }
  }
}

/** How calls look: the tool registry's presentations, asked when a call is drawn (a tool may come and go). */
function presenterOf(ctx: Context): Presenter {
  const tools = (): Presenter => (ctx.get('tools') as Presenter | undefined) ?? plainPresenter
  return {
    presentCall: (name, args) => tools().presentCall(name, args),
    presentResult: (name, args, result) => tools().presentResult(name, args, result),
  }
}
