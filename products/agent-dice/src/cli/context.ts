// The CLI's view of its host (R13, R16): which base folder, which session, and where depth comes
// from — claude reads the Claude transcript, codex the rollout, tack has no depth source.
import type { CoreCheckContext } from '../core/types.ts'
import { validateSessionId } from '../core/validate.ts'
import { countClaudeUserTurns, findClaudeTranscript } from '../depth/claude.ts'
import { countCodexUserTurns, findCodexRollout } from '../depth/codex.ts'
import { CLI_HOSTS, codexRoot, type HostEnvironment, type HostKind, resolveBase } from '../host/env.ts'
import { envSessionId, projectHash, sessionFromTranscriptPath } from '../host/session.ts'
import { FileDiceStore } from '../store/file-store.ts'
import { CliError } from './errors.ts'

/** `AGENT_DICE_HOST` (empty = default `claude`); anything unknown is an error. */
export function cliHost(e: HostEnvironment): HostKind {
  const value = e.env.AGENT_DICE_HOST
  if (!value) return 'claude'
  if ((CLI_HOSTS as readonly string[]).includes(value)) return value as HostKind
  throw new CliError(
    'invalid_config',
    `Error: Unknown AGENT_DICE_HOST "${value}" (expected claude, codex or tack)`,
  )
}

/** Pins the CLI to a host for embedders (pi's `/dice`, `tack dice`): base, session and depth. */
export interface EmbeddedHost {
  kind: HostKind
  /** Base folder; default per R13 for `kind`. */
  base?: string
  /** The host's own session, used when no `--session` is given. */
  sessionId?: string
  /** The host's own depth source (undefined = unknown). */
  depth?: () => number | undefined
}

export function cliStore(e: HostEnvironment, host: HostKind, base?: string): FileDiceStore {
  return new FileDiceStore(base ?? resolveBase(host, e))
}

/** The embedder's session and depth, unless `--session` names another session. */
export function embeddedContext(
  e: HostEnvironment,
  embedded: EmbeddedHost,
  sessionFlag: string | undefined,
): CoreCheckContext {
  if (sessionFlag === undefined && embedded.sessionId && embedded.depth) {
    const depth = embedded.depth
    return { sessionId: embedded.sessionId, getCurrentDepth: async () => depth() }
  }
  return cliContext(e, embedded.kind, sessionFlag ?? embedded.sessionId)
}

/** `--session` → session env vars → the transcript found (claude) → project hash. */
export function cliContext(
  e: HostEnvironment,
  host: HostKind,
  sessionFlag: string | undefined,
): CoreCheckContext {
  if (sessionFlag !== undefined) validateSessionId(sessionFlag)
  const known = sessionFlag ?? envSessionId(e)
  let transcript: string | undefined
  let count: ((path: string) => number) | undefined
  switch (host) {
    case 'claude':
      transcript = findClaudeTranscript(e, known)
      count = countClaudeUserTurns
      break
    case 'codex':
      transcript = known ? findCodexRollout(codexRoot(e), known) : undefined
      count = countCodexUserTurns
      break
    case 'tack':
    case 'pi':
      break
    default: {
      const never: never = host
      return never
    }
  }
  const sessionId =
    known ?? (transcript ? sessionFromTranscriptPath(transcript) : undefined) ?? projectHash(e)
  let depth: Promise<number | undefined> | undefined
  return {
    sessionId,
    getCurrentDepth: () => {
      depth ??= Promise.resolve(transcript && count ? count(transcript) : undefined)
      return depth
    },
  }
}
