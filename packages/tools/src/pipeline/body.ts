// The innermost handler of `tools/execute`: runs a tool body in its own try/catch (a throw becomes a
// result, TL-6), enforces the tool's `timeoutMs` by aborting the body's signal, and honours the
// call's signal. After a cancel the body gets `abortGraceMs` to settle; a body that ignores its
// signal is then given up on — the call ends, the body settles on its own, tracked by `settled()`.
//  - timeout (TL-6): always `TIMEOUT`; whatever the body said by then is appended to the notice.
//  - abort (AL-23): the body's own result is recorded as it settled (a normal return stays a
//    result, a `ToolFailure` keeps its code); a plain throw or no answer at all is `ABORTED`.
// Right before the body, the paths the tool declares are held to the workspace scope (scope.ts): a
// refusal is the body's `OUTSIDE_WORKSPACE` failure, as the fs tools have always reported it.
import { blockText, type Content, toContentBlocks } from '@tack/session'
import { ToolFailure } from '../errors.ts'
import { holdToScope } from '../scope.ts'
import type {
  ToolCallContext,
  ToolDefinition,
  ToolExecution,
  ToolExecutionResult,
  ToolOutput,
} from '../types.ts'
import type { ProgressRecorder } from './progress.ts'
import { errorResult } from './results.ts'
import { contentProblem } from './shapes.ts'

export interface BodyOptions {
  /** How long a cancelled body may take to settle before the call ends without it. */
  readonly abortGraceMs: number
  /** Registers a started body so `settled()` can wait for it. */
  readonly track: (body: Promise<unknown>) => void
  /** Who approved the call when a pre-execute decision asked. */
  readonly approval?: 'user' | 'rule'
  /** Logs the body's progress reports (progress.ts); absent where no log is kept. */
  readonly progress?: ProgressRecorder
}

/** The reason the body's signal carries when the tool's own `timeoutMs` elapsed. */
export class ToolTimeoutError extends Error {
  override readonly name = 'TimeoutError'
  readonly timeoutMs: number
  constructor(tool: string, timeoutMs: number) {
    super(`tool "${tool}" timed out after ${timeoutMs} ms`)
    this.timeoutMs = timeoutMs
  }
}

type Settled = { kind: 'returned'; output: unknown } | { kind: 'threw'; error: unknown } | { kind: 'gave-up' }

/** What the body said for itself: content and meta to keep even when the call was cancelled. */
type Account = { content?: Content; meta?: unknown }

export async function runBody(
  def: ToolDefinition,
  exec: ToolExecution,
  options: BodyOptions,
): Promise<ToolExecutionResult> {
  if (exec.signal.aborted)
    return errorResult(exec, 'ABORTED', `The call to "${exec.name}" was aborted before it started.`, {
      name: 'AbortError',
    })

  const timeout = new AbortController()
  const signal = AbortSignal.any([exec.signal, timeout.signal])
  let cancelledBy: 'timeout' | 'abort' | undefined
  let settledFirst = false
  let graceTimer: ReturnType<typeof setTimeout> | undefined
  let giveUp: (value: Settled) => void = () => {}
  const gaveUp = new Promise<Settled>((resolve) => (giveUp = resolve))
  const onCancel = () => {
    if (settledFirst) return
    cancelledBy = signal.reason instanceof ToolTimeoutError ? 'timeout' : 'abort'
    graceTimer = setTimeout(() => giveUp({ kind: 'gave-up' }), options.abortGraceMs)
  }
  signal.addEventListener('abort', onCancel, { once: true })
  const timer =
    def.timeoutMs === undefined
      ? undefined
      : setTimeout(() => timeout.abort(new ToolTimeoutError(def.name, def.timeoutMs ?? 0)), def.timeoutMs)

  const call: ToolCallContext = Object.freeze({
    callId: exec.callId,
    cwd: exec.cwd,
    signal,
    ...(exec.agent && { agent: exec.agent }),
    ...(options.approval && { approval: options.approval }),
    ...(options.progress && { progress: options.progress.report }),
  })
  // The body gets its own mutable copy: listeners saw (and the log holds) the frozen one.
  const body = (async (): Promise<Settled> => {
    try {
      const scoped = holdToScope(def, exec.arguments, call)
      if (scoped) {
        await scoped
        // Cancelled while the paths were resolved: the body never starts.
        signal.throwIfAborted()
      }
      return { kind: 'returned', output: await def.execute(structuredClone(exec.arguments), call) }
    } catch (error) {
      return { kind: 'threw', error }
    }
  })()
  options.track(body)
  const settled = await Promise.race([body, gaveUp])
  settledFirst = true
  // A report arriving after this would follow the call's result in the log.
  options.progress?.end()
  clearTimeout(timer)
  clearTimeout(graceTimer)
  signal.removeEventListener('abort', onCancel)

  if (cancelledBy === 'timeout') return timedOutResult(def, exec, settled)
  switch (settled.kind) {
    case 'returned':
      return outputResult(exec, settled.output)
    case 'threw':
      if (cancelledBy === 'abort' && !(settled.error instanceof ToolFailure))
        return abortedResult(exec, false)
      return thrownResult(exec, settled.error)
    case 'gave-up':
      return abortedResult(exec, true)
    default:
      return settled satisfies never
  }
}

function outputResult(exec: ToolExecution, output: unknown): ToolExecutionResult {
  const account = accountOf(output)
  if (!account) {
    return errorResult(exec, 'TOOL_FAILED', `Tool "${exec.name}" returned something that is not content.`, {
      name: 'TypeError',
      message: 'a tool must return content (a string or text blocks) or {content, meta}',
    })
  }
  return {
    callId: exec.callId,
    name: exec.name,
    content: toContentBlocks(account.content ?? ''),
    isError: false,
    ...(account.meta !== undefined && { meta: account.meta }),
  }
}

function thrownResult(exec: ToolExecution, error: unknown): ToolExecutionResult {
  if (error instanceof ToolFailure) {
    return errorResult(exec, error.code, error.content ?? error.message, {
      name: error.name,
      message: error.message,
      meta: error.meta,
    })
  }
  const name = error instanceof Error ? error.name : 'Error'
  const message = error instanceof Error ? error.message : String(error)
  return errorResult(exec, 'TOOL_FAILED', `${name}: ${message}`, { name, message })
}

const ABANDONED = 'The tool did not stop when cancelled; it may still be running.'

function abortedResult(exec: ToolExecution, abandoned: boolean): ToolExecutionResult {
  const notice = `The call to "${exec.name}" was aborted.`
  return errorResult(exec, 'ABORTED', abandoned ? `${notice}\n\n${ABANDONED}` : notice, {
    name: 'AbortError',
    message: notice,
  })
}

function timedOutResult(def: ToolDefinition, exec: ToolExecution, settled: Settled): ToolExecutionResult {
  const notice = `Tool "${exec.name}" timed out after ${def.timeoutMs} ms.`
  const account: Account =
    settled.kind === 'returned'
      ? (accountOf(settled.output) ?? {})
      : settled.kind === 'threw' && settled.error instanceof ToolFailure
        ? { content: settled.error.content ?? settled.error.message, meta: settled.error.meta }
        : {}
  const own = account.content === undefined ? [] : toContentBlocks(account.content).map(blockText)
  const abandoned = settled.kind === 'gave-up' ? [ABANDONED] : []
  return errorResult(exec, 'TIMEOUT', [notice, ...abandoned, ...own].join('\n\n'), {
    name: 'TimeoutError',
    message: notice,
    meta: account.meta,
  })
}

/** Reads a `ToolOutput`; undefined when the value is not one. */
function accountOf(output: unknown): Account | undefined {
  if (contentProblem(output) === undefined) return { content: output as Content }
  if (output !== null && typeof output === 'object' && 'content' in output) {
    const out = output as Exclude<ToolOutput, Content>
    if (contentProblem(out.content) === undefined) return { content: out.content, meta: out.meta }
  }
  return undefined
}
