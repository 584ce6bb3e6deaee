// The runner itself, for callers that run programs without a context (benchmarks, tools of their own).
export { memoryPages, warmIsolates } from './isolate-pool.ts'
export { runProgram } from './quickjs-run.ts'
export { runInWorker, warmWorker } from './sandbox-worker.ts'
export { stripProgram } from './strip.ts'
