// Whether this run's workspace is trusted (80-cli.md §4a.2, docs/decisions/0013-workspace-trust.md):
// recorded by `tack trust` (it or an ancestor folder), or for this one run by `--trust` / `TACK_TRUST=1`
// (meant for CI, where the checkout is the user's own). Interactive `tack` asks once: trust-question.ts.
import { trustedRootOf } from '@tack/kernel/workspace-trust'

export interface WorkspaceTrust {
  readonly trusted: boolean
  /** How: the trust store, the `--trust` flag, `TACK_TRUST=1`, or not at all. */
  readonly via: 'store' | 'flag' | 'env' | 'none'
  /** With `store`: the recorded folder that covers the workspace. */
  readonly root?: string
}

/** How to trust a workspace, for messages. */
export const HOW_TO_TRUST = 'trust it with `tack trust` (or --trust / TACK_TRUST=1 for one run)'

export function workspaceTrust(
  cwd: string,
  tackHome: string,
  flag: boolean | undefined,
  env: NodeJS.ProcessEnv,
): WorkspaceTrust {
  const root = trustedRootOf(cwd, tackHome)
  if (root) return { trusted: true, via: 'store', root }
  if (flag === true) return { trusted: true, via: 'flag' }
  if (env.TACK_TRUST === '1') return { trusted: true, via: 'env' }
  return { trusted: false, via: 'none' }
}

/**
 * Whether trust was given to the whole run (`--trust`, `TACK_TRUST=1`) rather than read from the store
 * for one folder. Only run-wide trust is passed on as the hook bridges' `assumeTrusted`; recorded trust
 * they read themselves, for the folder of each session.
 */
export function trustedForThisRun(trust: WorkspaceTrust): boolean {
  switch (trust.via) {
    case 'flag':
    case 'env':
      return true
    case 'store':
    case 'none':
      return false
    default:
      return trust.via satisfies never
  }
}
