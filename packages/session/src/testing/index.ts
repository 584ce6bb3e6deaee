// @tack/session/testing: the invariant checkers (SL-19, SL-20) and the SessionStore conformance suite
// (SL-26). The suite imports vitest; production code imports the checkers from
// `@tack/session/invariants` instead (the CLI's TACK_DEV=1 wiring through `@tack/agent/invariants`).
export * from './dev.ts'
export { describeSessionStore } from './store-suite.ts'
export { expectRecoveredSession } from './recovered.ts'
export { memorySession } from './memory-session.ts'
export { gifHeaderOf, jpegHeaderOf, pngOf, webpHeaderOf } from './images.ts'
