// `startTui`: the real `tack` binary (interactive mode) in a pseudo-terminal. Build first
// (`node scripts/build.ts`): the binary runs the built copy.
import { fileURLToPath } from 'node:url'
import { type PtySession, startPty } from './terminal.ts'

export type { PtySession } from './terminal.ts'

export const TACK_BIN = fileURLToPath(new URL('../../bin/tack.js', import.meta.url))

export interface TuiOptions {
  readonly cwd: string
  readonly env: NodeJS.ProcessEnv
  /** Arguments after `tack` (`-c`, `-r ID`, `--config FILE`, …). */
  readonly args?: readonly string[]
  readonly cols?: number
  readonly rows?: number
}

export function startTui(options: TuiOptions): PtySession {
  return startPty({
    file: process.execPath,
    args: [TACK_BIN, ...(options.args ?? [])],
    cwd: options.cwd,
    // A terminal says what it is; without TERM a TUI library may fall back to a dumb mode.
    env: { TERM: 'xterm-256color', COLORTERM: 'truecolor', ...options.env },
    ...(options.cols ? { cols: options.cols } : {}),
    ...(options.rows ? { rows: options.rows } : {}),
  })
}
