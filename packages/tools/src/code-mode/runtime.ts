// The contract between Code Mode (run_code, in this package) and a code runtime that runs the program
// (TL-23, TL-30). The runtime lives in its own package (@tack/code-runtime) so the registry carries no
// WebAssembly; it mounts as `ctx.codeRuntime`, and without it a non-native mode fails loudly (TL-20).
import type { CodeRunFailureKind } from '../errors.ts'

/** Limits of one run (TL-30). */
export interface CodeRunBudgets {
  /** Guest execution time, excluding waits on tools. */
  readonly computeMs: number
  /** Wall-clock time of the whole run, waits included. */
  readonly maxWallMs: number
  /** The isolate's memory limit. */
  readonly memoryBytes: number
  /** Captured console output, and separately the returned value's JSON, are cut at this many bytes. */
  readonly maxLogBytes: number
}

/** How a sub-call ended, as the guest's `tools.*` promise sees it (TL-26). */
export type BindingOutcome =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly code: string; readonly message: string }

/**
 * A host function behind `tools.<name>`: it gets the argument as JSON text serialised inside the
 * isolate (TL-24) and never rejects — a failure is an `ok: false` outcome the guest turns into a
 * `ToolCallError`.
 */
export type CodeBinding = (argumentsJson: string) => Promise<BindingOutcome>

/**
 * Where the program finds a binding in `tools`, and whether its text is handed over parsed as JSON (a
 * tool's `sdk` declaration, laid out by sdk-layout.ts). A binding without one is `tools.<name>`, text.
 */
export interface CodeBindingPlace {
  readonly path: readonly string[]
  readonly parseJson?: boolean
}

export interface CodeRunRequest {
  /** TypeScript, run as the body of an async function (top-level `await` and `return` allowed). */
  readonly code: string
  /** `tools.<name>` inside the program; nothing else from the host is reachable. */
  readonly bindings: Readonly<Record<string, CodeBinding>>
  /** By binding name: where `tools` holds it when not at `tools.<name>`. */
  readonly places?: Readonly<Record<string, CodeBindingPlace>>
  /** Aborting ends the run as `aborted`. */
  readonly signal: AbortSignal
  /** Overrides of the runtime's configured budgets (tests, benchmarks). */
  readonly budgets?: Partial<CodeRunBudgets>
}

export type CodeRunOutcome =
  | {
      readonly ok: true
      /** Captured console output, one line per call. */
      readonly logs: string
      /** JSON of the returned value; absent when the program returned nothing. */
      readonly returned?: string
    }
  | { readonly ok: false; readonly kind: CodeRunFailureKind; readonly message: string; readonly logs: string }

export interface CodeRuntime {
  readonly language: 'typescript'
  run(request: CodeRunRequest): Promise<CodeRunOutcome>
}

declare module 'cordis' {
  interface Context {
    /** Runs Code Mode programs (@tack/code-runtime); optional — without it `code`/`both` fail (TL-20). */
    codeRuntime: CodeRuntime
  }
}
