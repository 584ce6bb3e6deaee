// The file names of `rg --json` output (docs/decisions/0330-search-at-ripgrep-speed.md). `grep`'s
// content pre-filter asks rg for JSON instead of `--files-with-matches --null`: as exact (a name holding
// a newline, or bytes that are not UTF-8, comes back whole), but rg writes it message by message, where
// with `--null` it buffers, and under CPU contention that run waits far longer for the same CPU time.
// Only `begin` messages (one per file with a match) and the closing `summary` are kept: a `match`
// message carries the whole matching line, which may be megabytes, so it is skipped as it streams.

/** How a kept line starts; any other line (a `match`, an `end`) is dropped unread. */
const KEPT = [Buffer.from('{"type":"begin"'), Buffer.from('{"data":{"elapsed_total"')]
const DECIDE_AT = Math.max(...KEPT.map((prefix) => prefix.length))

export class JsonFileNames {
  private readonly found: string[] = []
  private parts: Buffer[] = []
  private length = 0
  /** undefined: not decided yet for the current line. */
  private keep: boolean | undefined
  private withMatch: number | undefined
  private broken = false

  push(chunk: Buffer): void {
    let start = 0
    while (start < chunk.length) {
      const newline = chunk.indexOf(10, start)
      const end = newline === -1 ? chunk.length : newline
      if (this.keep !== false) {
        this.parts.push(chunk.subarray(start, end))
        this.length += end - start
        if (this.keep === undefined && this.length >= DECIDE_AT) this.decide()
      }
      if (newline === -1) return
      if (this.keep !== false && this.length > 0) this.take(Buffer.concat(this.parts).toString('utf8'))
      this.parts = []
      this.length = 0
      this.keep = undefined
      start = newline + 1
    }
  }

  /** The names, or undefined when the output was not what rg 0.10 and later write (the caller walks). */
  names(): string[] | undefined {
    if (this.broken || this.withMatch !== this.found.length) return undefined
    return this.found
  }

  private decide(): void {
    const head = Buffer.concat(this.parts).subarray(0, DECIDE_AT)
    this.keep = KEPT.some((prefix) => head.subarray(0, prefix.length).equals(prefix))
    if (!this.keep) this.parts = []
  }

  private take(line: string): void {
    try {
      const message = JSON.parse(line) as {
        type?: string
        data?: { path?: { text?: string; bytes?: string }; stats?: { searches_with_match?: number } }
      }
      if (message.type === 'begin') {
        const path = message.data?.path
        // Bytes that are not UTF-8 decode as the whole output did before: U+FFFD where they fail.
        const name =
          path?.text ?? (path?.bytes ? Buffer.from(path.bytes, 'base64').toString('utf8') : undefined)
        if (name === undefined) this.broken = true
        else this.found.push(name)
      } else if (message.type === 'summary') this.withMatch = message.data?.stats?.searches_with_match
    } catch {
      this.broken = true
    }
  }
}
