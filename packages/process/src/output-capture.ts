// Captures a child's stdout and stderr: each into a TailBuffer (one shared buffer when merged) and,
// optionally, every byte into a spill file. While the process may still write, the spill file's
// backpressure pauses the pipes (the child then blocks on a full pipe), so memory stays bounded even
// when the disk is slower than the producer. Never throws: a spill failure is recorded and capture
// goes on in memory.
import { constants, createWriteStream, type WriteStream } from 'node:fs'
import { chmod, lstat, mkdir, open } from 'node:fs/promises'
import { dirname } from 'node:path'
import type { Readable } from 'node:stream'
import { finished } from 'node:stream/promises'
import { setTimeout as delay } from 'node:timers/promises'
import { TailBuffer } from './tail-buffer.ts'

export interface CaptureOptions {
  readonly merge: boolean
  readonly maxOutputBytes: number
  readonly spillPath?: string
}

export interface CapturedOutput {
  readonly stdout: string
  readonly stderr: string
  readonly truncated: boolean
  readonly totalBytes: number
  readonly spillPath?: string
  readonly spillError?: string
}

export class OutputCapture {
  readonly #merge: boolean
  readonly #stdout: TailBuffer
  readonly #stderr: TailBuffer
  readonly #spillPath?: string
  #spill: WriteStream | undefined
  #spillError: string | undefined
  readonly #sources: Readable[] = []
  readonly #closed: Promise<void>[] = []
  /** After the process group is gone the pipes hold at most their kernel buffers: stop pausing. */
  #draining = false
  #paused = false

  constructor(options: CaptureOptions) {
    this.#merge = options.merge
    this.#stdout = new TailBuffer(options.maxOutputBytes)
    this.#stderr = options.merge ? this.#stdout : new TailBuffer(options.maxOutputBytes)
    this.#spillPath = options.spillPath
  }

  /** Creates the spill file (and its folder) when one was asked for. */
  async open(): Promise<void> {
    const path = this.#spillPath
    if (path === undefined) return
    try {
      // Owner-only (issue 9.7): a command's full output may hold anything it printed.
      await mkdir(dirname(path), { recursive: true, mode: 0o700 })
      await tightenFolder(dirname(path))
      // Never through a link: the spill folder may be one a command can write to (a temp folder), and
      // a link planted at the next spill file's path would have tack write the output wherever it points.
      const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW
      const handle = await open(path, flags, 0o600)
      // The mode above applies only to a new file: one an older tack left 0644 is tightened before a
      // byte of this command's output reaches it (docs/decisions/0145-private-files.md).
      const { mode, uid } = await handle.stat()
      if ((mode & OPEN_BITS) !== 0 && uid === process.getuid?.()) await handle.chmod(mode & 0o7700)
      const spill = createWriteStream(path, { fd: handle, highWaterMark: 1 << 20 })
      spill.on('error', (error) => this.#spillFailed(error))
      this.#spill = spill
    } catch (error) {
      this.#spillError = describe(error)
    }
  }

  attach(stream: Readable | null, which: 'stdout' | 'stderr'): void {
    if (!stream) return
    const ring = which === 'stdout' ? this.#stdout : this.#stderr
    this.#sources.push(stream)
    this.#closed.push(new Promise((resolve) => stream.once('close', () => resolve())))
    stream.on('error', () => {}) // a read error ends the stream; what was read is kept
    stream.on('data', (chunk: Buffer) => {
      ring.push(chunk)
      this.#write(chunk)
    })
  }

  /**
   * Called once the process group is gone: reads what is left in the pipes, waiting at most `drainMs`
   * for them to close (a process that escaped the group with setsid may hold them open), then
   * destroys them and closes the spill file.
   */
  async finish(drainMs: number): Promise<void> {
    this.#draining = true
    this.#resume()
    const timer = new AbortController()
    await Promise.race([
      Promise.all(this.#closed),
      delay(drainMs, undefined, { signal: timer.signal }).catch(() => {}),
    ])
    timer.abort()
    for (const source of this.#sources) source.destroy()
    await this.#closeSpill()
  }

  result(): CapturedOutput {
    const truncated = this.#stdout.truncated || this.#stderr.truncated
    const totalBytes = this.#stdout.totalBytes + (this.#merge ? 0 : this.#stderr.totalBytes)
    return {
      stdout: this.#stdout.text(),
      stderr: this.#merge ? '' : this.#stderr.text(),
      truncated,
      totalBytes,
      ...(this.#spillPath !== undefined && this.#spillError === undefined && { spillPath: this.#spillPath }),
      ...(this.#spillError !== undefined && { spillError: this.#spillError }),
    }
  }

  #write(chunk: Buffer): void {
    const spill = this.#spill
    if (!spill) return
    if (spill.write(chunk) || this.#draining || this.#paused) return
    this.#paused = true
    for (const source of this.#sources) source.pause()
    spill.once('drain', () => this.#resume())
  }

  #resume(): void {
    this.#paused = false
    for (const source of this.#sources) source.resume()
  }

  #spillFailed(error: unknown): void {
    this.#spillError ??= describe(error)
    this.#spill = undefined
    this.#resume()
  }

  async #closeSpill(): Promise<void> {
    const spill = this.#spill
    if (!spill) return
    this.#spill = undefined
    try {
      spill.end()
      await finished(spill)
    } catch (error) {
      this.#spillError ??= describe(error)
    }
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/** The group and other bits: a spill file and its folder have none. */
const OPEN_BITS = 0o077

/**
 * Removes group and other bits from the spill's own folder (the session's scratch folder) when an older
 * tack left it open. A link there is left alone (chmod would follow it), and so is a folder another
 * account owns (chmod would fail, and the spill with it). So are folders that are nobody's scratch: the
 * root and its direct children (`/dev`, `/tmp`) and any sticky folder (shared by design). As root a spill
 * named `/dev/full` once made this close `/dev` to everyone else, and PostgreSQL's own user could no
 * longer open /dev/null.
 */
async function tightenFolder(dir: string): Promise<void> {
  const info = await lstat(dir)
  const ours = info.uid === process.getuid?.()
  const systemLevel = dirname(dirname(dir)) === dirname(dir)
  const sticky = (info.mode & 0o1000) !== 0
  if (ours && !systemLevel && !sticky && info.isDirectory() && (info.mode & OPEN_BITS) !== 0)
    await chmod(dir, info.mode & 0o7700)
}
