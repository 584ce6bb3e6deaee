// The messages between the host (sandbox-worker.ts, on tack's main thread) and the thread that runs
// QuickJS (isolate-worker.ts). The isolate runs off the main thread so that a busy guest — `while
// (true) {}` — never blocks the event loop: Ctrl-C, Esc, SIGTERM and an ACP cancel are still seen, and
// the abort reaches the guest through a shared flag its interrupt handler reads
// (docs/decisions/0150-code-mode-off-thread.md).
import type { BindingOutcome, CodeRunBudgets, CodeRunOutcome } from '@tack/tools'
import type { PreludeTool } from './prelude.ts'

/** Main thread → worker. */
export type ToWorker =
  /** Prepare an isolate now, so the first run starts warm. */
  | { readonly type: 'warm'; readonly memoryBytes: number }
  /**
   * Start one run. `abortFlag` is shared memory: the host stores 1 at index 0 on abort, and the
   * guest's interrupt handler reads it — the one signal that reaches a guest that never yields.
   */
  | {
      readonly type: 'run'
      readonly code: string
      readonly tools: readonly PreludeTool[]
      readonly budgets: CodeRunBudgets
      readonly abortFlag: Int32Array
    }
  /** A `tools.<name>` call of the current run settled. */
  | { readonly type: 'settled'; readonly callId: number; readonly outcome: BindingOutcome }
  /** The run was aborted: wakes a guest that is waiting on a tool (the flag stops a running one). */
  | { readonly type: 'abort' }

/** Worker → main thread. */
export type FromWorker =
  | { readonly type: 'call'; readonly callId: number; readonly name: string; readonly json: string }
  | { readonly type: 'done'; readonly outcome: CodeRunOutcome }

/** The value `abortFlag[0]` holds once the run is aborted. */
export const ABORTED = 1
