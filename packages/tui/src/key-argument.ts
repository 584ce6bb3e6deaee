// The one argument that says what a tool call does, for its card and the permission question
// (80-cli.md §5.1 "key arguments"): each tool declares it (its presentation in @tack/tools); this file
// only fits it onto one line.

/** One line: newlines and runs of blanks collapse to one space. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}

/**
 * A value as one line. Several lines show as the first and a count of the others — `git status (+1 more
 * line)` — never joined into one, where a second command would read as the first one's argument.
 */
export function firstLineMarked(text: string): string {
  const lines = text.split('\n').filter((l) => l.trim() !== '')
  if (lines.length <= 1) return oneLine(text)
  const more = lines.length - 1
  return `${oneLine(lines[0] ?? '')} (+${more} more line${more === 1 ? '' : 's'})`
}

/** The key argument on one line: its first line and a count of the others. */
export function keyArgument(text: string): string {
  return firstLineMarked(text)
}
