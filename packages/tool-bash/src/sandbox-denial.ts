// When a sandboxed command fails, whether the sandbox is the likely cause, read from its output: a
// write refused with "Read-only file system" (EROFS) on a path the policy does not let it write, a
// read refused ("Permission denied", EACCES, or a missing file) under a hidden path, or a network error with
// the network off. The model then reads which path it was and the way out (0315-leaving-the-sandbox.md):
// ask for that one command to run outside the sandbox, which a person (or a user's rule) allows.
// Only a path the policy really protects is named: a read-only mount elsewhere is not the sandbox's doing.
import { isAbsolute, resolve } from 'node:path'
import { isWithin, type SandboxPolicy } from '@tack/process'

export type SandboxDenial =
  | { readonly kind: 'read-only'; readonly path: string; readonly protectedBy?: string }
  | { readonly kind: 'hidden'; readonly path: string; readonly hiddenBy: string }
  | { readonly kind: 'network' }

const READ_ONLY = /read-only file system|\bEROFS\b/i
const DENIED = /permission denied|\bEACCES\b|\bEPERM\b/i
const NETWORK =
  /could not resolve host|temporary failure in name resolution|name or service not known|network is unreachable|\bENETUNREACH\b|\bEAI_AGAIN\b|\bENOTFOUND\b|getaddrinfo/i

/** The first sandbox denial the output shows, if any. `cwd` resolves relative paths. */
export function sandboxDenial(output: string, policy: SandboxPolicy, cwd: string): SandboxDenial | undefined {
  for (const line of output.split('\n')) {
    if (READ_ONLY.test(line)) {
      const path = pathIn(line, READ_ONLY, cwd)
      const denial = path && readOnlyDenial(path, policy)
      if (denial) return denial
    } else if (DENIED.test(line)) {
      const path = pathIn(line, DENIED, cwd)
      const hiddenBy = path && policy.hidden.find((hidden) => isWithin(path, hidden))
      if (path && hiddenBy) return { kind: 'hidden', path, hiddenBy }
    } else if (!policy.network && NETWORK.test(line)) return { kind: 'network' }
  }
  return undefined
}

function readOnlyDenial(path: string, policy: SandboxPolicy): SandboxDenial | undefined {
  const protectedBy = policy.readOnly.find((folder) => isWithin(path, folder))
  if (protectedBy) return { kind: 'read-only', path, protectedBy }
  // Writable folders are writable: a read-only file system there is not the sandbox's.
  if (policy.writable.some((folder) => isWithin(path, folder))) return undefined
  return { kind: 'read-only', path }
}

/**
 * The path an error line names: a quoted one (`'…'`, `"…"`, `` `…' ``, as git, coreutils, npm and Python
 * write them), else the `path:` before the error text (bash's own redirections).
 */
function pathIn(line: string, error: RegExp, cwd: string): string | undefined {
  const quoted = [...line.matchAll(/['"`]([^'"`\n]+)['"]/g)].map((match) => match[1])
  const found = quoted.find((text) => text.includes('/')) ?? quoted.find((text) => !/\s/.test(text))
  if (found) return absolute(found, cwd)
  const at = line.search(error)
  const before = line.slice(0, at).replace(/[:\s]+$/, '')
  const bare = /(\S+)$/.exec(before)?.[1]
  return bare?.includes('/') ? absolute(bare, cwd) : undefined
}

const absolute = (path: string, cwd: string): string =>
  isAbsolute(path) ? resolve(path) : resolve(cwd, path)

/** The note the model reads after the output: what the sandbox stopped, and the way out. */
export function denialNote(denial: SandboxDenial, mode: string, command: string): string {
  const what = whatWasStopped(denial)
  if (mode === 'read-only')
    return `[the sandbox stopped this: ${what}. The session is in read-only mode, which does not allow leaving the sandbox; tell the user what you wanted to do.]`
  return `[the sandbox stopped this: ${what}. To run this one command outside the sandbox, call bash again with the same command, "sandbox_permissions": "require_escalated" and a "justification" (one sentence the user reads); the user allows or denies it. ${upFront(denial, command)} Do not try to work around the sandbox another way.]`
}

/**
 * The grants a person could give before the run, as concretely as known: an allow rule for this command
 * (allow rules never match a compound command, packages/permissions rules.ts), a control folder to open.
 */
function upFront(denial: SandboxDenial, command: string): string {
  const simple = !/[;&|<>`\n\r]|\$\(/.test(command.trim()) && !command.includes("'")
  const rule = simple ? `--allow 'bash:${command.trim()}'` : `--allow 'bash:COMMAND' for a simple command`
  const folder = denial.kind === 'read-only' && denial.protectedBy ? denial.protectedBy : 'PATH'
  return `The user can also allow it up front (${rule}) or make a folder writable (--sandbox-writable ${folder}).`
}

function whatWasStopped(denial: SandboxDenial): string {
  switch (denial.kind) {
    case 'read-only':
      return denial.protectedBy
        ? `${denial.path} is inside ${denial.protectedBy}, which the sandbox keeps read-only`
        : `${denial.path} is outside the folders the sandbox lets commands write (the workspace and the temp folders)`
    case 'hidden':
      return `${denial.path} is hidden from sandboxed commands (${denial.hiddenBy} holds credentials or tack's own files)`
    case 'network':
      return 'the network is off for sandboxed commands (plugins.bash.sandboxNetwork: deny)'
  }
}
