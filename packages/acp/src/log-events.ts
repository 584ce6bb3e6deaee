// The log-only event this package appends, merged into the session vocabulary. The permission mode
// has its own event (`permission/mode`, @tack/permissions), as have the tools mode (`tools/mode`,
// @tack/tools) and the model (`agent/model`, @tack/agent); `acp/config` is only read, for older logs.

declare module '@tack/session' {
  interface SessionEventMap {
    /** Earlier versions' record of an ACP client setting `configId` (`tools_mode`, `model`) to `value`; no longer written (`tools/mode` and `agent/model` are), still read so their sessions load with it (50-acp.md requirement 7). */
    'acp/config': { configId: string; value: string }
  }
}

export const ACP_LOG_EVENTS = Object.freeze(['acp/config'] as const)
