// The seatbelt profile for a policy (macOS `sandbox-exec -p <profile>`). Pure, so it is unit-tested on
// any platform; it has not been run on a Mac by tack's CI (see docs/decisions/0016-bash-sandbox.md).
//
// Seatbelt's last matching rule wins: everything is allowed, then writes are denied everywhere but the
// writable folders and the devices a shell needs, then the read-only control paths are denied again
// inside them, then hidden paths are denied for reading and writing, and revealed ones allowed for
// reading. Other processes (tack itself) cannot be inspected, so their arguments and environment
// cannot be read. Paths must be canonical (macOS `/tmp` is `/private/tmp`): the caller resolves them.
import type { SandboxPolicy } from './policy.ts'

/** A string literal of the profile language: double quotes, with `\` and `"` escaped. */
export function sbplString(value: string): string {
  return `"${value.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`
}

/** `(subpath "…")` for a folder and what is in it. */
function subpath(path: string): string {
  return `(subpath ${sbplString(path)})`
}

export function seatbeltProfile(policy: SandboxPolicy): string {
  const lines = ['(version 1)', '(allow default)', '(deny file-write*)']
  const writable = [
    ...policy.writable.map(subpath),
    '(literal "/dev/null")',
    '(literal "/dev/zero")',
    '(literal "/dev/dtracehelper")',
    '(regex #"^/dev/tty")',
    '(regex #"^/dev/fd/")',
  ]
  lines.push(`(allow file-write*\n  ${writable.join('\n  ')})`)
  if (policy.readOnly.length > 0) {
    lines.push(`(deny file-write*\n  ${policy.readOnly.map(subpath).join('\n  ')})`)
  }
  if (policy.hidden.length > 0) {
    const hidden = policy.hidden.map(subpath).join('\n  ')
    lines.push(`(deny file-read* file-write*\n  ${hidden})`)
  }
  if (policy.revealed.length > 0) {
    lines.push(`(allow file-read*\n  ${policy.revealed.map(subpath).join('\n  ')})`)
  }
  lines.push('(deny process-info* (target others))')
  if (!policy.network) lines.push('(deny network*)')
  return `${lines.join('\n')}\n`
}
