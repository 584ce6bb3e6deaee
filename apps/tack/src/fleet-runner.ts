// The worker's SessionRunner (@tack/fleet runner.ts) on tack's library (`openSession`, docs/library.md):
// each job is a new session with the worker's config files, permission mode and the shared store
// (`storeUrl`), its header naming the job and the attempt it follows (`attemptOf`). Nothing here reaches
// into the CLI: the worker runs sessions the way any library user does.
import { type RunningSession, type SessionRunner, WorkerCannotRunError } from '@tack/fleet'

/**
 * The typed codes (an LlmError's `code` in the cause chain of openSession's TackError) that say the
 * worker, not the job, is why no session starts: the model's key is not set in the worker's environment
 * (`MISSING_API_KEY`, as the provider raises it at a request and the boot's model check now names it),
 * or the job names no model and the worker has none (`NO_MODEL`). docs/decisions/0385-fleet-retries.md
 */
const WORKER_FAULTS = new Set(['MISSING_API_KEY', 'NO_MODEL'])

function isWorkerFault(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 8; e = e.cause, depth++)
    if (WORKER_FAULTS.has((e as { code?: unknown }).code as string)) return true
  return false
}

export interface LibraryRunnerOptions {
  readonly url: string
  readonly env: NodeJS.ProcessEnv
  readonly tackHome: string
  readonly configFile?: string
  readonly profile?: string
  readonly permissionMode: 'ask' | 'workspace-write' | 'read-only' | 'yolo'
  readonly warn: (line: string) => void
  /** `--scripted-models`: a job may name a `scripted/<file>` model (see `start`). */
  readonly scriptedModels?: boolean
}

/**
 * A job's `scripted/<path>` model plays a file of the worker's disk as the model, and writes beside it:
 * whoever can submit jobs could read what the worker's user can (a file that is not a script shows its
 * start in the attempt's reason) — so a worker plays one only when started with `--scripted-models`
 * (the fleet's tests and benches). The worker's own configured model is its operator's choice and is
 * not checked. docs/decisions/0400-worker-scripted-models.md
 */
export function scriptedModelRefusal(model: string | undefined, allowed: boolean): string | undefined {
  if (allowed || model === undefined || !model.trim().startsWith('scripted/')) return undefined
  return `this worker does not play scripted/ models (a job's ${JSON.stringify(model)}): start it with --scripted-models to allow them`
}

export async function libraryRunner(
  o: LibraryRunnerOptions,
): Promise<SessionRunner & { close(): Promise<void> }> {
  const { openSession } = await import('./library/index.ts')
  const { PostgresSessionStore } = await import('@tack/store-postgres')
  let store: ReturnType<typeof PostgresSessionStore.open> | undefined
  return {
    async start(s): Promise<RunningSession> {
      const refusal = scriptedModelRefusal(s.model, o.scriptedModels === true)
      if (refusal) throw new Error(refusal)
      const session = await openSession({
        cwd: s.cwd,
        ...(s.model ? { model: s.model } : {}),
        ...(o.configFile ? { configFiles: [o.configFile] } : {}),
        ...(o.profile ? { profile: o.profile } : {}),
        permissionMode: o.permissionMode,
        tackHome: o.tackHome,
        storeUrl: o.url,
        env: o.env,
        onWarning: o.warn,
        ...(s.maxCostUsd !== undefined ? { maxCostUsd: s.maxCostUsd } : {}),
        metadata: {
          jobId: s.metadata.jobId,
          attempt: String(s.metadata.attempt),
          ...(s.metadata.attemptOf ? { attemptOf: s.metadata.attemptOf } : {}),
        },
      }).catch((error: unknown) => {
        throw isWorkerFault(error)
          ? new WorkerCannotRunError((error as Error).message, { cause: error })
          : error
      })
      s.onEvent()
      const turn = session.prompt(s.task)
      const result = (async () => {
        try {
          for await (const _ of turn) s.onEvent()
          const r = await turn.result
          return {
            exitReason: r.exitReason,
            ...(r.error ? { detail: r.error.message } : {}),
            finalText: r.finalText,
            usage: { ...r.usage },
            ...(r.costUsd !== undefined ? { costUsd: r.costUsd } : {}),
          }
        } finally {
          await session.close()
        }
      })()
      return { sessionId: session.id, abort: (reason) => session.abort(reason), result }
    },
    // Reading a session whose writer's lease lapsed closes its open turn as interrupted, durably, with
    // the log kept (the store's crash recovery, 10-session-log.md SL-25).
    async closeInterrupted(sessionId) {
      store ??= PostgresSessionStore.open({ url: o.url }, { env: o.env })
      await (await store).load(sessionId)
    },
    async close() {
      if (store) await (await store).close()
    },
  }
}
