// tack's home folder, resolved in ONE place (80-cli.md §3; docs/decisions/0015-tack-home.md and
// docs/decisions/0215-one-tack-home-resolver.md): `$TACK_HOME` when set and not blank, a relative value
// against the working folder (as a shell user expects of any path variable; never silently ignored),
// else `<home>/.tack`. Plain JavaScript with no dependencies, so the products that run outside tack
// (agent-dice, agent-state) can bundle it in their own tarballs and still answer exactly as tack does;
// its types are in index.d.ts.
import { homedir } from 'node:os'
import { join, resolve } from 'node:path'

/** @param {string | undefined} value */
const nonBlank = (value) => (value !== undefined && value.trim() !== '' ? value : undefined)

/**
 * @param {Readonly<Record<string, string | undefined>>} [env]
 * @param {{ readonly cwd?: string, readonly userHome?: string }} [opts]
 * @returns {string}
 */
export function resolveTackHome(env = process.env, opts = {}) {
  const configured = nonBlank(env.TACK_HOME)
  if (configured) return resolve(opts.cwd ?? process.cwd(), configured)
  return join(nonBlank(opts.userHome) ?? nonBlank(env.HOME) ?? homedir(), '.tack')
}
