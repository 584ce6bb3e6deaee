// A program in a real pseudo-terminal (`@lydell/node-pty`, prebuilt binaries) whose output is fed to a
// headless xterm (`@xterm/headless`), so a test reads the screen a person would see, not the raw bytes.
// Failures print that screen: a timeout that says only "timed out" is useless for a UI test.
import { readFileSync } from 'node:fs'
import pty from '@lydell/node-pty'
import xterm from '@xterm/headless'
import { KEYS, type KeyName } from './keys.ts'

// @xterm/headless is CommonJS; its classes live on the default export under ESM.
const { Terminal } = xterm
export type HeadlessTerminal = InstanceType<typeof Terminal>

export interface PtyOptions {
  /** The program; its argv after it. */
  readonly file: string
  readonly args?: readonly string[]
  readonly cwd: string
  readonly env: NodeJS.ProcessEnv
  /** Default 100 × 30. */
  readonly cols?: number
  readonly rows?: number
}

export interface PtyExit {
  readonly exitCode: number
  readonly signal: number | undefined
}

export interface WaitOptions {
  /** Default 10 000 ms. */
  readonly timeoutMs?: number
  /** `screen` (default): the visible rows; `all`: the scrollback too. */
  readonly where?: 'screen' | 'all'
}

export interface PtySession {
  /** The child's process id. */
  readonly pid: number
  /** The terminal's current size. */
  readonly cols: number
  readonly rows: number
  /** The headless terminal (for renderers that read cells and colours). */
  readonly terminal: HeadlessTerminal
  /** Writes text as if typed (no Enter). */
  type(text: string): void
  press(key: KeyName): void
  /** The visible rows, right-trimmed, joined with newlines. */
  screen(): string
  /** Scrollback and visible rows. */
  allText(): string
  /** Every byte the program wrote, as text (escape sequences included). */
  raw(): string
  /** Resolves with the screen once `what` shows; rejects with the screen after the timeout. */
  waitFor(what: string | RegExp, options?: WaitOptions | number): Promise<string>
  /** Resolves once `what` no longer shows on the screen. */
  waitForGone(what: string | RegExp, options?: WaitOptions | number): Promise<string>
  /**
   * Writes `keys`, then resolves with the milliseconds from that write until the arrival of the output
   * chunk that made `shows` appear on the screen (keystroke-to-screen latency; the xterm parse is not
   * counted).
   */
  timeKeys(keys: string, shows: string | RegExp, options?: WaitOptions | number): Promise<number>
  /** Resolves once every byte received so far is on the screen. */
  settled(): Promise<void>
  resize(cols: number, rows: number): void
  /** The child's resident set size in bytes (Linux: /proc). */
  rss(): number
  /** Settles when the program exits. */
  readonly exit: Promise<PtyExit>
  /** Kills the program (SIGTERM, then SIGKILL after 2 s) and waits for it. Safe to call twice. */
  close(): Promise<PtyExit>
}

export function startPty(options: PtyOptions): PtySession {
  const cols = options.cols ?? 100
  const rows = options.rows ?? 30
  const terminal = new Terminal({ cols, rows, scrollback: 5000, allowProposedApi: true })
  const child = pty.spawn(options.file, [...(options.args ?? [])], {
    name: 'xterm-256color',
    cols,
    rows,
    cwd: options.cwd,
    env: stringEnv(options.env),
  })
  let raw = ''
  let pendingWrites = 0
  /** When the output chunk parsed last arrived (performance.now()). */
  let lastParsedArrival = 0
  /**
   * Inside a synchronized update (DEC mode 2026, `ESC[?2026h` … `ESC[?2026l`): a terminal shows the frame
   * only once it ends, so neither does the harness — a screen read mid-frame would be half old, half new.
   */
  let midFrame = false
  const watchers = new Set<() => void>()
  const notify = () => {
    for (const w of [...watchers]) w()
  }
  child.onData((data) => {
    const arrived = performance.now()
    raw += data
    const begin = data.lastIndexOf('\x1b[?2026h')
    const end = data.lastIndexOf('\x1b[?2026l')
    const frameState = begin > end ? true : end > begin ? false : undefined
    pendingWrites++
    terminal.write(data, () => {
      pendingWrites--
      if (frameState !== undefined) midFrame = frameState
      lastParsedArrival = arrived
      notify()
    })
  })
  let exited: PtyExit | undefined
  const exit = new Promise<PtyExit>((resolve) => {
    child.onExit(({ exitCode, signal }) => {
      exited = { exitCode, signal }
      resolve(exited)
      notify()
    })
  })

  const rowsText = (from: number, to: number) => {
    const buffer = terminal.buffer.active
    const lines: string[] = []
    for (let y = from; y < to; y++) lines.push(buffer.getLine(y)?.translateToString(true) ?? '')
    return lines.join('\n')
  }
  const screen = () => {
    const top = terminal.buffer.active.viewportY
    return rowsText(top, top + terminal.rows)
  }
  const allText = () => rowsText(0, terminal.buffer.active.length)

  const waitUntil = (
    describe: string,
    test: (text: string) => boolean,
    options: WaitOptions | number | undefined,
  ): Promise<string> => {
    const { timeoutMs = 10_000, where = 'screen' } =
      typeof options === 'number' ? { timeoutMs: options } : (options ?? {})
    const read = where === 'all' ? allText : screen
    return new Promise((resolve, reject) => {
      const check = () => {
        if (pendingWrites > 0 || (midFrame && !exited)) return
        const text = read()
        if (!test(text)) {
          if (exited) finish(new Error(failure(`${describe}, but the program exited ${exited.exitCode}`)))
          return
        }
        finish(undefined, text)
      }
      const timer = setTimeout(
        () => finish(new Error(failure(`${describe} within ${timeoutMs} ms`))),
        timeoutMs,
      )
      const finish = (error: Error | undefined, text?: string) => {
        clearTimeout(timer)
        watchers.delete(check)
        if (error) reject(error)
        else resolve(text ?? '')
      }
      watchers.add(check)
      check()
    })
  }
  const failure = (what: string) =>
    `${what}\n── screen (${terminal.cols}×${terminal.rows}) ──\n${screen()}\n── end of screen ──`
  const matches = (what: string | RegExp) => (text: string) =>
    typeof what === 'string' ? text.includes(what) : what.test(text)

  const session: PtySession = {
    pid: child.pid,
    get cols() {
      return terminal.cols
    },
    get rows() {
      return terminal.rows
    },
    terminal,
    type: (text) => child.write(text),
    press: (key) => child.write(KEYS[key]),
    screen,
    allText,
    raw: () => raw,
    waitFor: (what, opts) => waitUntil(`expected ${String(what)} to show`, matches(what), opts),
    waitForGone: (what, opts) => {
      const shows = matches(what)
      return waitUntil(`expected ${String(what)} to go away`, (t) => !shows(t), opts)
    },
    async timeKeys(keys, shows, opts) {
      if (matches(shows)(screen())) throw new Error(failure(`${String(shows)} shows before typing`))
      const written = performance.now()
      child.write(keys)
      await waitUntil(`expected ${String(shows)} to show after typing`, matches(shows), opts)
      return lastParsedArrival - written
    },
    settled: () =>
      new Promise((resolve) => {
        // An empty write's callback runs after every earlier write has been parsed.
        terminal.write('', () => resolve())
      }),
    resize(c, r) {
      child.resize(c, r)
      terminal.resize(c, r)
    },
    rss: () => processRss(child.pid),
    exit,
    async close() {
      if (!exited) {
        child.kill('SIGTERM')
        const hard = setTimeout(() => {
          if (!exited) child.kill('SIGKILL')
        }, 2000)
        await exit
        clearTimeout(hard)
      }
      terminal.dispose()
      return exit
    },
  }
  return session
}

/** VmRSS of a process, in bytes. */
export function processRss(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)
  if (!kb) throw new Error(`no VmRSS for process ${pid}`)
  return Number(kb[1]) * 1024
}

function stringEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(env)) if (v !== undefined) out[k] = v
  return out
}
