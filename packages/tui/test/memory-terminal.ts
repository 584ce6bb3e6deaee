// A terminal in memory for driving InteractiveApp in tests: keys go in through `send`, frames are read
// from the app (`app.frame()`); what pi-tui writes is kept for checks on escape codes.
import type { Terminal } from '@mariozechner/pi-tui'

export class MemoryTerminal implements Terminal {
  written = ''
  #input: ((data: string) => void) | undefined
  #resize: (() => void) | undefined
  #columns: number
  #rows: number

  constructor(columns = 80, rows = 30) {
    this.#columns = columns
    this.#rows = rows
  }

  start(onInput: (data: string) => void, onResize: () => void): void {
    this.#input = onInput
    this.#resize = onResize
  }

  stop(): void {
    this.#input = undefined
  }

  async drainInput(): Promise<void> {}

  write(data: string): void {
    this.written += data
  }

  get columns(): number {
    return this.#columns
  }

  get rows(): number {
    return this.#rows
  }

  get kittyProtocolActive(): boolean {
    return false
  }

  /** Keys as a terminal would send them: one call per key or paste. */
  send(...keys: string[]): void {
    for (const key of keys) this.#input?.(key)
  }

  resize(columns: number, rows: number): void {
    this.#columns = columns
    this.#rows = rows
    this.#resize?.()
  }

  moveBy(): void {}
  hideCursor(): void {}
  showCursor(): void {}
  clearLine(): void {}
  clearFromCursor(): void {}
  clearScreen(): void {}
  setTitle(): void {}
  setProgress(): void {}
}
