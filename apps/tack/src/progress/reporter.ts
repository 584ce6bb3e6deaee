// What `tack run` tells a person on stderr while a turn runs (issue 10 item 3): the current tool and its
// key argument, waits for the model, retries with their wait, permission denials; with -v also each
// model request's size and timing. Built as a listener on the session log and on seams (`llm/retry`,
// `llm/stream`), never as an edit to the loop: the reporter only watches.
import type { LlmRequest, LlmResponse } from '@tack/agent'
import type { RetryInfo } from '@tack/llm'
import type { Session, SessionEvent, SessionEventMap } from '@tack/session'
import type {} from '@tack/subagent' // the subagent/start and subagent/end seams
import type { CallPresentation, ToolRegistry } from '@tack/tools'
import type { Context } from 'cordis'
import { printable } from '../printable.ts'
import type { StatusSink, Styles } from './status-line.ts'

export interface ReporterOptions {
  readonly sink: StatusSink
  readonly styles: Styles
  /** -v: also request sizes and timings. */
  readonly verbose: boolean
  /** Tool calls, waits, retries and denials (off with --json, whose stdout already records them). */
  readonly progress: boolean
  /** Injectable clock for tests. */
  readonly now?: () => number
}

export interface Reporter {
  /** Starts watching a context's seams and an agent's session. */
  attach(ctx: Context, session: Session): void
  /** A -v diagnostic line (printed only with -v). */
  diagnostic(text: string): void
  /** Stops watching and erases the live line. */
  finish(): void
}

interface Running {
  readonly label: string
  readonly started: number
  /** The latest sub-call of a run_code program. */
  readonly sub?: string
}

/** The elapsed-time tick of the live line. */
const TICK_MS = 1000

export function createReporter(opts: ReporterOptions): Reporter {
  const { sink, styles: s } = opts
  const now = opts.now ?? (() => performance.now())
  const running = new Map<string, Running>()
  let waiting: { step: number; since: number } | undefined
  let retry: { text: string; until: number } | undefined
  let tools: ToolRegistry | undefined
  let timer: NodeJS.Timeout | undefined
  const disposers: Array<() => void> = []
  let requests = 0
  /** The sessions whose calls are reported: the run's, and its subagents' while they run. */
  const followed = new Set<Session>()
  /** A subagent's calls, by call id: their labels and start times. */
  const childCalls = new Map<string, Running>()

  const line = (text: string) => sink.line(`tack: ${text}`)
  const seconds = (ms: number) => `${Math.max(0, Math.round(ms / 1000))}s`

  function redraw(): void {
    if (!sink.live) return
    const t = now()
    if (retry && retry.until > t) {
      sink.status(s.yellow(`↻ ${retry.text} — retrying in ${((retry.until - t) / 1000).toFixed(1)} s`))
      return
    }
    const calls = [...running.values()]
    if (calls.length > 0) {
      const last = calls[calls.length - 1]
      const more = calls.length > 1 ? s.dim(` (+${calls.length - 1} more)`) : ''
      const sub = last.sub ? s.dim(` → ${last.sub}`) : ''
      sink.status(`▸ ${last.label}${sub}${more} ${s.dim(seconds(t - last.started))}`)
      return
    }
    if (waiting) {
      sink.status(s.dim(`… waiting for the model (step ${waiting.step}) ${seconds(t - waiting.since)}`))
      return
    }
    sink.status(undefined)
  }

  function label(name: string, rawArguments: string): string {
    let shown: CallPresentation | undefined
    try {
      shown = tools?.presentCall(name, rawArguments)
    } catch {
      shown = undefined
    }
    // a command or path the model took from a repository's files: shown, not obeyed by the terminal
    return printable(describeCall(name, rawArguments, shown))
  }

  type ResultData = { name: string; isError: boolean; error?: { code: string; message?: string } }

  /** A finished call: a line per call off a terminal; a denial always. `where` marks a subagent's. */
  function reportResult(
    data: ResultData,
    what: string,
    call: Running | undefined,
    where: '' | 'child',
  ): void {
    const took = call ? ` ${s.dim(`(${formatMs(now() - call.started)})`)}` : ''
    const lead = where === 'child' ? '  ↳ ' : ''
    if (data.error?.code === 'DENIED') {
      // A denial changes what the agent could do: a person must see it, terminal or not.
      const inChild = where === 'child' ? ' (in the subagent)' : ''
      line(s.yellow(`denied: ${what}${inChild} — ${firstLine(data.error.message ?? 'denied')}`))
    } else if (!sink.live) {
      if (data.isError)
        line(
          `${lead}${s.red('✗')} ${what}${took} — ${data.error?.code ?? 'error'}${data.error?.message ? `: ${firstLine(data.error.message)}` : ''}`,
        )
      else line(`${lead}${s.green('✓')} ${what}${took}`)
    }
  }

  /** A subagent's own calls (its session is a child's): shown under the `subagent` call that runs it. */
  function onChildEvent(parentCallId: string, e: SessionEvent): void {
    if (e.type === 'tool/call') {
      const data = e.data as { callId: string; name: string; arguments: string }
      const what = label(data.name, data.arguments)
      childCalls.set(data.callId, { label: what, started: now() })
      const parent = running.get(parentCallId)
      if (parent) running.set(parentCallId, { ...parent, sub: what })
    } else if (e.type === 'tool/result') {
      const data = e.data as ResultData & { callId: string }
      const call = childCalls.get(data.callId)
      childCalls.delete(data.callId)
      reportResult(data, call?.label ?? data.name, call, 'child')
    } else return
    redraw()
  }

  /** Follows a subagent of a followed session (nested ones too) until its turn ends. */
  function followChildren(ctx: Context): void {
    disposers.push(
      ctx.on('subagent/start', (parent, child, info) => {
        if (!followed.has(parent.session)) return
        followed.add(child.session)
        const stop = child.session.subscribe((e) => onChildEvent(info.callId, e))
        const off = ctx.on('subagent/end', (_parent, ended) => {
          if (ended !== child) return
          stop()
          off()
          followed.delete(child.session)
        })
        disposers.push(stop, off)
      }),
    )
  }

  /** Compaction's brackets (log events `@tack/compaction` declares): a pause a person should understand. */
  function onCompaction(e: SessionEvent): void {
    const data = e.data as { pressure?: number; ok?: boolean; error?: string }
    if ((e.type as string) === 'compact/start') {
      waiting = undefined
      line(s.dim(`compacting the session (about ${data.pressure} tokens): summarising its older part…`))
    } else if ((e.type as string) === 'compact/end') {
      if (data.ok) line(s.dim('compacted: the older part is now a summary'))
      else line(s.yellow(`compaction failed: ${firstLine(data.error ?? 'unknown error')}`))
    }
  }

  function onEvent(e: SessionEvent): void {
    if ((e.type as string).startsWith('compact/')) {
      onCompaction(e)
      return
    }
    switch (e.type) {
      case 'step/start': {
        const data = e.data as { step: number }
        waiting = { step: data.step, since: now() }
        break
      }
      case 'assistant/message':
        waiting = undefined
        break
      case 'tool/call': {
        const data = e.data as { callId: string; name: string; arguments: string }
        running.set(data.callId, { label: label(data.name, data.arguments), started: now() })
        break
      }
      case 'tool/result': {
        const data = e.data as {
          callId: string
          name: string
          isError: boolean
          error?: { code: string; message?: string }
        }
        const call = running.get(data.callId)
        running.delete(data.callId)
        reportResult(data, call?.label ?? data.name, call, '')
        break
      }
      case 'tool/code-dispatch': {
        // A run_code program's sub-call (TL-27): shown under its run_code call, denials always.
        const data = e.data as SessionEventMap['tool/code-dispatch']
        const what = label(data.name, JSON.stringify(data.arguments))
        const parent = running.get(data.parentCallId)
        if (parent) running.set(data.parentCallId, { ...parent, sub: what })
        if (data.errorCode === 'DENIED')
          line(s.yellow(`denied: ${what} — ${firstLine(data.resultSummary || 'denied')}`))
        else if (!sink.live) {
          if (data.isError)
            line(`  ↳ ${s.red('✗')} ${what} — ${data.errorCode ?? 'error'}: ${firstLine(data.resultSummary)}`)
          else line(`  ↳ ${s.green('✓')} ${what}`)
        }
        break
      }
      case 'turn/end':
        waiting = undefined
        running.clear()
        sink.status(undefined)
        return
      default:
        return
    }
    redraw()
  }

  function onRetry(info: RetryInfo): void {
    const text = `model request failed (${firstLine(info.error)}); attempt ${info.attempt + 1}`
    if (sink.live) {
      retry = { text, until: now() + info.delayMs }
      redraw()
    } else line(s.yellow(`${text} in ${formatMs(info.delayMs)}`))
  }

  /** -v: each request's size when sent, and how long the model took to finish it. */
  async function measure(request: LlmRequest, next: () => Promise<LlmResponse>): Promise<LlmResponse> {
    const n = ++requests
    const started = now()
    const bytes = Buffer.byteLength(
      JSON.stringify({ system: request.system, tools: request.tools, messages: request.messages }),
    )
    const size = `${formatBytes(bytes)}, ${plural(request.messages.length, 'message')}, ${plural(request.tools?.length ?? 0, 'tool')}`
    const response = await next()
    response.final.then(
      (final) =>
        line(
          s.dim(
            `request ${n} (${request.config.model}): ${size} → ${final.finishReason} in ${formatMs(now() - started)}${final.usage ? `, ${final.usage.inputTokens} in / ${final.usage.outputTokens} out tokens` : ''}`,
          ),
        ),
      (error: unknown) =>
        line(
          s.dim(
            `request ${n} (${request.config.model}): ${size} → failed after ${formatMs(now() - started)}: ${firstLine(String((error as Error)?.message ?? error))}`,
          ),
        ),
    )
    return response
  }

  return {
    attach(ctx, session) {
      tools = ctx.get('tools') as ToolRegistry | undefined
      if (opts.progress) {
        followed.add(session)
        followChildren(ctx)
        disposers.push(session.subscribe(onEvent))
        disposers.push(ctx.on('llm/retry', onRetry))
      }
      if (opts.verbose)
        disposers.push(ctx.on('llm/stream', (request, _signal, next) => measure(request, next)))
      if (sink.live && opts.progress) {
        timer = setInterval(redraw, TICK_MS)
        timer.unref()
      }
    },
    diagnostic(text) {
      if (opts.verbose) line(s.dim(text))
    },
    finish() {
      if (timer) clearInterval(timer)
      timer = undefined
      for (const dispose of disposers.splice(0)) dispose()
      sink.clear()
    },
  }
}

/**
 * A call as one short line: the command it runs, a tool's own title (`Read src/a.ts`), its name and key
 * argument, else its name and arguments.
 */
export function describeCall(
  name: string,
  rawArguments: string,
  shown: CallPresentation | undefined,
): string {
  const command = shown?.intents.find((intent) => intent.kind === 'command')
  if (command) return `${name}: ${withLineCount(command.command)}`
  if (shown && shown.title !== name) return withLineCount(shown.title)
  if (shown?.keyArgument) return `${name} ${withLineCount(shown.keyArgument)}`
  const args = rawArguments.trim()
  return args && args !== '{}' ? `${name} ${args}` : name
}

/**
 * A command's first line, and how many more it has — `git status (+1 more line)` — so a second command
 * cannot run behind a harmless first one unseen.
 */
function withLineCount(text: string): string {
  const lines = text.split('\n').filter((l) => l.trim() !== '')
  const more = lines.length - 1
  return more > 0
    ? `${firstLine(lines[0] ?? '')} (+${more} more line${more === 1 ? '' : 's'})`
    : firstLine(text.trim())
}

/** The first line of a message (a tool's error, hook or provider text), cut, its control characters escaped. */
function firstLine(text: string): string {
  const line = printable(text.split('\n', 1)[0] ?? '')
  return line.length > 200 ? `${line.slice(0, 199)}…` : line
}

const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`

export function formatMs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`
}

export function formatBytes(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KB`
}
