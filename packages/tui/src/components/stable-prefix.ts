// Where a streaming answer can be cut so that its start no longer changes: after the last blank line
// that is outside a fenced code block and followed by a line that does not continue an indented block.
// The transcript lays the stable start out once (markdown is slow on long answers: milliseconds per
// frame) and only the tail on each frame; the finished answer is laid out whole.

const FENCE = /^ {0,3}(`{3,}|~{3,})/

/** The length of `text`'s stable start (0 when there is none yet). */
export function stablePrefixLength(text: string): number {
  let inFence = false
  let offset = 0
  let cut = 0
  let previousBlank = false
  for (const line of text.split('\n')) {
    const blank = line.trim() === ''
    if (!inFence && previousBlank && !blank && !/^\s/.test(line) && offset > 0) cut = offset
    if (FENCE.test(line)) inFence = !inFence
    previousBlank = blank && !inFence
    offset += line.length + 1
  }
  return cut
}
