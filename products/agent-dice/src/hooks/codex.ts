// Codex hooks (R21): the Claude behaviour on the Codex base and rollout depth. Codex fails a Stop
// hook that prints plain stdout, so roll lines go to stderr and only under DEBUG.
import { appendFileSync } from 'node:fs'
import { sessionStart } from '../core/engine.ts'
import { countCodexUserTurns, findCodexRollout } from '../depth/codex.ts'
import { codexRoot, isDebug, resolveBase } from '../host/env.ts'
import { projectHash, validId } from '../host/session.ts'
import { FileDiceStore } from '../store/file-store.ts'
import { sessionEnvLines } from './claude.ts'
import { type HookExit, type HookIo, parseHookInput, reportFailure, stringField } from './io.ts'
import { runStop } from './stop.ts'

/** stdin `transcript_path`, else the rollout found by the stdin session id. */
export function codexTranscript(io: HookIo, input: Record<string, unknown>): string | undefined {
  const path = stringField(input, 'transcript_path')
  if (path) return path
  const id = validId(input.session_id)
  return id ? findCodexRollout(codexRoot(io), id) : undefined
}

export function codexStop(io: HookIo): Promise<HookExit> {
  return runStop(io, () => {
    const input = parseHookInput(io.stdin)
    const store = new FileDiceStore(resolveBase('codex', io))
    return {
      store,
      rollLines: isDebug(io.env) ? 'stderr' : 'none',
      ctx: {
        sessionId: validId(input.session_id) ?? projectHash(io),
        continuation: input.stop_hook_active === true,
        getCurrentDepth: async () => {
          const transcript = codexTranscript(io, input)
          return transcript ? countCodexUserTurns(transcript) : undefined
        },
      },
    }
  })
}

export async function codexSessionStart(io: HookIo): Promise<HookExit> {
  const input = parseHookInput(io.stdin)
  const id = validId(input.session_id)
  try {
    if (input.source === 'startup' || input.source === 'clear') {
      const store = new FileDiceStore(resolveBase('codex', io))
      await sessionStart(store, { sessionId: id ?? projectHash(io) })
    }
  } catch (error) {
    reportFailure(io, 'agent-dice session-start hook error:', error)
  }
  try {
    const envFile = io.env.CODEX_ENV_FILE || io.env.CLAUDE_ENV_FILE
    if (envFile) appendFileSync(envFile, `${id ? sessionEnvLines(id) : ''}export AGENT_DICE_HOST=codex\n`)
  } catch (error) {
    reportFailure(io, 'agent-dice session-start hook error:', error)
  }
  return 0
}
