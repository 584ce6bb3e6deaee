// Where `tack run`'s progress goes on stderr (issue 10 item 3). On a terminal: one live status line,
// overwritten in place (`\r` + erase line), that every permanent line is printed above and that is
// erased before the answer prints. Not on a terminal: permanent lines only — a log file or a CI page
// must never fill up with carriage returns.

export interface StatusSink {
  /** A permanent line (no trailing newline needed). */
  line(text: string): void
  /** Replaces the live line (terminal only); `undefined` erases it. */
  status(text: string | undefined): void
  /** Erases the live line for good (before the answer, at exit). */
  clear(): void
  /** Whether the live line is drawn (stderr is a terminal). */
  readonly live: boolean
}

const ERASE = '\r\x1b[2K'

export interface TerminalInfo {
  /** Current width; read at each draw so a resized terminal is honoured. */
  columns(): number
}

/** Cuts `text` to `width` visible characters (an ellipsis marks the cut); one line only. */
export function fitLine(text: string, width: number): string {
  const flat = text.replace(/\s*\n\s*/g, ' ⏎ ')
  const chars = [...flat]
  if (width < 2 || chars.length <= width) return flat
  return `${chars.slice(0, width - 1).join('')}…`
}

export function terminalSink(write: (text: string) => void, terminal: TerminalInfo): StatusSink {
  let shown: string | undefined
  const draw = () => {
    if (shown !== undefined) write(`${ERASE}${fitLine(shown, Math.max(10, terminal.columns() - 1))}`)
  }
  return {
    live: true,
    line(text) {
      write(`${shown !== undefined ? ERASE : ''}${text}\n`)
      draw()
    },
    status(text) {
      if (text === undefined) {
        if (shown !== undefined) write(ERASE)
        shown = undefined
        return
      }
      shown = text
      draw()
    },
    clear() {
      if (shown !== undefined) write(ERASE)
      shown = undefined
    },
  }
}

export function plainSink(write: (text: string) => void): StatusSink {
  return {
    live: false,
    line: (text) => write(`${text}\n`),
    status: () => {},
    clear: () => {},
  }
}

/** ANSI styles, or none when colour is off (`NO_COLOR`, not a terminal). */
export interface Styles {
  dim(text: string): string
  red(text: string): string
  yellow(text: string): string
  green(text: string): string
}

export function styles(enabled: boolean): Styles {
  const wrap = (open: number, close: number) => (text: string) =>
    enabled ? `\x1b[${open}m${text}\x1b[${close}m` : text
  return { dim: wrap(2, 22), red: wrap(31, 39), yellow: wrap(33, 39), green: wrap(32, 39) }
}

/** Colour only on a terminal and only when `NO_COLOR` is unset or empty (https://no-color.org). */
export function colourWanted(env: NodeJS.ProcessEnv, isTerminal: boolean): boolean {
  return isTerminal && !env.NO_COLOR
}
