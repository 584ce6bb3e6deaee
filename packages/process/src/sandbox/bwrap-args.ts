// The bubblewrap command line for a policy (Linux). Pure: the caller has already looked at the file
// system (which paths exist, which are files) and passes what it found in `layout`.
//
// The command gets fresh user, PID, IPC, UTS and cgroup namespaces (and a network namespace with only
// loopback when the policy denies the network), a fresh /proc — so tack's own process, and the
// environment in its /proc/<pid>/environ, is not there to read — a minimal /dev, no capabilities, and
// no way to make further user namespaces (which could remount what is denied). Mount order matters:
// later mounts cover earlier ones, so the read-only root comes first, then what is writable, then the
// read-only control paths inside it, and last what is hidden, which therefore wins over everything.
//
// `--die-with-parent`: when tack dies, even by SIGKILL, bwrap and every process of the sandbox die with
// it; nothing a command started outlives tack. bwrap itself would also die of the SIGTERM the runner
// sends a group on a timeout or abort, and take the command with it at once, before it could clean up:
// so the runner spares the leader (bwrap) that SIGTERM (`spareLeaderOnTerm`), and only its SIGKILL,
// after the grace, reaches the whole group. The SIGKILL reaches the namespace's init too, whose death
// takes every process of the namespace with it (even one that left the group with `setsid`).
//
// Not used, on purpose: `--new-session`. It would move the command out of the group; it guards against
// TIOCSTI on a terminal, and the runner's commands have none (their own session, pipes, bwrap's /dev).
//
// Folders that hold a read-only or hidden path inside a writable one are bound onto themselves
// (`pinned`): a mount point cannot be renamed, so `.git` cannot be moved aside with its read-only
// `hooks` mount and replaced by a new `.git/hooks`.
import type { SandboxPolicy } from './policy.ts'

export interface BwrapLayout {
  /** The command's working directory. */
  readonly cwd: string
  /** Of `policy.hidden` (and `revealed`), the paths that exist, each with whether it is a folder. */
  readonly existing: ReadonlyMap<string, 'dir' | 'file'>
  /**
   * Real folders inside writable ones to bind onto themselves, so that they cannot be renamed (a mount
   * point cannot): the folders that hold read-only and hidden paths.
   */
  readonly pinned?: readonly string[]
  /** bwrap knows `--disable-userns` (0.8.0 and later, not setuid). */
  readonly disableUserns: boolean
}

export function bwrapArgs(policy: SandboxPolicy, layout: BwrapLayout): string[] {
  const args = ['--unshare-all', '--unshare-user']
  if (policy.network) args.push('--share-net')
  if (layout.disableUserns) args.push('--disable-userns')
  args.push('--cap-drop', 'ALL')
  // With bwrap, tack's death (even SIGKILL) takes the sandbox with it; the runner spares bwrap its
  // SIGTERM, so the command still gets its grace on a timeout or abort.
  args.push('--die-with-parent')
  args.push('--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc')
  // Outer folders first: a bind covers what was mounted below it before.
  const binds = [...policy.writable.filter((path) => layout.existing.has(path)), ...(layout.pinned ?? [])]
  for (const path of [...new Set(binds)].sort((a, b) => depth(a) - depth(b))) {
    args.push('--bind', path, path)
  }
  for (const path of policy.readOnly) {
    if (layout.existing.has(path)) args.push('--ro-bind', path, path)
  }
  const remount: string[] = []
  for (const path of policy.hidden) {
    const kind = layout.existing.get(path)
    if (kind === 'dir') {
      args.push('--tmpfs', path)
      remount.push(path)
    } else if (kind === 'file') {
      // The host's /dev/null: reads are empty, writes vanish. A plain (read-only) bind would mount it
      // `nodev`, and reading a device node there fails with EACCES instead of reading nothing.
      args.push('--dev-bind', '/dev/null', path)
    }
  }
  for (const path of policy.revealed) {
    if (layout.existing.has(path)) args.push('--ro-bind', path, path)
  }
  // The empty folders that hide a directory are writable tmpfs mounts until remounted read-only; this
  // comes after the revealed binds, whose mount points bwrap creates inside them.
  for (const path of remount) args.push('--remount-ro', path)
  args.push('--chdir', layout.cwd)
  return args
}

function depth(path: string): number {
  return path.split('/').filter(Boolean).length
}
