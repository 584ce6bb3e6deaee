// Whether and how one bash call is confined: the permission mode in force for the call decides whether
// the sandbox applies, the config whether it is required, and the machine whether it exists. Where it
// applies but does not exist (`sandbox: auto`), the command runs unconfined and a person is told so
// on stderr, once per session — a warning only a log would hold is a swallowed error.
import { detectSandbox, type ProcessWrapper, type SandboxSupport, sandboxWrapper } from '@tack/process'
import { permissionModeOf } from '@tack/permissions'
import type { SecretsRegistry } from '@tack/kernel'
import type { ToolCallContext } from '@tack/tools'
import type { BashToolConfig } from './config.ts'
import { placeholderLedger, SANDBOXED_MODES, sandboxPolicy } from './sandbox-policy.ts'

export type Confinement =
  | { readonly kind: 'sandboxed'; readonly wrapper: ProcessWrapper }
  | { readonly kind: 'unconfined' }
  | { readonly kind: 'unavailable'; readonly reason: string }

export interface ConfinementOptions {
  /** Where the once-per-session warning goes; default stderr. */
  readonly warn?: (message: string) => void
  /** For tests: the machine's sandbox; default `detectSandbox()`. */
  readonly detect?: () => Promise<SandboxSupport>
  /**
   * What other plugins declared secret (`ctx.secrets`), read at each call: its variables are scrubbed
   * and its files hidden whichever plugin loaded first. The plugin passes its context's registry.
   */
  readonly secrets?: Pick<SecretsRegistry, 'variables' | 'files'>
}

/** One per tool instance: remembers which sessions were warned. */
export function createConfinement(config: BashToolConfig, options: ConfinementOptions = {}) {
  const warned = new Set<string>()
  const warn = options.warn ?? ((message: string) => process.stderr.write(`${message}\n`))
  const detect = options.detect ?? detectSandbox
  return async function confine(call: ToolCallContext, sessionKey: string): Promise<Confinement> {
    if (config.sandbox === 'off') return { kind: 'unconfined' }
    // An agent without a mode of its own is treated as workspace-write: the safe side.
    const mode = permissionModeOf(call.agent, 'workspace-write')
    if (!SANDBOXED_MODES.has(mode)) return { kind: 'unconfined' }
    const support = await detect()
    if (support.kind === 'none') {
      if (config.sandbox === 'on') return { kind: 'unavailable', reason: support.reason }
      if (!warned.has(sessionKey)) {
        warned.add(sessionKey)
        warn(
          `tack: warning: bash runs WITHOUT a sandbox in ${mode} mode: ${support.reason}. Commands can write outside the workspace and read your files. Set plugins.bash.sandbox to off to accept this, or on to refuse to run.`,
        )
      }
      return { kind: 'unconfined' }
    }
    const env = config.env ?? process.env
    const hidden = {
      sandboxExtraDenyRead: [...config.sandboxExtraDenyRead, ...(options.secrets?.files() ?? [])],
    }
    const policy = sandboxPolicy(
      mode as 'workspace-write' | 'read-only',
      call.cwd,
      { ...config, ...hidden },
      env,
    )
    const wrapper = sandboxWrapper(support, policy, { placeholderLedger: placeholderLedger(config) })
    return { kind: 'sandboxed', wrapper }
  }
}
