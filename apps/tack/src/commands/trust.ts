// `tack trust [DIR]` · `tack trust --list` · `tack trust --revoke [DIR]` (80-cli.md §4a.2, docs/decisions/0013-workspace-trust.md):
// records the workspace (default the current folder, or --cwd) in `$TACK_HOME/trusted-workspaces.json`, so
// its project config, project hooks and project plugins take effect from the next run on.
import { statSync } from 'node:fs'
import { resolve } from 'node:path'
import {
  listTrustedWorkspaces,
  revokeWorkspaceTrust,
  trustedRootOf,
  trustWorkspace,
} from '@tack/kernel/workspace-trust'
import type { CommonFlags } from '../args.ts'
import { UsageError } from '../args.ts'
import type { CommandIO } from '../io.ts'
import { printableIO } from '../printable.ts'
import { tackPaths } from '../paths.ts'
import { broadTrustReason } from '../broad-trust.ts'

export async function trustCommand(args: string[], flags: CommonFlags, terminal: CommandIO): Promise<number> {
  const io = printableIO(terminal) // every line names a folder, whose name a repository's files chose
  if (args.length > 1)
    throw new UsageError('usage: tack trust [--force] [DIR] | tack trust --list | tack trust --revoke [DIR]')
  const home = tackPaths(io.env, io.cwd).home
  if (flags.list) {
    const all = listTrustedWorkspaces(home)
    if (all.length === 0) io.out('no trusted workspaces\n')
    for (const w of all) io.out(`${w.path}${w.trustedAt ? `  (since ${w.trustedAt})` : ''}\n`)
    return 0
  }
  const dir = resolve(io.cwd, args[0] ?? flags.cwd ?? '.')
  if (flags.revoke) {
    const removed = revokeWorkspaceTrust(dir, home)
    const still = trustedRootOf(dir, home)
    io.out(
      removed
        ? `no longer trusted: ${dir}${still ? ` (still trusted through ${still})` : ''}\n`
        : `${dir} was not trusted itself${still ? ` (it is trusted through ${still}: revoke that folder)` : ''}\n`,
    )
    return 0
  }
  if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory())
    throw new UsageError(`tack trust: ${dir} is not a folder`)
  const broad = flags.force ? undefined : broadTrustReason(dir, io.env, home)
  if (broad)
    throw new UsageError(
      `tack trust: refusing to trust ${dir}: ${broad}; trust the project folder itself, or pass --force`,
    )
  const { path, already } = trustWorkspace(dir, home)
  io.out(
    already
      ? `already trusted: ${path}\n`
      : `trusted: ${path} — its .tack/config.yml, project hooks and .tack/plugins/ now take effect (tack trust --revoke undoes it)\n`,
  )
  return 0
}
