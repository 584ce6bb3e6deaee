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

export function keyArgument(name: string, args: Record<string, unknown>): string {
  if (name === 'todo_write' && Array.isArray(args.todos)) return `${args.todos.length} items`
  for (const key of KEYS[name] ?? []) {
    const value = args[key]
    if (typeof value === 'string' && value !== '') return oneLine(value)
  }
  const first = Object.values(args).find((v) => typeof v === 'string' && v !== '')
  return typeof first === 'string' ? oneLine(first) : ''
}
