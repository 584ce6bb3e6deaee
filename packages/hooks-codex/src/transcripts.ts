// One rollout-shaped file per agent session (`rollout.ts`), named by `transcript_path` and brought up to
// date synchronously right before each hook spawn, so a hook reads everything logged so far. A file
// that cannot be written is warned once and the hook still runs (it then finds an older file or none).
import type { Agent } from '@tack/agent'
import { TranscriptFile } from '@tack/hook-protocol'
import type { Session } from '@tack/session'
import type { ToolRegistry } from '@tack/tools'
import { CodexRolloutProjector, rolloutPath } from './rollout.ts'

export interface RolloutFiles {
  /** The file `transcript_path` names for `agent`. */
  path(agent: Agent): string
  /** Appends what `agent`'s log has gained since the last sync. Never throws. */
  sync(agent: Agent): void
}

export function createRolloutFiles(
  dir: string,
  tools: () => Pick<ToolRegistry, 'get'> | undefined,
  warn: (message: string) => void,
): RolloutFiles {
  const files = new WeakMap<Session, TranscriptFile>()
  const warned = new Set<string>()
  const fileOf = (agent: Agent) => {
    let file = files.get(agent.session)
    if (!file) {
      // Tool names are looked up per line, so tools registered later keep their Codex names.
      const lookup = { get: (name: string) => tools()?.get(name, agent) }
      file = new TranscriptFile(
        rolloutPath(dir, agent.session.id),
        agent.session,
        new CodexRolloutProjector(agent.session.header, lookup),
      )
      files.set(agent.session, file)
    }
    return file
  }
  return {
    path: (agent) => rolloutPath(dir, agent.session.id),
    sync(agent) {
      const file = fileOf(agent)
      try {
        file.sync()
      } catch (error) {
        if (warned.has(file.path)) return
        warned.add(file.path)
        warn(
          `could not write the session file ${file.path} (transcript_path): ${error instanceof Error ? error.message : String(error)}`,
        )
      }
    },
  }
}
