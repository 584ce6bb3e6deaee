// Runs one expensive line diff off the main thread (diff.ts decides when), so a big rewrite never
// blocks tack's event loop and Ctrl-C is answered at once (the parent terminates this worker).
// Posts the hunks, or null when jsdiff gave up at its `timeout`.
import { parentPort, workerData } from 'node:worker_threads'
import { structuredPatch } from 'diff'

const { before, after, context, timeoutMs } = workerData as {
  before: string
  after: string
  context: number
  timeoutMs: number
}
const patch = structuredPatch('a', 'b', before, after, undefined, undefined, { context, timeout: timeoutMs })
parentPort?.postMessage(
  patch
    ? patch.hunks.map((h) => ({
        oldStart: h.oldStart,
        oldLines: h.oldLines,
        newStart: h.newStart,
        newLines: h.newLines,
        lines: h.lines,
      }))
    : null,
)
