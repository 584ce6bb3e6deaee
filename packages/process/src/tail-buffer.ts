// A ring of bytes that keeps the last `capacity` bytes of a stream. Memory is bounded by the capacity
// however much the process writes (R2), and it is allocated as output arrives (doubling), so a quiet
// command with a large configured cap costs little.

const INITIAL_BYTES = 4096

export class TailBuffer {
  readonly capacity: number
  #buffer: Buffer = Buffer.alloc(0)
  /** Bytes held (≤ capacity). Until the ring is full they occupy [0, size). */
  #size = 0
  /** Once full: where the oldest byte is, and where the next byte goes. */
  #head = 0
  #total = 0

  constructor(capacity: number) {
    this.capacity = Math.max(0, Math.floor(capacity))
  }

  /** Every byte pushed so far, held or not. */
  get totalBytes(): number {
    return this.#total
  }

  /** Whether bytes were dropped from the front. */
  get truncated(): boolean {
    return this.#total > this.#size
  }

  push(chunk: Uint8Array): void {
    this.#total += chunk.length
    const cap = this.capacity
    if (cap === 0 || chunk.length === 0) return
    if (chunk.length >= cap) {
      this.#grow(cap)
      this.#buffer.set(chunk.subarray(chunk.length - cap))
      this.#size = cap
      this.#head = 0
      return
    }
    if (this.#size + chunk.length <= cap) {
      // Not full yet: append (the ring has not wrapped, so data is contiguous from 0).
      this.#grow(this.#size + chunk.length)
      this.#buffer.set(chunk, this.#size)
      this.#size += chunk.length
      this.#head = this.#size % cap
      return
    }
    // Full from now on: overwrite the oldest bytes, wrapping at the end.
    this.#grow(cap)
    const first = Math.min(chunk.length, cap - this.#head)
    this.#buffer.set(chunk.subarray(0, first), this.#head)
    if (first < chunk.length) this.#buffer.set(chunk.subarray(first), 0)
    this.#head = (this.#head + chunk.length) % cap
    this.#size = cap
  }

  /** The held bytes, oldest first (a copy). */
  bytes(): Buffer {
    if (this.#size < this.capacity) return Buffer.from(this.#buffer.subarray(0, this.#size))
    return Buffer.concat([this.#buffer.subarray(this.#head), this.#buffer.subarray(0, this.#head)])
  }

  /** The held bytes decoded as UTF-8 (see `decodeTail`). */
  text(): string {
    return decodeTail(this.bytes(), this.truncated)
  }

  #grow(needed: number): void {
    if (this.#buffer.length >= needed) return
    const size = Math.min(this.capacity, Math.max(needed, INITIAL_BYTES, this.#buffer.length * 2))
    const next = Buffer.alloc(size)
    next.set(this.#buffer.subarray(0, this.#size))
    this.#buffer = next
  }
}

/**
 * Decodes output bytes as UTF-8, never throwing: invalid sequences (binary output) become U+FFFD.
 * When the front was cut, the cut may fall inside a character; its orphaned continuation bytes (at most
 * three) are dropped rather than shown as a replacement character.
 */
export function decodeTail(bytes: Uint8Array, truncated: boolean): string {
  let start = 0
  if (truncated) {
    while (start < 3 && start < bytes.length && (bytes[start] & 0xc0) === 0x80) start++
  }
  return new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes.subarray(start))
}
