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
// Not used, on purpose: `--die-with-parent` and `--new-session`. The runner signals the command's
// process group: SIGTERM first, SIGKILL after a grace. bwrap itself dies of the SIGTERM; with
// `--die-with-parent` that would SIGKILL the command at once, so a command could never clean up. Without
// it the command, still in the group, gets the SIGTERM, and the SIGKILL reaches the namespace's init,
// whose death takes every process of the namespace with it (even one that left the group with
// `setsid`). `--new-session` would move the command out of the group; it guards against TIOCSTI on a
// terminal, and the runner's commands have none (their own session, pipes, bwrap's own /dev).
import type { SandboxPolicy } from './policy.ts'

export interface BwrapLayout {
  /** The command's working directory. */
  readonly cwd: string
  /** Of `policy.hidden` (and `revealed`), the paths that exist, each with whether it is a folder. */
  readonly existing: ReadonlyMap<string, 'dir' | 'file'>
  /** bwrap knows `--disable-userns` (0.8.0 and later, not setuid). */
  readonly disableUserns: boolean
}

export function bwrapArgs(policy: SandboxPolicy, layout: BwrapLayout): string[] {
  const args = ['--unshare-all', '--unshare-user']
  if (policy.network) args.push('--share-net')
  if (layout.disableUserns) args.push('--disable-userns')
  args.push('--cap-drop', 'ALL')
  args.push('--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc')
  for (const path of policy.writable) {
    if (layout.existing.has(path)) args.push('--bind', path, path)
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
