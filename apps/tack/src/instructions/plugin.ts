// Project instructions in the session prefix (80-cli §4a.1, issue 10 item 2; docs/decisions/
// 0021-project-instructions.md). On a session's first request the plugin reads the instruction files
// (discover.ts), records what it read as one `instructions/loaded` event, and puts the text first in
// the session prefix. The prefix is folded from that event from then on — in every later step and in
// every resume or fork of the session — so it stays byte-identical even when the files change. Reading
// them emits `agent/instructions-loaded` (never on a resume, which reads nothing).
import type { Agent, LoadedInstructionFile } from '@tack/agent'
import { definePlugin, type ConfigOf, emitSafely, Schema } from '@tack/kernel'
import type { Message, SessionEvent } from '@tack/session'
import { findInstructionFiles, readInstructions, skippedWarning } from './discover.ts'

declare module '@tack/session' {
  interface SessionEventMap {
    /**
     * The project instructions a session's prefix holds (apps/tack instructions plugin): the files read
     * in order, how much of each made it under the cap, and the exact text. Written once per session.
     */
    'instructions/loaded': {
      files: Array<{ path: string; scope: 'user' | 'project'; bytes: number; included: number }>
      text: string
      maxBytes: number
    }
  }
}

/** The largest cap a config may set: 1 MiB of instructions is already far past any useful prompt. */
export const MAX_INSTRUCTION_BYTES = 1024 * 1024

export const InstructionsConfig = Schema.object({
  enabled: Schema.boolean({
    default: true,
    description:
      'Read AGENTS.md and CLAUDE.md ($TACK_HOME, then the repository root down to the working folder) into the session prefix. A session that already recorded its instructions keeps them.',
  }),
  maxBytes: Schema.integer({
    default: 32 * 1024,
    min: 1,
    max: MAX_INSTRUCTION_BYTES,
    description:
      'Bytes of instruction file content a session reads in all; past it the text is cut and a note names what was left out.',
  }),
  home: Schema.absolutePath({
    description: "The folder of the user's own AGENTS.md; the CLI sets $TACK_HOME.",
  }).optional(),
})
export type InstructionsConfig = ConfigOf<typeof InstructionsConfig>

export const InstructionsPlugin = definePlugin({
  name: 'instructions',
  Config: InstructionsConfig,
  apply(ctx, config) {
    ctx.on('agent/session-prefix', async (agent, _seed, _signal, next) => {
      const rest = await next()
      // A file skipped for leading outside its folder is said on stderr (the CLI prints plugin warnings).
      const warn = (line: string) => ctx.logger('instructions').warn(line)
      const text = instructionsOf(agent, config, warn, (files) =>
        emitSafely(ctx, 'agent/instructions-loaded', agent, files, 'session-start'),
      )
      if (!text) return rest
      const message: Message = { role: 'user', content: [{ type: 'text', text }] }
      return [message, ...rest]
    })
  },
})

/** The session's instruction text: recorded earlier, or read now and recorded (once per session). */
function instructionsOf(
  agent: Agent,
  config: InstructionsConfig,
  warn: (line: string) => void,
  loaded: (files: readonly LoadedInstructionFile[]) => void,
): string {
  const events = agent.session.events()
  const recorded = events.find((e) => e.type === 'instructions/loaded') as
    | SessionEvent<'instructions/loaded'>
    | undefined
  if (recorded) return recorded.data.text
  if (!config.enabled || !config.home) return ''
  // A session that already sent requests without instructions (made before this plugin, or while it
  // was off) keeps the prefix it had: adding text now would change every later request's prefix.
  if (events.some((e) => e.type === 'request/header')) return ''
  const read = readInstructions(
    findInstructionFiles({
      tackHome: config.home,
      cwd: agent.cwd,
      onSkip: (skipped) => warn(skippedWarning(skipped)),
    }),
    config.maxBytes,
  )
  agent.session.append('instructions/loaded', {
    files: read.files.map((f) => ({ ...f })),
    text: read.text,
    maxBytes: config.maxBytes,
  })
  // Only files whose text made it in: a file cut to nothing by the cap was not given to the model.
  const given = read.files
    .filter((f) => f.included > 0)
    .map((f) => Object.freeze({ path: f.path, scope: f.scope }))
  if (given.length > 0) loaded(Object.freeze(given))
  return read.text
}
