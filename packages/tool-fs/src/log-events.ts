// The log-only session event this package appends, merged into the session vocabulary.

import type { TodoItem } from '@tack/tools'

/** One entry of the session's todo list (TL-34): the type front ends know from `@tack/tools`. */
export type { TodoItem }

declare module '@tack/session' {
  interface SessionEventMap {
    /** The agent replaced the session's todo list with `todos` (TL-34); the last one is the current list. */
    'todo/write': { todos: readonly TodoItem[] }
  }
}

/** Every event type this package appends. */
export const FS_TOOLS_LOG_EVENTS = Object.freeze(['todo/write'] as const)
