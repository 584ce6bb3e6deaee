// Runs Code Mode programs on a worker thread (docs/decisions/0150-code-mode-off-thread.md). On the main
// thread a guest that never yields held the event loop, so Ctrl-C, Esc, SIGTERM and an ACP cancel
// were not seen until `computeMs` ran out. Here the main thread stays free: an abort stores a flag in
// shared memory that the guest's interrupt handler reads at its next check, and a guest stuck in one
// long built-in call that never reaches a check is ended by terminating its thread after `stopGraceMs`.
// One idle worker is kept (with its spare isolate) so the next run starts warm; a run that finds it busy
// gets a thread of its own.
import { Worker } from 'node:worker_threads'
import type { CodeRunBudgets, CodeRunOutcome, CodeRunRequest } from '@tack/tools'
import { INTERRUPTED, INTERRUPTED_BEFORE_START } from './aborted.ts'
import { ABORTED, type FromWorker, type ToWorker } from './worker-protocol.ts'
import { preludeTools } from './prelude.ts'

export interface WorkerRunOptions {
  /** After an abort, how long the guest may take to stop before its thread is terminated. */
  readonly stopGraceMs: number
}

// The build renames src/*.ts to build/*.js; this module's own extension says which one is running.
const ENTRY = new URL(`./isolate-worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url)

let idle: Worker | undefined

function spawnWorker(): Worker {
  const worker = new Worker(ENTRY, { name: 'tack-code-runtime' })
  // An idle worker whose thread fails is dropped; the next run starts a new one.
  const drop = () => {
    if (idle === worker) idle = undefined
  }
  worker.on('error', drop)
  worker.on('exit', drop)
  worker.unref()
  return worker
}

function post(worker: Worker, message: ToWorker): void {
  worker.postMessage(message)
}

function takeWorker(): Worker {
  const worker = idle ?? spawnWorker()
  idle = undefined
  return worker
}

function release(worker: Worker): void {
  worker.unref()
  if (idle) void worker.terminate()
  else idle = worker
}

/** Starts the thread and its spare isolate now, so the first run starts warm. */
export function warmWorker(memoryBytes: number): void {
  idle ??= spawnWorker()
  post(idle, { type: 'warm', memoryBytes })
}

const failed = (kind: 'aborted' | 'runtime', message: string): CodeRunOutcome => ({
  ok: false,
  kind,
  message,
  logs: '',
})

export function runInWorker(
  request: CodeRunRequest,
  budgets: CodeRunBudgets,
  options: WorkerRunOptions,
): Promise<CodeRunOutcome> {
  const { signal } = request
  if (signal.aborted) return Promise.resolve(failed('aborted', INTERRUPTED_BEFORE_START))
  const worker = takeWorker()
  const abortFlag = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT))
  return new Promise<CodeRunOutcome>((resolve) => {
    let settled = false
    let backstop: NodeJS.Timeout | undefined
    const finish = (outcome: CodeRunOutcome, reusable: boolean) => {
      if (settled) return
      settled = true
      clearTimeout(backstop)
      signal.removeEventListener('abort', onAbort)
      worker.off('message', onMessage)
      worker.off('error', onError)
      worker.off('exit', onExit)
      if (reusable) release(worker)
      else void worker.terminate()
      resolve(outcome)
    }
    const onMessage = (message: FromWorker) => {
      switch (message.type) {
        case 'call': {
          const binding = Object.hasOwn(request.bindings, message.name)
            ? request.bindings[message.name]
            : undefined
          const outcome = binding
            ? binding(message.json)
            : Promise.resolve({
                ok: false as const,
                code: 'UNKNOWN_TOOL',
                message: `no tool named "${message.name}"`,
              })
          void outcome.then((o) => {
            if (!settled) post(worker, { type: 'settled', callId: message.callId, outcome: o })
          })
          return
        }
        case 'done':
          finish(message.outcome, true)
          return
      }
    }
    const onError = (error: Error) =>
      finish(failed('runtime', `the sandbox stopped: ${error.message}`), false)
    const onExit = (code: number) =>
      finish(failed('runtime', `the sandbox thread exited (code ${code})`), false)
    const onAbort = () => {
      Atomics.store(abortFlag, 0, ABORTED)
      post(worker, { type: 'abort' })
      backstop = setTimeout(
        () =>
          finish(
            failed(
              'aborted',
              `${INTERRUPTED}; it did not stop within stopGraceMs (${options.stopGraceMs} ms), so its sandbox thread was terminated`,
            ),
            false,
          ),
        options.stopGraceMs,
      )
    }
    worker.on('message', onMessage)
    worker.on('error', onError)
    worker.on('exit', onExit)
    signal.addEventListener('abort', onAbort, { once: true })
    // A run in progress keeps the process alive, as an in-thread run's pending promise did.
    worker.ref()
    post(worker, {
      type: 'run',
      code: request.code,
      tools: preludeTools(request),
      budgets,
      abortFlag,
    })
  })
}
