// The search worker (docs/decisions/0120-model-patterns-off-thread.md): runs the model's RegExp and
// glob over files off tack's main thread, so a pattern that backtracks for minutes never blocks the
// event loop — Ctrl-C, Esc and the TUI stay live, and the parent terminates this worker on abort or
// past `searchTimeoutMs`. Batches are answered in order, one at a time; a batch of an older job
// (still queued when its call stopped early) is answered empty without being searched.
import { parentPort } from 'node:worker_threads'
import { type BatchStep, type FileResult, prepareJob, type SearchFile, type SearchJob } from './search-job.ts'

export type WorkerRequest =
  | { readonly type: 'job'; readonly job: number; readonly spec: SearchJob }
  | {
      readonly type: 'batch'
      readonly job: number
      readonly id: number
      readonly files: readonly SearchFile[]
    }

export interface WorkerAnswer {
  readonly id: number
  readonly results: readonly FileResult[]
}

let current: { job: number; run: BatchStep } | undefined
let queue: Promise<void> = Promise.resolve()

parentPort?.on('message', (request: WorkerRequest) => {
  queue = queue.then(() => handle(request))
})

async function handle(request: WorkerRequest): Promise<void> {
  if (request.type === 'job') {
    current = { job: request.job, run: prepareJob(request.spec) }
    return
  }
  const results: FileResult[] = current?.job === request.job ? await current.run(request.files) : []
  parentPort?.postMessage({ id: request.id, results } satisfies WorkerAnswer)
}
