// What `tack run` tells a person on stderr while a turn runs (issue 10 item 3): the current tool and its
// key argument, waits for the model, retries with their wait, permission denials; with -v also each
// model request's size and timing. Built as a listener on the session log and on seams (`llm/retry`,
// `llm/stream`), never as an edit to the loop: the reporter only watches. Failures stay visible
// (docs/decisions/0310-failures-stay-visible.md): on a terminal too, a failed call keeps its line, with
// the tail of a failed command's output under it, and the run ends with a summary line.
import type { LlmRequest, LlmResponse } from '@tack/agent'
import type { RetryInfo } from '@tack/llm'
import type { Session, SessionEvent, SessionEventMap } from '@tack/session'
import type {} from '@tack/subagent' // the subagent/start and subagent/end seams
import type { CallPresentation, ToolRegistry } from '@tack/tools'
import type { Context } from 'cordis'
import { printable } from '../printable.ts'
import { failureText, firstLine, outputTail } from './failure.ts'
import { type CallCounts, type RunSummary, summaryText } from './summary.ts'
import type { StatusSink, Styles } from './status-line.ts'

export interface ReporterOptions {
  readonly sink: StatusSink
  readonly styles: Styles
  /** -v: also request sizes and timings. */
  readonly verbose: boolean
  /** Tool calls, waits, retries and denials (off with --json, whose stdout already records them). */
  readonly progress: boolean
  /** Last lines of a failed command's output shown under its line (`plugins.run.failureTailLines`). */
  readonly failureTailLines: number
  /** Whether `summary` prints: on a terminal, and with -v anywhere (`plugins.run.summary`). */
  readonly summary: boolean
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
  /** The run's closing line (calls counted by the reporter), when configured and wanted here. */
  summary(info: Omit<RunSummary, 'counts'>): void
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
  /** Every finished call the reporter saw: the run's, its subagents' and its programs' sub-calls. */
  const counts: CallCounts = { calls: 0, failed: 0, denied: 0 }

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

  type ResultData = {
    name: string
    isError: boolean
    error?: { code: string; message?: string }
    meta?: unknown
  }

  /** Every call's line off a terminal, and with -v on one; a failure's and a denial's always. */
  const everyCall = () => !sink.live || opts.verbose

  /**
   * A finished call: its line when `everyCall` or it failed, a denial always, and under a failed
   * command its output's last lines. `where` marks a subagent's call and a program's sub-call.
   */
  function reportResult(
    data: ResultData,
    what: string,
    call: Running | undefined,
    where: '' | 'child' | 'dispatch',
  ): void {
    counts.calls++
    const took = call ? ` ${s.dim(`(${formatMs(now() - call.started)})`)}` : ''
    const lead = where === '' ? '' : '  ↳ '
    if (data.error?.code === 'DENIED') {
      counts.denied++
      // A denial changes what the agent could do: a person must see it, terminal or not.
      const inChild = where === 'child' ? ' (in the subagent)' : ''
      line(s.yellow(`denied: ${what}${inChild} — ${firstLine(data.error.message ?? 'denied')}`))
    } else if (data.isError) {
      counts.failed++
      // under its call's text: past the `↳ ` of an inner call
      const indent = where === '' ? '    ' : '        '
      const tail = outputTail(data, opts.failureTailLines).map((t) => `tack: ${indent}${s.dim(`│ ${t}`)}`)
      // one write: the live line is redrawn once below the whole block, not between its lines
      sink.line([`tack: ${lead}${s.red('✗')} ${what}${took} — ${failureText(data)}`, ...tail].join('\n'))
    } else if (everyCall()) line(`${lead}${s.green('✓')} ${what}${took}`)
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
          meta?: unknown
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
        // The log keeps a summary of the sub-call's result, not its meta: its first line is the error.
        reportResult(
          {
            name: data.name,
            isError: data.isError,
            ...(data.isError || data.errorCode
              ? {
                  error: {
                    code: data.errorCode ?? 'error',
                    ...(data.resultSummary ? { message: data.resultSummary } : {}),
                  },
                }
              : {}),
          },
          what,
          undefined,
          'dispatch',
        )
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
    summary(info) {
      if (opts.progress && opts.summary && (sink.live || opts.verbose))
        line(s.dim(summaryText({ ...info, counts })))
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

const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`

export function formatMs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`
}

export function formatBytes(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KB`
}
