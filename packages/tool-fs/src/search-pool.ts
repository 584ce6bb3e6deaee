// The main thread's side of the search worker (search-worker.ts; docs/decisions/0120-model-patterns-off-thread.md).
// `searchEach` hands a job to a worker and streams the files to it in chunks (a few messages for
// 20,000 files), a few chunks ahead of the results it hands back in order. One idle worker is kept
// warm between calls (unref'd: it never holds the process open); a worker that was stopped — abort,
// time cap, crash, or a caller that stopped early with chunks still queued — is terminated, never reused.
import { Worker } from 'node:worker_threads'
import { ToolFailure } from '@tack/tools'
import type { FileResult, SearchFile, SearchJob } from './search-job.ts'
import type { WorkerAnswer, WorkerRequest } from './search-worker.ts'

/** Files a message carries. */
const CHUNK = 256
/** Chunks sent ahead of the one whose results are awaited: the worker never waits for the next. */
const AHEAD = 4
/**
 * The worker's young generation, in MB. Grep of a file of long lines makes a flat string of up to
 * `grepMaxLineLength` characters per line, garbage at once; with V8's default young generation a
 * 200 MB file of 1 MiB lines left ~100 MB of it uncollected at the peak, with 16 MB ~40 (measured;
 * the launcher caps the main thread's the same way: docs/decisions/0067-long-session-cost.md,
 * docs/decisions/0165-streaming-huge-files.md). An engine figure, like the launcher's, not a setting.
 */
const WORKER_YOUNG_MB = 16

export interface SearchLimits {
  readonly signal: AbortSignal
  /** The whole search's time cap (`searchTimeoutMs`). */
  readonly timeoutMs: number
  /** What timed out, for the error: `grep`, `glob`. */
  readonly tool: string
}

/**
 * Runs `job` on each entry `only` accepts (default all), calling `take` with its result in the
 * entries' order until `take` returns false. Rejects with a `TIMEOUT` ToolFailure past
 * `limits.timeoutMs`, with the abort reason on abort — the worker is terminated either way.
 */
export async function searchEach<T extends SearchFile>(
  job: SearchJob,
  limits: SearchLimits,
  entries: AsyncIterable<T> | Iterable<T>,
  take: (entry: T, result: FileResult) => boolean,
  only: (entry: T) => boolean = () => true,
): Promise<void> {
  const searcher = openSearcher(job, limits)
  const pending: { entries: T[]; results: Promise<readonly FileResult[]> }[] = []
  let chunk: T[] = []
  const send = () => {
    pending.push({
      entries: chunk,
      results: searcher.search(chunk.map(({ path, relative }) => ({ path, relative }))),
    })
    chunk = []
  }
  /** Takes the oldest chunk's results; false once `take` said stop. */
  const drain = async (): Promise<boolean> => {
    const next = pending.shift()!
    const results = await next.results
    for (const [i, entry] of next.entries.entries()) if (!take(entry, results[i])) return false
    return true
  }
  try {
    for await (const entry of entries) {
      if (!only(entry)) continue
      chunk.push(entry)
      if (chunk.length < CHUNK) continue
      send()
      if (pending.length > AHEAD && !(await drain())) return
    }
    if (chunk.length > 0) send()
    while (pending.length > 0) if (!(await drain())) return
  } finally {
    searcher.close()
  }
}

/**
 * `searchEach` for a test that cannot backtrack (glob-match.ts `nameTailTest`): run here, on the
 * entries as they come, with no worker to start or feed. Same contract: `take` in the entries' order
 * until it returns false, the abort reason on abort, `TIMEOUT` past `limits.timeoutMs`.
 */
export async function filterEach<T extends SearchFile>(
  limits: SearchLimits,
  entries: AsyncIterable<T> | readonly T[],
  test: (relative: string) => boolean,
  take: (entry: T) => boolean,
): Promise<void> {
  const { signal } = limits
  signal.throwIfAborted()
  const deadline = performance.now() + limits.timeoutMs
  let seen = 0
  const step = (entry: T): boolean => {
    // Checked every CHUNK entries: reading a composed signal's state costs more than the test.
    if (++seen % CHUNK === 0) {
      signal.throwIfAborted()
      if (performance.now() > deadline) throw timeoutFailure(limits)
    }
    return !test(entry.relative) || take(entry)
  }
  if (Array.isArray(entries)) {
    for (const entry of entries) if (!step(entry)) return
    return
  }
  for await (const entry of entries) if (!step(entry)) return
}

let idle: Worker | undefined
let jobs = 0
let messages = 0

function takeWorker(): Worker {
  const warm = idle
  idle = undefined
  if (warm) {
    warm.ref()
    return warm
  }
  // Built copies run as .js, the sources as .ts (scripts/build.ts renames imports, not URLs).
  const file = new URL(`./search-worker.${import.meta.url.endsWith('.ts') ? 'ts' : 'js'}`, import.meta.url)
  const worker = new Worker(file, { resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_MB } })
  // An idle worker that dies (it should not) is simply forgotten.
  worker.once('exit', () => {
    if (idle === worker) idle = undefined
  })
  return worker
}

function returnWorker(worker: Worker): void {
  if (idle) {
    void worker.terminate()
    return
  }
  worker.unref()
  idle = worker
}

interface Searcher {
  /** The files' results, in order; rejects once the search stopped (abort, time cap, crash). */
  search(files: readonly SearchFile[]): Promise<readonly FileResult[]>
  /** Ends the job: the worker goes back to the pool, or is terminated when it is stopped or busy. */
  close(): void
}

interface Waiter {
  resolve(results: readonly FileResult[]): void
  reject(error: unknown): void
}

function openSearcher(spec: SearchJob, limits: SearchLimits): Searcher {
  limits.signal.throwIfAborted()
  const worker = takeWorker()
  const job = ++jobs
  const waiting = new Map<number, Waiter>()
  let failure: unknown
  let closed = false
  const post = (request: WorkerRequest) => worker.postMessage(request)

  const onAnswer = (answer: WorkerAnswer) => {
    const waiter = waiting.get(answer.id)
    if (!waiter) return // an answer to an earlier job on this (reused) worker
    waiting.delete(answer.id)
    waiter.resolve(answer.results)
  }
  const fail = (error: unknown) => {
    if (failure !== undefined) return
    failure = error
    for (const waiter of waiting.values()) waiter.reject(error)
    waiting.clear()
    finish(false)
  }
  const onError = (error: Error) =>
    fail(new ToolFailure('SEARCH_FAILED', `${limits.tool} failed: ${error.message}`))
  const onExit = () =>
    fail(new ToolFailure('SEARCH_FAILED', `${limits.tool} failed: its search worker stopped`))
  const onAbort = () => fail(limits.signal.reason)
  const timer = setTimeout(() => fail(timeoutFailure(limits)), limits.timeoutMs)

  function finish(reusable: boolean): void {
    if (closed) return
    closed = true
    clearTimeout(timer)
    limits.signal.removeEventListener('abort', onAbort)
    worker.off('message', onAnswer)
    worker.off('error', onError)
    worker.off('exit', onExit)
    if (reusable) returnWorker(worker)
    else void worker.terminate()
  }

  worker.on('message', onAnswer)
  worker.once('error', onError)
  worker.once('exit', onExit)
  limits.signal.addEventListener('abort', onAbort, { once: true })
  post({ type: 'job', job, spec })

  return {
    search(files) {
      if (failure !== undefined) return Promise.reject(failure)
      const id = ++messages
      const results = new Promise<readonly FileResult[]>((resolve, reject) => {
        waiting.set(id, { resolve, reject })
      })
      // A caller that stopped early never awaits the rest: their rejection is not an unhandled one.
      results.catch(() => {})
      post({ type: 'batch', job, id, files })
      return results
    },
    close() {
      const reusable = failure === undefined && waiting.size === 0
      for (const waiter of waiting.values()) waiter.reject(new Error('search closed'))
      waiting.clear()
      finish(reusable)
    },
  }
}

function timeoutFailure(limits: SearchLimits): ToolFailure {
  const ms = limits.timeoutMs
  const took = ms >= 1000 ? `${ms / 1000} s` : `${ms} ms`
  return new ToolFailure(
    'TIMEOUT',
    `${limits.tool} stopped after ${took} (searchTimeoutMs). A pattern with nested or overlapping repetition, such as (a+)+ or *a*a*a*b, can take exponential time on some lines or names: simplify the pattern, or narrow the path or glob.`,
  )
}
