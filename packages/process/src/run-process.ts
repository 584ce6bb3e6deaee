// The process backend: runs one `bash -c <command>` as the leader of its own process group, with a
// timeout and an abort signal that take down the whole group (SIGTERM, then SIGKILL after the grace),
// bounded output and an optional spill file. Used by the bash tool (with a scrubbed environment) and
// by trusted callers such as hooks (`spawnTrusted`, TL-33). Needs no cordis.
//
// Lifetime: the call resolves only once the leader has exited *and* no living process of its group
// remains. Processes the command left running in the background when it ended are terminated
// through the same ladder, so nothing outlives the call and no backgrounded job can hold the call
// open by keeping the output pipes.
import { type ChildProcess, spawn } from 'node:child_process'
import { stat } from 'node:fs/promises'
import { KillLadder, reapGroup, waitForGroupGone } from './process-group.ts'
import { OutputCapture } from './output-capture.ts'
import type { ProcessWrapper, WrappedCommand } from './sandbox/wrapper.ts'

/** The largest delay a Node timer can express; longer timeouts are treated as this. */
export const MAX_TIMER_MS = 2_147_483_647

/**
 * After the group is gone, how long to keep reading pipes still held open by a process that left the
 * group (e.g. through `setsid`). Data already in the pipe is read in far less.
 */
const ESCAPED_PIPE_DRAIN_MS = 250

/** After SIGKILL, how long to wait for a process that cannot die (uninterruptible I/O) before giving up. */
const KILL_SETTLE_MS = 2_000

/**
 * With a launcher (the sandbox), how long its namespace may take to die after the launcher exits.
 * Everything in it dies with it (the kernel kills a PID namespace with its init), so what remains is
 * teardown, not leftovers; past this the usual ladder applies.
 */
const WRAPPED_TEARDOWN_MS = 1_000

export interface RunOptions {
  /** Passed to `bash -c` as one argument. */
  readonly command: string
  readonly cwd: string
  /** The complete environment of the process, used as given (undefined values are skipped). */
  readonly env: Readonly<Record<string, string | undefined>>
  /** Written to stdin, which is then closed; without it stdin is /dev/null (reads see end of file). */
  readonly input?: string | Uint8Array
  /** Milliseconds until the group is terminated (`timedOut`); non-finite means no timeout. */
  readonly timeoutMs: number
  /** Milliseconds between SIGTERM and SIGKILL to the group. */
  readonly graceMs: number
  /** Bytes of output kept in memory, per stream (merged: in total); the tail is kept. */
  readonly maxOutputBytes: number
  /**
   * Merge stderr into stdout in write order (as `2>&1`): `stdout` holds the combined stream and
   * `stderr` is empty. The command runs as `exec 2>&1; <command>`, so both go through one pipe.
   */
  readonly merge: boolean
  /** Every output byte is also written here (folder created); merged or not, in arrival order. */
  readonly spillPath?: string
  /** Aborting terminates the group (`aborted`); already aborted means nothing is started. */
  readonly signal?: AbortSignal
  /**
   * Runs `bash -c` through a launcher, e.g. the OS sandbox (`sandboxWrapper`). The launcher's process
   * is the group leader; the group kill, timeout and output capture work as without it.
   */
  readonly wrapper?: ProcessWrapper
}

export interface SpawnError {
  /** The errno-style code, e.g. `ENOENT`, or `ERR_INVALID_ARG_VALUE` for unusable options. */
  readonly code: string
  readonly message: string
}

export interface ProcessResult {
  /** The leader's exit code; null when it was killed by a signal or never ran. */
  readonly exitCode: number | null
  /** The signal that killed the leader, if one did. */
  readonly signal: NodeJS.Signals | null
  readonly timedOut: boolean
  readonly aborted: boolean
  /** Decoded as UTF-8 (invalid bytes become U+FFFD); the last `maxOutputBytes` bytes. */
  readonly stdout: string
  /** Empty when merged. */
  readonly stderr: string
  /** Whether output beyond `maxOutputBytes` was dropped from memory (the spill file still has it). */
  readonly truncated: boolean
  /** Every byte the command wrote, kept or not. */
  readonly totalBytes: number
  /** Processes the command left running when it ended were terminated. */
  readonly killedLeftovers: boolean
  /** Set when the spill file was written completely. */
  readonly spillPath?: string
  /** Why the spill file could not be written (the in-memory tail is unaffected). */
  readonly spillError?: string
  /** Set when the process could not be started; no other field then describes a run. */
  readonly spawnError?: SpawnError
}

/** Runs the command; never throws (a failure to start is a result with `spawnError`). */
export async function runProcess(options: RunOptions): Promise<ProcessResult> {
  try {
    return await run(options)
  } catch (error) {
    // Not expected: every step handles its own failures. Still a result, never an exception.
    return notRun({ spawnError: spawnErrorOf(error) })
  }
}

async function run(options: RunOptions): Promise<ProcessResult> {
  if (options.signal?.aborted) return notRun({ aborted: true })
  const capture = new OutputCapture({
    merge: options.merge,
    maxOutputBytes: options.maxOutputBytes,
    spillPath: options.spillPath,
  })
  await capture.open()
  const argv = ['bash', '-c', options.merge ? `exec 2>&1; ${options.command}` : options.command]
  let wrapped: WrappedCommand = { argv, release: async () => {} }
  if (options.wrapper) {
    // A launcher would report a missing cwd as its own failure (an exit code); say it as without one.
    const cwdError = await workingDirectoryError(options.cwd)
    if (cwdError) {
      await capture.finish(0)
      return notRun({ spawnError: cwdError, ...capture.result() })
    }
    try {
      wrapped = await options.wrapper.wrap(argv, options.cwd)
    } catch (error) {
      await capture.finish(0)
      const message = `the sandbox could not be set up: ${spawnErrorOf(error).message}`
      return notRun({ spawnError: { code: 'SANDBOX_FAILED', message }, ...capture.result() })
    }
  }
  try {
    return await runSpawned(options, capture, wrapped)
  } finally {
    await wrapped.release()
  }
}

async function runSpawned(
  options: RunOptions,
  capture: OutputCapture,
  wrapped: WrappedCommand,
): Promise<ProcessResult> {
  const { argv } = wrapped
  const spareLeaderOnTerm = wrapped.spareLeaderOnTerm === true
  let child: ChildProcess
  try {
    const stdin = options.input === undefined ? 'ignore' : 'pipe'
    child = spawn(argv[0], argv.slice(1), {
      cwd: options.cwd,
      env: options.env,
      detached: true,
      // fd 3, the lifeline, is never written: only its end-of-file, when tack is gone, means anything
      stdio: wrapped.lifeline ? [stdin, 'pipe', 'pipe', 'pipe'] : [stdin, 'pipe', 'pipe'],
    })
  } catch (error) {
    await capture.finish(0)
    return notRun({ spawnError: spawnErrorOf(error), ...capture.result() })
  }
  const exited = new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
    child.once('exit', (code, signal) => resolve([code, signal])),
  )
  const started = new Promise<Error | undefined>((resolve) => {
    child.once('spawn', () => resolve(undefined))
    child.on('error', resolve) // later errors (none expected) must not crash the process
  })
  capture.attach(child.stdout, 'stdout')
  capture.attach(child.stderr, 'stderr')
  const startError = await started
  if (startError || child.pid === undefined) {
    child.stdio[3]?.destroy()
    await capture.finish(0)
    return notRun({
      spawnError: await explainSpawnError(startError, options.cwd, argv[0]),
      ...capture.result(),
    })
  }
  feedInput(child, options.input)

  const ladder = new KillLadder(child.pid, clampMs(options.graceMs) ?? 0, spareLeaderOnTerm)
  let timedOut = false
  let aborted = false
  let leaderExited = false
  const cancel = (why: 'timeout' | 'abort') => {
    if (leaderExited || timedOut || aborted) return
    if (why === 'timeout') timedOut = true
    else aborted = true
    ladder.start()
  }
  const timeoutMs = clampMs(options.timeoutMs)
  const timer = timeoutMs === undefined ? undefined : setTimeout(() => cancel('timeout'), timeoutMs)
  const onAbort = () => cancel('abort')
  options.signal?.addEventListener('abort', onAbort, { once: true })
  if (options.signal?.aborted) onAbort() // aborted while the spill file was opened or bash was starting

  const [exitCode, signal] = await exited
  child.stdio[3]?.destroy()
  leaderExited = true
  clearTimeout(timer)
  options.signal?.removeEventListener('abort', onAbort)
  if (options.wrapper && !ladder.started) await waitForGroupGone(child.pid, WRAPPED_TEARDOWN_MS)
  const killedLeftovers = await reapGroup(ladder, KILL_SETTLE_MS)
  ladder.dispose()
  await capture.finish(ESCAPED_PIPE_DRAIN_MS)
  return { exitCode, signal, timedOut, aborted, killedLeftovers, ...capture.result() }
}

function feedInput(child: ChildProcess, input: string | Uint8Array | undefined): void {
  const stdin = child.stdin
  if (!stdin || input === undefined) return
  stdin.on('error', () => {}) // EPIPE when the command exits without reading all of it
  stdin.end(input)
}

/** Undefined for "no timer"; otherwise an integer delay a timer can hold. */
function clampMs(ms: number): number | undefined {
  if (!Number.isFinite(ms)) return undefined
  return Math.min(MAX_TIMER_MS, Math.max(0, Math.floor(ms)))
}

function notRun(fields: Partial<ProcessResult>): ProcessResult {
  return {
    exitCode: null,
    signal: null,
    timedOut: false,
    aborted: false,
    stdout: '',
    stderr: '',
    truncated: false,
    totalBytes: 0,
    killedLeftovers: false,
    ...fields,
  }
}

function spawnErrorOf(error: unknown): SpawnError {
  const code = (error as NodeJS.ErrnoException | undefined)?.code
  const message = error instanceof Error ? error.message : String(error)
  return { code: typeof code === 'string' ? code : 'UNKNOWN', message }
}

/** Node reports a missing cwd as `spawn bash ENOENT`, like a missing bash; say which it was. */
async function explainSpawnError(error: Error | undefined, cwd: string, file: string): Promise<SpawnError> {
  const base = spawnErrorOf(error ?? new Error('the process did not start'))
  if (base.code !== 'ENOENT' && base.code !== 'ENOTDIR') return base
  const cwdError = await workingDirectoryError(cwd)
  if (cwdError) return cwdError
  if (file !== 'bash') return { code: base.code, message: `${file} could not be started` }
  return { code: base.code, message: 'bash was not found on the PATH of the given environment' }
}

async function workingDirectoryError(cwd: string): Promise<SpawnError | undefined> {
  const dir = await stat(cwd).catch(() => undefined)
  if (!dir) return { code: 'ENOENT', message: `the working directory ${cwd} does not exist` }
  if (!dir.isDirectory()) return { code: 'ENOTDIR', message: `the working directory ${cwd} is not a folder` }
  return undefined
}
