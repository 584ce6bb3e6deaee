// What a sandboxed command may touch. The caller (the bash tool) decides the policy from the permission
// mode and its config; the launchers (bubblewrap on Linux, seatbelt on macOS) only enforce it. Every
// path is absolute; the launchers do not expand `~` or resolve relative paths.

export interface SandboxPolicy {
  /** Folders the command may write (the workspace, temp folders). Everything else is read-only. */
  readonly writable: readonly string[]
  /**
   * Paths inside writable folders that stay read-only (tack's and the hook bridges' control files).
   * One that does not exist yet is protected too: it cannot be created (see the README).
   */
  readonly readOnly: readonly string[]
  /** Paths whose content the command cannot read (secrets, `$TACK_HOME`). Missing ones are skipped. */
  readonly hidden: readonly string[]
  /** Paths inside hidden ones that stay readable, read-only (the scratch folder of spill files). */
  readonly revealed: readonly string[]
  /** Whether the command may use the network. Without it only a private loopback exists. */
  readonly network: boolean
}

/** Whether `path` is `root` or inside it (both absolute and normalised). */
export function isWithin(path: string, root: string): boolean {
  if (path === root) return true
  const prefix = root.endsWith('/') ? root : `${root}/`
  return path.startsWith(prefix)
}
