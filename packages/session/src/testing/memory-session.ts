import { SESSION_FORMAT_VERSION } from '../events.ts'
import { Session } from '../session.ts'

let made = 0

/**
 * A real Session held in memory (no store) for tests below the agent loop, its header dated at the
 * epoch so nothing depends on the clock. The id is unique within the process unless one is given.
 */
export function memorySession(cwd: string, id = `mem-${++made}`): Session {
  return new Session({
    header: { version: SESSION_FORMAT_VERSION, id, createdAt: new Date(0).toISOString(), cwd },
  })
}
