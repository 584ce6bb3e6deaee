// The log-only event this package appends, merged into the session vocabulary. The permission mode
// has its own event (`permission/mode`, @tack/permissions); the other choices a client makes are here.

declare module '@tack/session' {
  interface SessionEventMap {
    /** An ACP client set the session's config option `configId` (`tools_mode`, `model`) to `value`; session/load restores it (50-acp.md requirement 7). */
    'acp/config': { configId: string; value: string }
  }
}

export const ACP_LOG_EVENTS = Object.freeze(['acp/config'] as const)
