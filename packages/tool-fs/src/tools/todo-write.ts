// `todo_write {todos}` (TL-34): replaces the session's todo list. The list lives in the log as a
// log-only `todo/write` event (the last one wins), so the ACP server and the TUI read it from there;
// a call without an agent (a bare registry) has no session and records nothing.
import { defineTool } from '@tack/tools'
import { todoWriteHost } from './todo-write-host.ts'
import type { TodoItem } from '../log-events.ts'
import { todoWritePresentation } from './todo-write-present.ts'

const MARK: Record<TodoItem['status'], string> = { pending: '[ ]', in_progress: '[~]', completed: '[x]' }

export function formatTodos(todos: readonly TodoItem[]): string {
  if (todos.length === 0) return '(empty)'
  return todos
    .map((todo) => `${MARK[todo.status]} ${todo.content}${todo.priority ? ` (${todo.priority})` : ''}`)
    .join('\n')
}

export const todoWriteTool = defineTool({
  name: 'todo_write',
  access: 'session',
  host: todoWriteHost,
  description:
    'Replace the todo list of this session with `todos`. Use it to plan multi-step work and to show progress: keep one item in_progress, mark items completed as soon as they are done.',
  parameters: {
    type: 'object',
    properties: {
      todos: {
        type: 'array',
        description: 'The complete new list.',
        items: {
          type: 'object',
          properties: {
            content: { type: 'string', minLength: 1, description: 'What to do.' },
            status: { enum: ['pending', 'in_progress', 'completed'] },
            priority: { enum: ['high', 'medium', 'low'] },
          },
          required: ['content', 'status'],
        },
      },
    },
    required: ['todos'],
  },
  execute(args, call) {
    const todos: TodoItem[] = args.todos.map((todo) => ({
      content: todo.content,
      status: todo.status,
      ...(todo.priority !== undefined && { priority: todo.priority }),
    }))
    call.agent?.session.append('todo/write', { todos })
    const done = todos.filter((todo) => todo.status === 'completed').length
    return `Todo list updated (${done} of ${todos.length} completed):\n${formatTodos(todos)}`
  },
  present: todoWritePresentation,
})
