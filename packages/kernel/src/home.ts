// tack's home folder, resolved in ONE place (80-cli.md §3; docs/decisions/0015-tack-home.md): `$TACK_HOME`
// when set, else `<home>/.tack`. A relative `TACK_HOME` resolves against the working folder, as a shell
// user expects of any path variable — it is never silently ignored. Dependency-free (node: only), so the
// CLI, the bridges and the store share it; agent-dice, a standalone npm package, keeps an identical copy
// (`agent-dice/src/host/env.ts` `tackHome`) whose parity a test checks.
import { homedir } from 'node:os'
import { join, resolve } from 'node:path'

export interface TackHomeOptions {
  /** Resolves a relative `TACK_HOME`; default the process's working folder. */
  readonly cwd?: string
  /** The user's home folder; default `env.HOME`, else the OS home. */
  readonly userHome?: string
}

const nonBlank = (value: string | undefined): string | undefined =>
  value !== undefined && value.trim() !== '' ? value : undefined

/** The absolute path of tack's home folder for `env` (`TACK_HOME`; empty or blank means unset). */
export function resolveTackHome(
  env: Readonly<Record<string, string | undefined>> = process.env,
  opts: TackHomeOptions = {},
): string {
  const configured = nonBlank(env.TACK_HOME)
  if (configured) return resolve(opts.cwd ?? process.cwd(), configured)
  return join(opts.userHome ?? nonBlank(env.HOME) ?? homedir(), '.tack')
}
