// Claude Code hooks (R20): Stop rolls; SessionStart clears on `startup`/`clear`/missing source and
// exports the session id through `CLAUDE_ENV_FILE`. Stdout of SessionStart stays empty, because
// Claude Code would hand it to the model.
import { appendFileSync } from 'node:fs'
import { sessionStart } from '../core/engine.ts'
import { countClaudeUserTurns, findClaudeTranscript } from '../depth/claude.ts'
import { resolveBase } from '../host/env.ts'
import { envSessionId, projectHash, sessionFromTranscriptPath, validId } from '../host/session.ts'
import { FileDiceStore } from '../store/file-store.ts'
import { type HookExit, type HookIo, parseHookInput, reportFailure, stringField } from './io.ts'
import { runStop } from './stop.ts'

export interface ClaudeHookContext {
  sessionId: string
  /** The transcript depth is read from, when one is known. */
  transcript?: string
}

/** stdin `session_id` → transcript file name → session env vars → project hash. */
export function resolveClaudeContext(io: HookIo, input: Record<string, unknown>): ClaudeHookContext {
  const path = stringField(input, 'transcript_path')
  const known =
    validId(input.session_id) ?? (path ? sessionFromTranscriptPath(path) : undefined) ?? envSessionId(io)
  const transcript = path ?? findClaudeTranscript(io, known)
  const sessionId =
    known ?? (transcript ? sessionFromTranscriptPath(transcript) : undefined) ?? projectHash(io)
  return { sessionId, transcript }
}

export function claudeStop(io: HookIo): Promise<HookExit> {
  return runStop(io, () => {
    const input = parseHookInput(io.stdin)
    const store = new FileDiceStore(resolveBase('claude', io))
    const { sessionId, transcript } = resolveClaudeContext(io, input)
    return {
      store,
      rollLines: 'stdout',
      ctx: {
        sessionId,
        continuation: input.stop_hook_active === true,
        getCurrentDepth: async () => (transcript ? countClaudeUserTurns(transcript) : undefined),
      },
    }
  })
}

/** `export AGENT_DICE_SESSION_ID="<id>"` and its alias, for later hooks and CLI calls. */
export const sessionEnvLines = (id: string) =>
  `export AGENT_DICE_SESSION_ID="${id}"\nexport CC_DICE_SESSION_ID="${id}"\n`

/** Sources on which Claude Code starts a fresh logical session (not resume, compact or fork). */
const CLEARING = new Set<unknown>([undefined, 'startup', 'clear'])

export async function claudeSessionStart(io: HookIo): Promise<HookExit> {
  const input = parseHookInput(io.stdin)
  try {
    if (CLEARING.has(input.source)) {
      const store = new FileDiceStore(resolveBase('claude', io))
      await sessionStart(store, { sessionId: resolveClaudeContext(io, input).sessionId })
    }
  } catch (error) {
    reportFailure(io, 'agent-dice session-start hook error:', error)
  }
  try {
    const envFile = io.env.CLAUDE_ENV_FILE
    const id = validId(input.session_id)
    if (envFile && id) appendFileSync(envFile, sessionEnvLines(id))
  } catch (error) {
    reportFailure(io, 'agent-dice session-start hook error:', error)
  }
  return 0
}
