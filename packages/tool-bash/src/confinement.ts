// Whether and how one bash call is confined: the permission mode in force for the call decides whether
// the sandbox applies, the config whether it is required, and the machine whether it exists. Where it
// applies but does not exist (`sandbox: auto`), the command runs unconfined and a person is told so
// on stderr, once per session — a warning only a log would hold is a swallowed error.
import {
  detectSandbox,
  type ProcessWrapper,
  type SandboxPolicy,
  type SandboxSupport,
  sandboxWrapper,
} from '@tack/process'
import { permissionModeOf } from '@tack/permissions'
import type { SecretsRegistry } from '@tack/kernel'
import type { ToolCallContext } from '@tack/tools'
import type { BashToolConfig } from './config.ts'
import { placeholderLedger, SANDBOXED_MODES, sandboxPolicy } from './sandbox-policy.ts'

export type Confinement =
  | {
      readonly kind: 'sandboxed'
      readonly wrapper: ProcessWrapper
      /** What the sandbox allows, to tell a failure it caused (sandbox-denial.ts). */
      readonly policy: SandboxPolicy
      readonly mode: 'workspace-write' | 'read-only'
    }
  /** `escalated`: the sandbox applied, and the call was approved to leave it (0315-leaving-the-sandbox.md). */
  | { readonly kind: 'unconfined'; readonly escalated?: true }
  | { readonly kind: 'unavailable'; readonly reason: string }
  /** The call asked to leave the sandbox without an approval (or in read-only mode): nothing ran. */
  | { readonly kind: 'refused'; readonly reason: string }

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
  return async function confine(
    call: ToolCallContext,
    sessionKey: string,
    escalate = false,
  ): Promise<Confinement> {
    if (config.sandbox === 'off') return { kind: 'unconfined' }
    // An agent without a mode of its own is treated as workspace-write: the safe side.
    const mode = permissionModeOf(call.agent, 'workspace-write')
    if (!SANDBOXED_MODES.has(mode)) return { kind: 'unconfined' }
    // The permission plugin asks a person (or finds a user's rule) before an escalated call runs; the
    // body checks the answer too, so a host without that plugin, or a rewritten input, fails closed.
    if (escalate) {
      if (mode === 'read-only')
        return { kind: 'refused', reason: 'read-only mode does not allow leaving the sandbox' }
      if (call.approval === undefined)
        return {
          kind: 'refused',
          reason: 'leaving the sandbox needs the approval of a person or a user rule, and this call had none',
        }
      return { kind: 'unconfined', escalated: true }
    }
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
    const sandboxed = mode as 'workspace-write' | 'read-only'
    const policy = sandboxPolicy(sandboxed, call.cwd, { ...config, ...hidden }, env)
    const wrapper = sandboxWrapper(support, policy, { placeholderLedger: placeholderLedger(config) })
    return { kind: 'sandboxed', wrapper, policy, mode: sandboxed }
  }
}
