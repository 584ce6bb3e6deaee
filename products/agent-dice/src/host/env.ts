// Where each host keeps its data (R13), resolved from an explicit environment object so that two
// hosts can share a process: nothing here reads or writes `process.env`.
import { realpathSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { resolveTackHome } from 'tack-home'

export type HostKind = 'claude' | 'codex' | 'tack' | 'pi'
export const CLI_HOSTS: readonly HostKind[] = ['claude', 'codex', 'tack']

/** The process facts a host adapter reads; tests pass a fake home and environment. */
export interface HostEnvironment {
  readonly env: Readonly<Record<string, string | undefined>>
  readonly cwd: string
  /** Overrides `env.HOME`. */
  readonly home?: string
}

export class BaseDirError extends Error {
  override readonly name = 'BaseDirError'
  constructor() {
    super('Cannot resolve base dir: set AGENT_DICE_BASE or HOME')
  }
}

/** An environment value, with the empty string meaning unset. */
export const nonEmpty = (value: string | undefined): string | undefined => (value ? value : undefined)

export function homeOf(e: HostEnvironment): string | undefined {
  return nonEmpty(e.home) ?? nonEmpty(e.env.HOME)
}

function requireHome(e: HostEnvironment): string {
  const home = homeOf(e)
  if (!home) throw new BaseDirError()
  return home
}

/** `CLAUDE_CONFIG_DIR`, else `<home>/.claude` (transcripts and `settings.json` live here). */
export function claudeDir(e: HostEnvironment): string {
  const configured = nonEmpty(e.env.CLAUDE_CONFIG_DIR)
  return configured ? resolve(e.cwd, configured) : join(requireHome(e), '.claude')
}

/** `CODEX_HOME || <home>/.codex`, made physical when it exists (one identity for aliased roots). */
export function codexRoot(e: HostEnvironment): string {
  const raw = resolve(e.cwd, nonEmpty(e.env.CODEX_HOME) ?? join(requireHome(e), '.codex'))
  try {
    return realpathSync(raw)
  } catch {
    return raw
  }
}

/**
 * tack's home for this environment: the one resolver tack itself uses (`tack-home`, a dependency-free
 * package agent-dice bundles; docs/decisions/0215-one-tack-home-resolver.md), against `e.cwd` and `e.home`.
 */
export function tackHome(e: HostEnvironment): string {
  return resolveTackHome(e.env, { cwd: e.cwd, userHome: homeOf(e) })
}

/** pi's agent folder: `PI_CODING_AGENT_DIR`, else `<home>/.pi/agent`. */
export function piAgentDir(e: HostEnvironment): string {
  const configured = nonEmpty(e.env.PI_CODING_AGENT_DIR)
  return configured ? resolve(e.cwd, configured) : join(requireHome(e), '.pi', 'agent')
}

/**
 * The base folder: the first non-empty of the tack plugin's `base`, `AGENT_DICE_BASE`,
 * `CC_DICE_BASE`, then the host default; a relative value resolves against the cwd.
 */
export function resolveBase(host: HostKind, e: HostEnvironment, configured?: string): string {
  const explicit = nonEmpty(configured) ?? nonEmpty(e.env.AGENT_DICE_BASE) ?? nonEmpty(e.env.CC_DICE_BASE)
  if (explicit) return resolve(e.cwd, explicit)
  switch (host) {
    case 'claude':
      return join(requireHome(e), '.claude', 'dice')
    case 'codex':
      return join(codexRoot(e), 'dice')
    case 'tack':
      return join(tackHome(e), 'dice')
    case 'pi':
      return join(piAgentDir(e), 'dice')
    default: {
      const never: never = host
      return never
    }
  }
}

/** `DEBUG=1`, or a comma list naming `agent-dice`: diagnostics and stacks on stderr. */
export function isDebug(env: HostEnvironment['env']): boolean {
  const value = env.DEBUG
  if (!value) return false
  return value === '1' || value.split(',').some((part) => part.trim() === 'agent-dice')
}
