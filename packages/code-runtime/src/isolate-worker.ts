// The worker thread's entry (worker-protocol.ts): runs one program at a time with runProgram, turns
// each `tools.<name>` call into a message to the main thread, and polls the shared abort flag from
// QuickJS's interrupt handler, which runs inside the guest even when the guest never yields.
import { parentPort } from 'node:worker_threads'
import type { BindingOutcome } from '@tack/tools'
import { warmIsolates } from './isolate-pool.ts'
import { RUNNER } from './prelude.ts'
import { runProgram } from './quickjs-run.ts'
import { stripProgram } from './strip.ts'
import { ABORTED, type FromWorker, type ToWorker } from './worker-protocol.ts'

interface CurrentRun {
  readonly controller: AbortController
  readonly pending: Map<number, (outcome: BindingOutcome) => void>
}

const port = parentPort
if (!port) throw new Error('isolate-worker.ts runs only as a worker thread')
const send = (message: FromWorker) => port.postMessage(message)

let current: CurrentRun | undefined
let nextCall = 0

port.on('message', (message: ToWorker) => {
  switch (message.type) {
    case 'warm':
      warmIsolates(message.memoryBytes)
      // Loads amaro (swc's WebAssembly) now rather than in the first run.
      stripProgram('', RUNNER)
      return
    case 'run':
      void run(message)
      return
    case 'settled': {
      const resolve = current?.pending.get(message.callId)
      current?.pending.delete(message.callId)
      resolve?.(message.outcome)
      return
    }
    case 'abort':
      current?.controller.abort()
      return
  }
})

async function run(message: Extract<ToWorker, { type: 'run' }>): Promise<void> {
  const controller = new AbortController()
  const pending = new Map<number, (outcome: BindingOutcome) => void>()
  current = { controller, pending }
  const bindings = Object.fromEntries(
    message.tools.map(({ name }) => [
      name,
      (json: string) =>
        new Promise<BindingOutcome>((resolve) => {
          const callId = ++nextCall
          pending.set(callId, resolve)
          send({ type: 'call', callId, name, json })
        }),
    ]),
  )
  const { abortFlag } = message
  const outcome = await runProgram(
    {
      code: message.code,
      bindings,
      places: Object.fromEntries(message.tools.map((tool) => [tool.name, tool])),
      signal: controller.signal,
    },
    message.budgets,
    {
      interrupted: () => Atomics.load(abortFlag, 0) === ABORTED,
    },
  )
  current = undefined
  send({ type: 'done', outcome })
}
