// The interactive mode's trust question (80-cli.md §4a.2, §7.1): `tack` started in a folder that is not
// trusted and holds project config, hooks, plugins or mods asks once whether to trust it. Yes records the
// folder as `tack trust` does; no is remembered for the folder (`$TACK_HOME/trust-declined.json`), so the
// question is not asked again there (Ctrl-C or Ctrl-D leaves tack and decides nothing) — the run goes on untrusted with the usual one-line notice, and
// `tack trust` still trusts it later. Headless runs and ACP never ask (nobody is there to answer).
import { existsSync, readFileSync } from 'node:fs'
import { makeTackHome } from '@tack/kernel/home'
import { replacePrivateFile } from '@tack/kernel/private-files'
import { join } from 'node:path'
import { trustWorkspace, workspaceKey } from '@tack/kernel/workspace-trust'
import type { CommonFlags } from './args.ts'
import { broadTrustReason } from './broad-trust.ts'
import type { CommandIO } from './io.ts'
import { findModFolders } from './mod-folders.ts'
import { printable } from './printable.ts'
import type { Resolved } from './settings.ts'
import { type HeldBack, untrustedNotice } from './untrusted-notice.ts'
import { findUserPlugins } from './user-plugins.ts'

export const DECLINED_FILE = 'trust-declined.json'

/** `trusted`: the folder is trusted now (resolve its settings again); `abort`: Ctrl-C or Ctrl-D, leave. */
export type TrustAnswer = 'trusted' | 'untrusted' | 'abort'

export interface TrustOutcome {
  readonly answer: TrustAnswer
  /** The held-back notice the question was built from (untrusted answers): the run prints this one. */
  readonly heldBack?: HeldBack
}

/** Asks whether to trust the workspace when it holds something trust would let run. */
export async function askToTrust(
  resolved: Resolved,
  flags: CommonFlags,
  io: CommandIO,
): Promise<TrustOutcome> {
  const { settings, paths, cwd, trust } = resolved
  if (trust.trusted || !io.askLine || declined(paths.home).includes(workspaceKey(cwd)))
    return { answer: 'untrusted' }
  const plugins = findUserPlugins(settings, paths, cwd, false)
  const mods = findModFolders(settings, paths, cwd, false, flags.mod, io.cwd)
  const notice = await untrustedNotice(resolved, io.env, plugins.heldBack, mods.heldBack)
  const heldBack = { notice }
  if (!notice) return { answer: 'untrusted', heldBack } // nothing held back: nothing to ask about
  // `/`, the home folder or one holding it: yes would trust every project below, so the question is not offered
  if (broadTrustReason(cwd, io.env, paths.home)) return { answer: 'untrusted', heldBack }
  const held = notice.replace(/^tack: /, '').replace(/ — trust it with[\s\S]*$/, '')
  const answer = await io.askLine(
    `tack: ${held}.\nTrust ${printable(cwd)}? Its project config, hooks, plugins and mods will take effect. [y/N] `,
  )
  if (answer === undefined) {
    io.err('\n') // Ctrl-C or Ctrl-D: nothing decided, nothing remembered
    return { answer: 'abort' }
  }
  if (/^\s*y(es)?\s*$/i.test(answer)) {
    trustWorkspace(cwd, paths.home)
    io.err(`tack: trusted ${printable(cwd)} (tack trust --revoke undoes it)\n`)
    return { answer: 'trusted' }
  }
  remember(paths.home, workspaceKey(cwd))
  io.err('tack: not trusted; tack will not ask again here (tack trust trusts it later)\n')
  return { answer: 'untrusted', heldBack }
}

function declined(home: string): string[] {
  const file = join(home, DECLINED_FILE)
  if (!existsSync(file)) return []
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'))
    return Array.isArray(parsed) ? parsed.filter((p): p is string => typeof p === 'string') : []
  } catch {
    return [] // unreadable: ask again rather than fail the start
  }
}

function remember(home: string, key: string): void {
  const file = join(home, DECLINED_FILE)
  const list = [...new Set([...declined(home), key])]
  try {
    makeTackHome(home)
    replacePrivateFile(file, `${JSON.stringify(list, null, 2)}\n`)
  } catch {
    // not remembered: the question comes again next time, which is safe
  }
}
