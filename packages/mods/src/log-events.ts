// The log-only event the mod host appends, merged into the session vocabulary.
import type { FaultKind } from './faults.ts'

declare module '@tack/session' {
  interface SessionEventMap {
    /** A mod's hook was skipped (65-mod-host.md requirement 8): it threw, ran out of budget, answered a wrong shape or changed a pinned key; the session went on. */
    'mod/fault': { mod: string; event: string; kind: FaultKind; message: string }
  }
}

export const MODS_LOG_EVENTS = Object.freeze(['mod/fault'] as const)
