// Trusting a folder trusts every folder below it (docs/decisions/0013-workspace-trust.md), so recording `/`,
// the user's home folder or a folder that holds tack's home would make every repository the user ever
// clones trusted without a word. `tack trust` (and the interactive question) refuse such a folder unless
// the user says `--force`; this names why, or nothing when the folder is narrow enough.
import { homedir } from 'node:os'
import { dirname, sep } from 'node:path'
import { workspaceKey } from '@tack/kernel/workspace-trust'

/** Why trusting `dir` would be too broad (one clause for a message), or undefined when it is not. */
export function broadTrustReason(dir: string, env: NodeJS.ProcessEnv, tackHome: string): string | undefined {
  const key = workspaceKey(dir)
  if (dirname(key) === key) return 'it is the root folder, so every folder on this machine would be trusted'
  const userHome = env.HOME?.trim() ? env.HOME : homedir()
  for (const [what, path] of [
    ['your home folder', userHome],
    ["tack's home folder", tackHome],
  ] as const) {
    const inner = workspaceKey(path)
    if (inner === key || inner.startsWith(key.endsWith(sep) ? key : key + sep))
      return `it ${inner === key ? 'is' : 'contains'} ${what} (${inner}), so every project below it would be trusted`
  }
  return undefined
}
