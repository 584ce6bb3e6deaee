// How `todo_write` looks (presentation.ts in @tack/tools): planning, shown by the size of the list, its
// result the list itself.
import type { TodoItem, ToolPresentation } from '@tack/tools'
import { textIntents } from '../present.ts'

interface TodoWriteArgs {
  readonly todos: readonly TodoItem[]
}

export const todoWritePresentation: ToolPresentation<TodoWriteArgs, keyof TodoWriteArgs> = {
  kind: 'think',
  key: (args) => `${args.todos.length} ${args.todos.length === 1 ? 'item' : 'items'}`,
  title: (args) => `Update todos (${args.todos.length})`,
  result: (args, result) => (result.isError ? textIntents(result) : [{ kind: 'todos', todos: args.todos }]),
}
