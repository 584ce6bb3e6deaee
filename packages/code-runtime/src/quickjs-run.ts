// One Code Mode run in a fresh QuickJS instance, runtime and context (TL-23, TL-30): its own heap
// with a hard maximum (isolate-pool.ts), memory limit and interrupt handler, all dropped when the run
// ends, so nothing a program does outlives it.
import type { BindingOutcome, CodeRunBudgets, CodeRunOutcome, CodeRunRequest } from '@tack/tools'
import type {
  QuickJSContext,
  QuickJSDeferredPromise,
  QuickJSHandle,
  QuickJSRuntime,
} from 'quickjs-emscripten-core'
import { INTERRUPTED, INTERRUPTED_BEFORE_START } from './aborted.ts'
import { cutNote, describeThrown, lengthOf, type Thrown } from './guest-values.ts'
import { type Isolate, takeIsolate } from './isolate-pool.ts'
import { HOST_CALL, HOST_LOG, preludeSource, preludeTools, RUNNER } from './prelude.ts'
import { stripProgram } from './strip.ts'

/** Below the QuickJS build's WebAssembly stack, so deep recursion is a guest `InternalError`. */
const GUEST_STACK_BYTES = 512 * 1024

/** Room past maxLogBytes for the prelude's cut note and multi-byte characters near the cut. */
const LOG_SLACK = 256

type Failure = Extract<CodeRunOutcome, { ok: false }>
type StopReason = 'compute' | 'wall' | 'aborted'

export interface RunProgramOptions {
  /**
   * Polled by the interrupt handler, from inside the guest: true once the run is aborted. A guest that
   * never yields never lets `request.signal`'s listeners run on its own thread; a flag in shared memory
   * set by another thread still reaches it (isolate-worker.ts).
   */
  readonly interrupted?: () => boolean
}

export async function runProgram(
  request: CodeRunRequest,
  budgets: CodeRunBudgets,
  options: RunProgramOptions = {},
): Promise<CodeRunOutcome> {
  const stripped = stripProgram(request.code, RUNNER)
  if (!stripped.ok)
    return { ok: false, kind: 'compile', message: cutText(stripped.message, budgets.maxLogBytes), logs: '' }
  if (request.signal.aborted)
    return { ok: false, kind: 'aborted', message: INTERRUPTED_BEFORE_START, logs: '' }
  const isolate = await takeIsolate(budgets.memoryBytes)
  const run = new GuestRun(isolate, request, budgets, options)
  try {
    return await run.execute(stripped.js)
  } catch (error) {
    // The instance itself failed (a WebAssembly trap, an emscripten abort, a stack overflow the guest
    // check missed); it is dropped with the run, so the failure is this program's alone.
    if (heapExhausted(isolate, budgets)) return outOfMemory(budgets, '')
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
    return {
      ok: false,
      kind: 'runtime',
      message: `the sandbox stopped: ${cutText(message, budgets.maxLogBytes)}`,
      logs: '',
    }
  } finally {
    run.dispose()
  }
}

/**
 * Whether the run filled its heap. WebAssembly memory only grows, and only when an allocation needs
 * it, so a heap within a tenth of `memoryBytes` means the program did reach its budget. It tells an
 * out-of-memory that QuickJS could not even turn into an error (it then throws `null`, or the instance
 * aborts) from a program's own `throw null`.
 */
function heapExhausted(isolate: Isolate, budgets: CodeRunBudgets): boolean {
  return isolate.memory.buffer.byteLength >= budgets.memoryBytes * FULL_HEAP
}

/** The share of `memoryBytes` a heap must have reached to count as full (a bomb measured 95–100 %). */
const FULL_HEAP = 0.9

function outOfMemory(budgets: CodeRunBudgets, logs: string): Failure {
  return {
    ok: false,
    kind: 'memory',
    message: `the program ran out of memory (limit ${budgets.memoryBytes} bytes)`,
    logs,
  }
}

/** A host-side text (an error from the instance, the stripper's message) cut like the guest's. */
function cutText(text: string, max: number): string {
  return text.length <= max ? text : cutNote(text.slice(0, max), text.length, max, 'message')
}

class GuestRun {
  private readonly runtime: QuickJSRuntime
  private readonly context: QuickJSContext
  private readonly startedAt = performance.now()
  private computeUsed = 0
  private enteredAt: number | undefined
  private stopped: StopReason | undefined
  private readonly logs: string[] = []
  private logBytes = 0
  private readonly waiting = new Set<QuickJSDeferredPromise>()
  private wake: (() => void) | undefined
  /** A tool call settled since the last wait: its guest jobs are pending. */
  private woken = false
  private disposed = false
  private readonly request: CodeRunRequest
  private readonly budgets: CodeRunBudgets
  private readonly interrupted: () => boolean

  private readonly isolate: Isolate

  constructor(
    isolate: Isolate,
    request: CodeRunRequest,
    budgets: CodeRunBudgets,
    options: RunProgramOptions,
  ) {
    this.request = request
    this.budgets = budgets
    this.interrupted = options.interrupted ?? (() => false)
    this.isolate = isolate
    this.runtime = isolate.qjs.newRuntime()
    this.runtime.setMemoryLimit(budgets.memoryBytes)
    // QuickJS's own stack check must trip before the WebAssembly stack overflows (a host RangeError).
    this.runtime.setMaxStackSize(GUEST_STACK_BYTES)
    this.runtime.setInterruptHandler(() => this.shouldStop())
    this.context = this.runtime.newContext()
    this.installHostFunctions()
  }

  async execute(js: string): Promise<CodeRunOutcome> {
    const prelude = this.guest(() =>
      this.context.evalCode(preludeSource(preludeTools(this.request), this.budgets.maxLogBytes)),
    )
    if (prelude.error) return this.failure(prelude.error, 'runtime')
    prelude.value.dispose()
    const main = this.guest(() => this.context.evalCode(js, 'program.ts'))
    if (main.error) return this.failure(main.error, 'compile')
    const promise = main.value
    try {
      for (;;) {
        const jobs = this.guest(() => this.runtime.executePendingJobs())
        if (jobs.error) return this.failure(jobs.error, 'runtime')
        if (this.request.signal.aborted) return this.stopFailure('aborted')
        // Let tool calls the program just issued start before deciding anything: a program that
        // fires a call and returns must see that call dispatched, then aborted, not silently dropped.
        if (this.waiting.size > 0) await new Promise((resolve) => setImmediate(resolve))
        if (this.woken) {
          // A call settled meanwhile: run the guest code waiting on it first.
          this.woken = false
          continue
        }
        const state = this.context.getPromiseState(promise)
        if (state.type === 'fulfilled') {
          const returned = this.readReturned(state.value)
          state.value.dispose()
          return { ok: true, logs: this.logText(), ...(returned !== undefined ? { returned } : {}) }
        }
        if (state.type === 'rejected') return this.failure(state.error, 'runtime')
        if (this.stopped) return this.stopFailure(this.stopped)
        if (this.waiting.size === 0)
          return this.fail(
            'runtime',
            'the program is waiting on a promise that nothing can settle (no tool call is in flight)',
          )
        const reason = await this.waitForHost()
        if (reason) return this.stopFailure(reason)
      }
    } finally {
      promise.dispose()
    }
  }

  dispose(): void {
    this.disposed = true
    this.wake?.()
    for (const deferred of this.waiting) deferred.dispose()
    this.waiting.clear()
    // After an out-of-memory the heap may be inconsistent; a failed teardown must not hide the result.
    try {
      this.context.dispose()
      this.runtime.dispose()
    } catch {}
  }

  private installHostFunctions(): void {
    const { context } = this
    context
      .newFunction(HOST_CALL, (nameHandle, jsonHandle) => {
        const name = context.getString(nameHandle)
        const json = context.getString(jsonHandle)
        const deferred = context.newPromise()
        this.waiting.add(deferred)
        void this.dispatch(name, json).then((outcome) => {
          if (this.disposed) return
          this.waiting.delete(deferred)
          const text = context.newString(JSON.stringify(outcome))
          deferred.resolve(text)
          text.dispose()
          deferred.dispose()
          this.woken = true
          this.wake?.()
        })
        return deferred.handle
      })
      .consume((fn) => context.setProp(context.global, HOST_CALL, fn))
    context
      .newFunction(HOST_LOG, (lineHandle) => {
        // Read the length first: a program calling the raw function directly must not make the host
        // copy a 100 MB string out of the isolate.
        // The prelude counts characters and adds a cut note; the slack lets that note through.
        const length = lengthOf(context, lineHandle)
        if (!(length <= this.budgets.maxLogBytes + LOG_SLACK - this.logBytes)) return
        const line = context.getString(lineHandle)
        this.logBytes += Buffer.byteLength(line) + 1
        this.logs.push(line)
      })
      .consume((fn) => context.setProp(context.global, HOST_LOG, fn))
  }

  private async dispatch(name: string, json: string): Promise<BindingOutcome> {
    const binding = Object.hasOwn(this.request.bindings, name) ? this.request.bindings[name] : undefined
    if (!binding) return { ok: false, code: 'UNKNOWN_TOOL', message: `no tool named "${name}"` }
    try {
      return await binding(json)
    } catch (error) {
      return {
        ok: false,
        code: 'TOOL_FAILED',
        message: error instanceof Error ? error.message : String(error),
      }
    }
  }

  /** Runs guest code, counting its time against `computeMs` (waits on tools are not counted). */
  private guest<T>(fn: () => T): T {
    this.enteredAt = performance.now()
    try {
      return fn()
    } finally {
      this.computeUsed += performance.now() - this.enteredAt
      this.enteredAt = undefined
    }
  }

  private shouldStop(): boolean {
    if (this.stopped) return true
    const now = performance.now()
    if (this.request.signal.aborted || this.interrupted()) this.stopped = 'aborted'
    else if (now - this.startedAt > this.budgets.maxWallMs) this.stopped = 'wall'
    else if (
      this.computeUsed + (this.enteredAt === undefined ? 0 : now - this.enteredAt) >
      this.budgets.computeMs
    )
      this.stopped = 'compute'
    return this.stopped !== undefined
  }

  /** Resolves when a tool call settles (undefined) or the run must stop (the reason). */
  private waitForHost(): Promise<StopReason | undefined> {
    if (this.woken) {
      this.woken = false
      return Promise.resolve(undefined)
    }
    const { signal } = this.request
    const remaining = this.budgets.maxWallMs - (performance.now() - this.startedAt)
    return new Promise((resolve) => {
      const done = (reason: StopReason | undefined) => {
        this.woken = false
        clearTimeout(timer)
        signal.removeEventListener('abort', onAbort)
        this.wake = undefined
        resolve(reason)
      }
      const onAbort = () => done('aborted')
      const timer = setTimeout(() => done('wall'), Math.max(0, remaining))
      signal.addEventListener('abort', onAbort, { once: true })
      this.wake = () => done(undefined)
      if (signal.aborted) onAbort()
    })
  }

  private readReturned(handle: QuickJSHandle): string | undefined {
    if (this.context.typeof(handle) !== 'string') return undefined
    const length = lengthOf(this.context, handle)
    // The prelude cuts the JSON at maxLogBytes characters; a program that replaced the runner does not
    // get to make the host copy more than twice that.
    if (!(length <= this.budgets.maxLogBytes * 2)) return JSON.stringify('[returned value too large]')
    return this.context.getString(handle)
  }

  private failure(errorHandle: QuickJSHandle, fallback: 'compile' | 'runtime'): Failure {
    // A stopped run's guest would be interrupted at once while its error is read: decide first.
    if (this.request.signal.aborted || this.interrupted()) {
      errorHandle.dispose()
      return this.stopFailure('aborted')
    }
    if (this.stopped) {
      errorHandle.dispose()
      return this.stopFailure(this.stopped)
    }
    // Reading it calls into the guest (a `message` getter, a `toJSON`, a replaced `slice`): guest time,
    // counted against computeMs, and a run stopped meanwhile (budget or abort) is that stop.
    const error = this.guest(() => this.describe(errorHandle))
    errorHandle.dispose()
    if (this.request.signal.aborted || this.interrupted()) return this.stopFailure('aborted')
    if (this.stopped) return this.stopFailure(this.stopped)
    if (/out of memory/i.test(error.message) || (error.empty && heapExhausted(this.isolate, this.budgets)))
      return outOfMemory(this.budgets, this.logText())
    if (/string too long/i.test(error.message))
      return this.fail(
        'memory',
        'the program built a string longer than QuickJS allows (2^30 - 1 characters)',
      )
    const kind = fallback === 'compile' && error.name === 'SyntaxError' ? 'compile' : 'runtime'
    return this.fail(kind, error.name ? `${error.name}: ${error.message}` : error.message)
  }

  private describe(handle: QuickJSHandle): Thrown {
    try {
      return describeThrown(this.context, handle, this.budgets.maxLogBytes)
    } catch {
      // The isolate could not even describe its error: it is out of memory.
      return { name: 'InternalError', message: 'out of memory', empty: false }
    }
  }

  private stopFailure(reason: StopReason): Failure {
    switch (reason) {
      case 'aborted':
        return this.fail('aborted', INTERRUPTED)
      case 'wall':
        return this.fail('timeout', `the run took longer than maxWallMs (${this.budgets.maxWallMs} ms)`)
      case 'compute':
        return this.fail(
          'timeout',
          `the program computed for longer than computeMs (${this.budgets.computeMs} ms)`,
        )
    }
  }

  private fail(kind: Failure['kind'], message: string): Failure {
    return { ok: false, kind, message, logs: this.logText() }
  }

  private logText(): string {
    return this.logs.join('\n')
  }
}
