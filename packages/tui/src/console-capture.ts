// While the screen is up, a plugin's `console.log` (or warn, error, info, debug) would write into the
// middle of a frame and tear it: the text goes into the transcript instead, as a notice. Restored on exit.
import { format } from 'node:util'

const METHODS = ['log', 'info', 'debug', 'warn', 'error'] as const

/** Routes console output to `sink` until the returned function is called. */
export function captureConsole(sink: (text: string, level: 'info' | 'warning') => void): () => void {
  const saved = METHODS.map((m) => [m, console[m]] as const)
  for (const m of METHODS) {
    console[m] = (...args: unknown[]) =>
      sink(format(...args), m === 'warn' || m === 'error' ? 'warning' : 'info')
  }
  return () => {
    for (const [m, fn] of saved) console[m] = fn
  }
}
