// The prompt box's history, kept per folder across sessions: one JSON string per line in
// `<dir>/<sha256 of the folder, 16 hex>.jsonl`, oldest first, at most `max` entries (the file is
// rewritten shorter when it has grown to twice that). A damaged line is skipped; a folder that cannot
// be written keeps the history in memory for this run only (reported once by the caller).
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { privateFolder, writePrivateFile } from '@tack/kernel/private-files'

export class PromptHistory {
  readonly file: string
  readonly #max: number
  #entries: string[] = []

  constructor(dir: string, folder: string, max: number) {
    this.file = join(dir, `${createHash('sha256').update(folder).digest('hex').slice(0, 16)}.jsonl`)
    this.#max = max
  }

  /** The stored prompts, oldest first. */
  load(): readonly string[] {
    if (this.#max === 0) return []
    let text: string
    try {
      text = readFileSync(this.file, 'utf8')
    } catch {
      return []
    }
    const entries: string[] = []
    for (const line of text.split('\n')) {
      if (line === '') continue
      try {
        const value: unknown = JSON.parse(line)
        if (typeof value === 'string' && value.trim() !== '') entries.push(value)
      } catch {
        // a torn last line (a crash mid-append) or a hand edit: skip it
      }
    }
    this.#entries = entries.slice(-this.#max)
    if (entries.length >= 2 * this.#max) this.#rewrite()
    return this.#entries
  }

  /** The most recent prompt, if any. */
  last(): string | undefined {
    return this.#entries.at(-1)
  }

  /** Records a submitted prompt; throws when the file cannot be written (the caller warns once). */
  add(text: string): void {
    if (this.#max === 0 || text.trim() === '' || this.#entries.at(-1) === text) return
    this.#entries.push(text)
    if (this.#entries.length > this.#max) this.#entries.shift()
    privateFolder(dirname(this.file))
    writePrivateFile(this.file, `${JSON.stringify(text)}\n`, { append: true })
  }

  #rewrite(): void {
    try {
      writePrivateFile(this.file, this.#entries.map((e) => `${JSON.stringify(e)}\n`).join(''))
    } catch {
      // read-only: the longer file still loads correctly
    }
  }
}
