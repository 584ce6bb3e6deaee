// The bridge between a run_code program and the tools (TL-24 to TL-28). Every `tools.<name>(args)` of
// one run joins a FIFO queue and is dispatched one at a time in issue order — even under
// `Promise.all` — through `ctx.tools.execute`, so permissions, hooks and every other seam see a
// sub-call exactly as they see a model's call. The run owns an abort controller: when the program
// settles, the in-flight call is aborted, queued ones are abandoned, and `close()` resolves only once
// the queue is empty, so nothing is dispatched after run_code's result.
import { contentText } from '@tack/session'
import type { ToolCallContext, ToolExecutionResult, ToolRegistry } from '../types.ts'
import { loggedArguments } from './logged-arguments.ts'
import type { BindingOutcome, CodeBinding } from './runtime.ts'

export interface DispatchOptions {
  readonly tools: Pick<ToolRegistry, 'execute'>
  /** The run_code call the sub-calls belong to. */
  readonly parent: ToolCallContext
  /** Cap of `resultSummary` on `tool/code-dispatch` events. */
  readonly summaryMaxChars: number
  /** Cap of the argument's JSON on `tool/code-dispatch` events (logged-arguments.ts). */
  readonly argumentsMaxChars: number
}

export class CodeDispatch {
  readonly #options: DispatchOptions
  readonly #controller = new AbortController()
  #tail: Promise<unknown> = Promise.resolve()
  #dispatched = 0
  readonly #unfollow: () => void

  constructor(options: DispatchOptions) {
    this.#options = options
    const outer = options.parent.signal
    const follow = () => this.#controller.abort(outer.reason)
    if (outer.aborted) follow()
    else outer.addEventListener('abort', follow, { once: true })
    this.#unfollow = () => outer.removeEventListener('abort', follow)
  }

  /** The run's signal: follows the outer one, and fires when the run settles. */
  get signal(): AbortSignal {
    return this.#controller.signal
  }

  /** How many sub-calls were dispatched (each has one `tool/code-dispatch` event). */
  get dispatched(): number {
    return this.#dispatched
  }

  binding(name: string): CodeBinding {
    return (argumentsJson) => this.#enqueue(name, argumentsJson)
  }

  /** Ends the run: aborts the in-flight call, abandons queued ones, and waits for the queue to drain. */
  async close(): Promise<void> {
    this.#controller.abort(new Error('the run_code program settled'))
    this.#unfollow()
    await this.#tail
  }

  #enqueue(name: string, argumentsJson: string): Promise<BindingOutcome> {
    const turn = this.#tail.then(() => this.#dispatch(name, argumentsJson))
    // A failed call must not stall the queue (TL-25); #dispatch never rejects, but be sure.
    this.#tail = turn.catch(() => undefined)
    return turn
  }

  async #dispatch(name: string, argumentsJson: string): Promise<BindingOutcome> {
    if (this.#controller.signal.aborted)
      return { ok: false, code: 'ABORTED', message: 'the run ended before this call was dispatched' }
    const { tools, parent } = this.#options
    const subCallId = `${parent.callId}:code:${++this.#dispatched}`
    // TL-24: the isolate serialised the argument; the text is dispatched as the call's raw arguments
    // and parsed separately for the log, so what was logged is what ran (or, past the cap, its size
    // and SHA-256).
    const logged = loggedArguments(argumentsJson, this.#options.argumentsMaxChars)
    const result = await tools.execute({
      callId: subCallId,
      name,
      rawArguments: argumentsJson,
      ...(parent.agent ? { agent: parent.agent } : {}),
      cwd: parent.cwd,
      signal: this.#controller.signal,
    })
    const text = textOf(result)
    parent.agent?.session.append('tool/code-dispatch', {
      parentCallId: parent.callId,
      subCallId,
      name,
      arguments: logged.arguments,
      ...(logged.omitted ? { argumentsOmitted: logged.omitted } : {}),
      isError: result.isError,
      ...(result.isError ? { errorCode: result.error?.code ?? 'TOOL_FAILED' } : {}),
      resultSummary: summary(text, this.#options.summaryMaxChars),
    })
    // A sub-call's additionalContext is dropped (TL-26): mid-program there is no place for it that
    // keeps the log's message order, and the program sees the result itself.
    if (!result.isError) return { ok: true, text }
    return {
      ok: false,
      code: result.error?.code ?? 'TOOL_FAILED',
      message: text || result.error?.message || '',
    }
  }
}

/** The words a program gets; an image is its note (a program gets text, not images: docs/decisions/0255-image-content.md). */
function textOf(result: ToolExecutionResult): string {
  return contentText(result.content)
}

function summary(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… [${text.length - max} more characters]`
}
