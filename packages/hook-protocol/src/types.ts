// The vocabulary shared by both hook dialects (40-hooks.md Part A): what a hook is, what running one
// yields, and the dialect that decides how its output is read.

/** The bridge that ran the hook; decides stdin framing, output decoding and matcher syntax. */
export type HookDialect = 'claude' | 'codex'

/**
 * Both protocols' default per-hook timeout (600 s). Applied inside `runHook`; a hook's own `timeout`
 * (seconds) overrides it. Bridges have no timeout setting of their own.
 */
export const DEFAULT_HOOK_TIMEOUT_MS = 600_000

/** One command hook as both dialects write it (the bridge has substituted any `${…}` already). */
export interface HookCommand {
  /** Shell form: a `bash -c` script. Exec form (with `args`): the program, quoted as one word. */
  readonly command: string
  /** Exec form: each argument is passed as one word. */
  readonly args?: readonly string[]
  /** Seconds; a positive finite number overrides `DEFAULT_HOOK_TIMEOUT_MS`, anything else is ignored. */
  readonly timeout?: number
}

/** A decision a hook's output carries (top-level `approve | block`, or `permissionDecision`). */
export type HookDecision = 'approve' | 'block' | 'allow' | 'deny' | 'ask'

/**
 * What one hook run yields, decoded for its dialect and event. `stdout`/`stderr` are trimmed; `json`
 * says stdout was decoded as a JSON object. A run that timed out, was aborted, could not start, or
 * whose output the dialect calls a failure is `failed` and carries no decision.
 */
export interface HookOutput {
  /** The process's exit code; absent when it never ran or a signal ended it. */
  readonly exitCode?: number
  /** The signal that ended the process, if one did. */
  readonly signal?: string
  readonly failed: boolean
  /** Why it failed, in a few words (`exit 1`, `timed out after 5000 ms`, `spawn: ENOENT …`). */
  readonly failure?: string
  readonly timedOut?: true
  readonly aborted?: true
  /** Output beyond the backend's per-stream limit was dropped (the tail is kept). */
  readonly truncated?: true
  readonly stdout: string
  readonly stderr: string
  readonly json: boolean
  readonly decision?: HookDecision
  readonly reason?: string
  /** `hookSpecificOutput.hookEventName`, always captured when it is a string. */
  readonly hookEventName?: string
  readonly additionalContext?: string
  readonly updatedInput?: Readonly<Record<string, unknown>>
  readonly systemMessage?: string
  readonly continue?: boolean
  readonly stopReason?: string
  /**
   * JSON keys present in the output that the codec does not interpret (dotted, e.g.
   * `hookSpecificOutput.updatedToolOutput`), so a bridge can log and warn about them.
   */
  readonly unsupported?: readonly string[]
  /** The decoded JSON object, for dialect-specific fields a bridge reads itself. */
  readonly raw?: Readonly<Record<string, unknown>>
}

/** A process result as the codec reads it. */
export interface RawHookResult {
  /** Null when a signal ended the process. */
  readonly exitCode: number | null
  readonly stdout: string
  readonly stderr: string
  readonly signal?: string | null
}
