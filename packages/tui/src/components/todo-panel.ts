// The session's todo list (80-cli.md §5.1, from `todo/write` events — 30-tools.md TL-34), above the
// prompt box while it has an unfinished item: one line per item, its mark showing pending / in progress
// / done. A list whose items are all done folds away; the cards in the transcript keep the history.
import { truncateToWidth } from '@mariozechner/pi-tui'
import type { Theme } from '../theme.ts'
import { oneLine } from '../key-argument.ts'
import type { TodoView } from '../view-model.ts'

export function renderTodos(todos: readonly TodoView[], theme: Theme, width: number): string[] {
  if (todos.length === 0 || todos.every((t) => t.status === 'completed')) return []
  const g = theme.glyphs
  const done = todos.filter((t) => t.status === 'completed').length
  const lines = [theme.bold(`Todos ${done}/${todos.length}`)]
  for (const todo of todos) {
    const line =
      todo.status === 'completed'
        ? theme.dim(`${g.todoDone} ${oneLine(todo.content)}`)
        : todo.status === 'in_progress'
          ? theme.accent(`${g.todoActive} ${oneLine(todo.content)}`)
          : `${g.todoPending} ${oneLine(todo.content)}`
    lines.push(truncateToWidth(`  ${line}`, width))
  }
  return lines.map((l) => truncateToWidth(l, width))
}
