// What the installer manages for each target (R26): the config file, the base folder, our hook
// files and the canonical entry, and which existing entries count as ours.
import { existsSync, realpathSync } from 'node:fs'
import { basename, dirname, isAbsolute, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { HOOK_NAMES, type HookName } from '../hooks/io.ts'
import { claudeDir, codexRoot, type HostEnvironment, nonEmpty, resolveBase } from '../host/env.ts'
import { InstallError } from './config-file.ts'
import { shellQuote, shellWords } from './shell-words.ts'

export type InstallTarget = 'claude' | 'codex'
export type HookEvent = 'Stop' | 'SessionStart'
export const HOOK_EVENTS: readonly HookEvent[] = ['Stop', 'SessionStart']

export interface CommandHook {
  type: 'command'
  command: string
  timeout: number
}

/** This package's root folder (the same from `src/` and from the built `dist/`). */
export const packageRoot = () => join(dirname(fileURLToPath(import.meta.url)), '..', '..')

const realOrSame = (path: string) => {
  try {
    return realpathSync(path)
  } catch {
    return path
  }
}

export const hookFileName = (name: HookName) => `agent-dice-${name}.js`
export const hookFilePath = (name: HookName) => realOrSame(join(packageRoot(), 'hooks', hookFileName(name)))
const OUR_BASENAMES = new Set(HOOK_NAMES.map(hookFileName))

export function hookNameFor(target: InstallTarget, event: HookEvent): HookName {
  return `${target}-${event === 'Stop' ? 'stop' : 'session-start'}`
}

/** `{"type":"command","command":"node '<real path>'","timeout":10}`. */
export function canonicalEntry(target: InstallTarget, event: HookEvent): CommandHook {
  return {
    type: 'command',
    command: `node ${shellQuote(hookFilePath(hookNameFor(target, event)))}`,
    timeout: 10,
  }
}

export interface TargetPaths {
  target: InstallTarget
  configPath: string
  base: string
  /** The Codex root, for recognising the public Codex revision's hook files. */
  codexRoot?: string
}

/** Resolves the target's files; a relative `CODEX_HOME` is refused (it would move with the cwd). */
export function targetPaths(target: InstallTarget, e: HostEnvironment): TargetPaths {
  if (target === 'claude') {
    return { target, configPath: join(claudeDir(e), 'settings.json'), base: resolveBase('claude', e) }
  }
  const raw = nonEmpty(e.env.CODEX_HOME)
  if (raw && !isAbsolute(raw))
    throw new InstallError(`CODEX_HOME must be an absolute path (got '${raw}')`, 'invalid_config')
  const root = codexRoot(e)
  return { target, configPath: join(root, 'hooks.json'), base: resolveBase('codex', e), codexRoot: root }
}

const sameDir = (a: string, b: string) => a === b || realOrSame(a) === realOrSame(b)

/** The script a hook command runs: its last shell word. */
export const scriptOf = (command: string): string | undefined => shellWords(command).at(-1)

/**
 * Whether a hook command is ours: its last word has our hook basename, or is the public version's
 * `dice-stop.ts`/`dice-session-start.ts` under `.claude/hooks/`, or `codex-stop.ts`/
 * `codex-session-start.ts` under `<codex root>/dice/`. Never a substring match.
 */
export function isOwnedCommand(command: unknown, paths: Pick<TargetPaths, 'codexRoot'>): boolean {
  if (typeof command !== 'string') return false
  const script = scriptOf(command)
  if (!script) return false
  const name = basename(script)
  if (OUR_BASENAMES.has(name)) return true
  const dir = dirname(script)
  if ((name === 'dice-stop.ts' || name === 'dice-session-start.ts') && basename(dir) === 'hooks') {
    return basename(dirname(dir)) === '.claude'
  }
  if ((name === 'codex-stop.ts' || name === 'codex-session-start.ts') && paths.codexRoot) {
    return sameDir(dir, join(paths.codexRoot, 'dice'))
  }
  return false
}

/** Whether a hook script named in a command exists. */
export const scriptExists = (command: string) => {
  const script = scriptOf(command)
  return script !== undefined && existsSync(script)
}
