// Where tack keeps its files. `TACK_HOME` moves the whole folder (default `~/.tack`).
import { homedir } from 'node:os'
import { join, resolve } from 'node:path'

export interface TackPaths {
  readonly home: string
  readonly userConfig: string
  readonly envFile: string
  readonly sessionsDb: string
  readonly transcripts: string
  readonly scratch: string
  readonly dice: string
}

export function tackPaths(env: NodeJS.ProcessEnv, userHome = homedir()): TackPaths {
  const home = env.TACK_HOME ? resolve(env.TACK_HOME) : join(userHome, '.tack')
  return {
    home,
    userConfig: join(home, 'config.yml'),
    envFile: join(home, '.env'),
    sessionsDb: join(home, 'sessions.db'),
    transcripts: join(home, 'claude-transcripts'),
    scratch: join(home, 'scratch'),
    dice: join(home, 'dice'),
  }
}

/** The project config file of a workspace. */
export function projectConfigPath(cwd: string): string {
  return join(cwd, '.tack', 'config.yml')
}
