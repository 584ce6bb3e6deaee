// Text helpers shared by the fs tools: binary detection, line splitting, line endings, hashing.
import { createHash } from 'node:crypto'

/** Bytes inspected for a NUL (TL-12: a NUL in the first 8 KiB makes a file binary). */
export const BINARY_SNIFF_BYTES = 8192

export function looksBinary(head: Uint8Array): boolean {
  return head.subarray(0, BINARY_SNIFF_BYTES).includes(0)
}

export function sha256(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex')
}

/** A line as shown: `text` is at most the configured length; `length` is the whole line's. */
export interface Line {
  readonly text: string
  readonly length: number
}

/** Cuts `line` to `max` UTF-16 units without splitting a surrogate pair. */
export function cutLine(line: string, max: number): Line {
  if (line.length <= max) return { text: line, length: line.length }
  let text = line.slice(0, max)
  const last = text.charCodeAt(text.length - 1)
  if (last >= 0xd800 && last <= 0xdbff) text = text.slice(0, -1)
  return { text, length: line.length }
}

/** The lines of a text: split on LF, a trailing CR dropped, no empty line after a final newline. */
export function* linesOf(text: string, maxLength: number): Generator<Line> {
  if (text === '') return
  let start = 0
  while (start < text.length) {
    let end = text.indexOf('\n', start)
    const last = end === -1
    if (last) end = text.length
    const raw = text.slice(start, end)
    yield cutLine(raw.endsWith('\r') ? raw.slice(0, -1) : raw, maxLength)
    start = end + 1
  }
}

/** The mark appended to a cut line. */
export function cutMark(line: Line): string {
  return line.length > line.text.length ? ` ... [line cut: ${line.length} characters in all]` : ''
}

/**
 * A file uses CRLF when its first line ending is CRLF (git's heuristic). Its text is then handled
 * LF-normalised and written back with CRLF throughout.
 */
export function usesCrlf(text: string): boolean {
  const lf = text.indexOf('\n')
  return lf > 0 && text[lf - 1] === '\r'
}

export const toLf = (text: string): string => text.replaceAll('\r\n', '\n')
export const toCrlf = (text: string): string => text.replaceAll('\n', '\r\n')

/** Counts non-overlapping occurrences of `needle` (non-empty) in `haystack`. */
export function countOccurrences(haystack: string, needle: string): number {
  let count = 0
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + needle.length))
    count++
  return count
}
