// Which project MCP servers the user approved (docs/decisions/0225-mcp-server-sources.md): `$TACK_HOME/mcp-approvals.json`,
// owner-only, per workspace (its real path, as workspace trust keys it) and server name, each bound to
// the hash of the definition as `.mcp.json` wrote it (canonical JSON, `@tack/kernel/canonical-json`, as
// Codex hook trust does). An edit to the definition changes the hash, so the server is asked again. A
// missing or unreadable store approves nothing (fail closed).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { canonicalHash } from '@tack/kernel/canonical-json'
import { replacePrivateFile } from '@tack/kernel/private-files'
import { workspaceKey } from '@tack/kernel/workspace-trust'
import { isRecord } from './definition.ts'

export const APPROVALS_FILE = 'mcp-approvals.json'

/** Per workspace key, per server name: the approved definition's hash. */
export type Approvals = Readonly<Record<string, Readonly<Record<string, string>>>>

/** `approved`: the recorded hash is this definition's; `changed`: recorded for another definition. */
export type ApprovalState = 'approved' | 'unapproved' | 'changed'

export function approvalsFile(tackHome: string): string {
  return join(tackHome, APPROVALS_FILE)
}

/** The hash an approval is bound to: the server's definition as its file wrote it. */
export function definitionHash(written: unknown): string {
  return canonicalHash(written)
}

export function readApprovals(tackHome: string): Approvals {
  try {
    const value = JSON.parse(readFileSync(approvalsFile(tackHome), 'utf8')) as unknown
    const workspaces = isRecord(value) ? value.workspaces : undefined
    if (!isRecord(workspaces)) return {}
    // no prototype: a key `__proto__` read from the file is a key like any other
    const out: Record<string, Record<string, string>> = Object.create(null)
    for (const [key, servers] of Object.entries(workspaces)) {
      if (!isRecord(servers)) continue
      out[key] = Object.fromEntries(
        Object.entries(servers).filter(
          (e): e is [string, string] => typeof e[1] === 'string' && e[1].startsWith('sha256:'),
        ),
      )
    }
    return out
  } catch {
    return {}
  }
}

export function approvalState(
  approvals: Approvals,
  cwd: string,
  name: string,
  written: unknown,
): ApprovalState {
  // own keys only: a server named `toString` or `constructor` must not find Object's own members
  const key = workspaceKey(cwd)
  const forWorkspace = Object.hasOwn(approvals, key) ? approvals[key] : undefined
  const recorded = forWorkspace && Object.hasOwn(forWorkspace, name) ? forWorkspace[name] : undefined
  if (recorded === undefined) return 'unapproved'
  return recorded === definitionHash(written) ? 'approved' : 'changed'
}

/** Records `name`'s current definition as approved for the workspace at `cwd` (read again first). */
export function recordApproval(tackHome: string, cwd: string, name: string, written: unknown): void {
  const current = readApprovals(tackHome)
  const key = workspaceKey(cwd)
  const mine = Object.hasOwn(current, key) ? current[key] : {}
  // computed keys define own properties, so a name like `__proto__` is recorded as itself
  const next = { ...current, [key]: { ...mine, [name]: definitionHash(written) } }
  replacePrivateFile(
    approvalsFile(tackHome),
    `${JSON.stringify({ version: 1, workspaces: next }, null, 2)}\n`,
  )
}
