// The one argument that says what a tool call does, for its card (80-cli.md §5.1 "key arguments"):
// the command of bash, the file of read/write/edit, the pattern of a search, the address of a fetch.
// A tool tack does not know shows its first short string argument.

const KEYS: Readonly<Record<string, readonly string[]>> = Object.freeze({
  bash: ['command'],
  read: ['file_path'],
  write: ['file_path'],
  edit: ['file_path'],
  glob: ['pattern', 'path'],
  grep: ['pattern', 'path'],
  web_fetch: ['url'],
  web_search: ['query'],
  subagent: ['description', 'prompt'],
  run_code: ['code'],
})

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

/** The key argument's whole text, as the model wrote it (the permission prompt shows all its lines). */
export function keyArgumentText(name: string, args: Record<string, unknown>): string {
  for (const key of KEYS[name] ?? []) {
    const value = args[key]
    if (typeof value === 'string' && value !== '') return value
  }
  const first = Object.values(args).find((v) => typeof v === 'string' && v !== '')
  return typeof first === 'string' ? first : ''
}

export function keyArgument(name: string, args: Record<string, unknown>): string {
  if (name === 'todo_write' && Array.isArray(args.todos)) return `${args.todos.length} items`
  return firstLineMarked(keyArgumentText(name, args))
}
