// The newest bytes a stdio server wrote to stderr, bounded (spec 55-mcp.md M1): nothing of it is
// printed while the server works; its last line is shown when it fails to start or crashes.
export class StderrTail {
  #text = ''
  readonly #maxBytes: number

  constructor(maxBytes: number) {
    this.#maxBytes = maxBytes
  }

  append(chunk: Buffer | string): void {
    this.#text += chunk.toString()
    // Characters approximate bytes here; the bound is about memory, not exactness.
    if (this.#text.length > this.#maxBytes) this.#text = this.#text.slice(-this.#maxBytes)
  }

  /** Hands what was kept to `other` (a connection's own tail taking over an early-spawned server's). */
  moveTo(other: StderrTail): void {
    if (this.#text) other.append(this.#text)
    this.#text = ''
  }

  /** The last non-empty line, bounded to 300 characters for a one-line warning. */
  lastLine(): string | undefined {
    const line = this.#text.trimEnd().split('\n').pop()?.trim()
    return line ? line.slice(0, 300) : undefined
  }
}
