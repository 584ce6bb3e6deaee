// `tack state enable|disable`: agent-state one command away (issue 26). Enabling links agent-state's mod
// folder into `$TACK_HOME/mods/agent-state`, which every run loads (mod-folders.ts), so from the next
// session on each one writes its state to `<tack home>/agent-state` for `tack state status|watch|tmux`.
// A link, not a copy: the mod is the one of the tack installed, and an upgrade of tack upgrades it too
// (docs/decisions/0320-small-things.md).
import { lstatSync, readlinkSync, rmSync, symlinkSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { privateFolder } from '@tack/kernel/private-files'
import { UsageError } from '../args.ts'
import { CommandError } from '../errors.ts'
import type { CommandIO } from '../io.ts'
import { tackPaths } from '../paths.ts'

/** The folder name under `$TACK_HOME/mods`. */
const LINK_NAME = 'agent-state'

export async function stateSwitch(
  which: 'enable' | 'disable',
  rest: string[],
  io: CommandIO,
): Promise<number> {
  if (rest.length > 0) throw new UsageError(`tack state ${which} takes no arguments (got "${rest[0]}")`)
  const { MOD_DIR } = await import('agent-state')
  const paths = tackPaths(io.env, io.cwd)
  const link = join(paths.mods, LINK_NAME)
  const current = linkTarget(link)
  if (which === 'enable') {
    if (current === 'absent') {
      privateFolder(paths.mods)
      symlinkSync(MOD_DIR, link, 'dir')
    } else if (current === 'not a link' || resolve(paths.mods, current) !== MOD_DIR) {
      // someone's own folder (or a link elsewhere) by that name: not ours to replace
      throw new CommandError(
        `${link} already exists and is not tack's link to ${MOD_DIR}: move it away, or keep it (it loads as a mod already if it is one)`,
      )
    }
    io.out(
      `agent-state is enabled: ${link} -> ${MOD_DIR}\n` +
        `Every tack session from now on writes what it is doing to ${join(paths.home, 'agent-state')};\n` +
        'read it with tack state status (or watch, tmux). tack state disable turns it off.\n',
    )
    return 0
  }
  if (current === 'absent') {
    io.out(`agent-state is not enabled (no ${link})\n`)
    return 0
  }
  if (current === 'not a link' || resolve(paths.mods, current) !== MOD_DIR)
    throw new CommandError(`${link} is not tack's link to ${MOD_DIR}; remove it yourself if you mean to`)
  rmSync(link)
  io.out(`agent-state is disabled: removed ${link} (the state files already written stay)\n`)
  return 0
}

/** What is at `path`: nothing, something that is not a symbolic link, or the link's target. */
function linkTarget(path: string): 'absent' | 'not a link' | string {
  try {
    if (!lstatSync(path).isSymbolicLink()) return 'not a link'
  } catch {
    return 'absent'
  }
  return readlinkSync(path)
}
