// Running one hook (40-hooks.md A1–A3): `bash -c` through the process runner (`@tack/process`) as a
// trusted caller (own process group, group kill on timeout or abort, bounded output; TL-33), with the
// payload on stdin and the dialect's environment added to tack's. Never throws: every fault is a
// `failed` output.
import {
  commandLine,
  type ProcessResult,
  quoteShellArg,
  spawnTrusted,
  type TrustedSpawnOptions,
} from '@tack/process'
import { decodeHookOutput } from './codec.ts'
import { DEFAULT_HOOK_TIMEOUT_MS, type HookCommand, type HookDialect, type HookOutput } from './types.ts'

/** How hooks are spawned: the trusted process runner, or one with other defaults (grace, output bound). */
export interface HookBackend {
  run(options: TrustedSpawnOptions): Promise<ProcessResult>
}

/** The trusted spawn with its defaults (3 s SIGTERM→SIGKILL grace, 1 MiB kept per stream). */
export const defaultHookBackend: HookBackend = { run: spawnTrusted }

/** A backend with a different grace or output bound (tests, embedders). */
export function createHookBackend(opts: { graceMs?: number; maxOutputBytes?: number }): HookBackend {
  return {
    run: (options) =>
      spawnTrusted({
        ...options,
        ...(opts.graceMs !== undefined ? { graceMs: opts.graceMs } : {}),
        ...(opts.maxOutputBytes !== undefined ? { maxOutputBytes: opts.maxOutputBytes } : {}),
      }),
  }
}

export interface RunHookOptions {
  readonly dialect: HookDialect
  /** The dialect's event name (`PreToolUse`, …): the codec discards JSON meant for another event. */
  readonly event: string
  /** Sent as compact JSON on stdin (`claude` adds a newline), then stdin closes. */
  readonly payload: unknown
  /** The dialect's variables, added over `baseEnv`. */
  readonly env?: Readonly<Record<string, string>>
  /** The environment the hook starts from; default tack's own `process.env` (no scrub: TL-33). */
  readonly baseEnv?: Readonly<Record<string, string | undefined>>
  /** The session workspace the bridge passes. */
  readonly cwd: string
  /** Aborting kills the hook's process group; the output is `{failed, aborted}`. */
  readonly signal?: AbortSignal
}

/** The timeout of `hook`: its own `timeout` (seconds) when positive and finite, else the default. */
export function hookTimeoutMs(hook: Pick<HookCommand, 'timeout'>): number {
  const t = hook.timeout
  return typeof t === 'number' && Number.isFinite(t) && t > 0 ? t * 1000 : DEFAULT_HOOK_TIMEOUT_MS
}

/** The `bash -c` script for `hook`: the shell form as written, or the exec form quoted word by word. */
export function hookCommandLine(hook: HookCommand): string {
  if (!Array.isArray(hook.args)) return hook.command
  return commandLine(quoteShellArg(hook.command), hook.args.map(String))
}

/** Runs `hook` and decodes its output. Never throws. */
export async function runHook(
  backend: HookBackend,
  hook: HookCommand,
  opts: RunHookOptions,
): Promise<HookOutput> {
  const failed = (failure: string, extra: Partial<HookOutput> = {}): HookOutput => ({
    failed: true,
    failure,
    stdout: '',
    stderr: '',
    json: false,
    ...extra,
  })
  try {
    if (typeof hook?.command !== 'string' || hook.command.trim() === '')
      return failed('the hook has no command')
    const input = JSON.stringify(opts.payload) + (opts.dialect === 'claude' ? '\n' : '')
    const timeoutMs = hookTimeoutMs(hook)
    const result = await backend.run({
      command: hookCommandLine(hook),
      cwd: opts.cwd,
      env: { ...(opts.baseEnv ?? process.env), ...(opts.env ?? {}) },
      input,
      timeoutMs,
      ...(opts.signal ? { signal: opts.signal } : {}),
    })
    const captured = {
      stdout: result.stdout.trim(),
      stderr: result.stderr.trim(),
      ...(result.truncated ? { truncated: true as const } : {}),
    }
    if (result.spawnError) return failed(`spawn: ${result.spawnError.code} ${result.spawnError.message}`)
    if (result.timedOut) return failed(`timed out after ${timeoutMs} ms`, { ...captured, timedOut: true })
    if (result.aborted) return failed('aborted', { ...captured, aborted: true })
    const output = decodeHookOutput(opts.dialect, opts.event, {
      exitCode: result.exitCode,
      stdout: result.stdout,
      stderr: result.stderr,
      signal: result.signal,
    })
    return result.truncated ? { ...output, truncated: true } : output
  } catch (error) {
    return failed(`hook runner: ${error instanceof Error ? error.message : String(error)}`)
  }
}
