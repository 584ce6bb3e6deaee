// @tack/session/testing: the invariant checkers (SL-19, SL-20) and the SessionStore conformance suite
// (SL-26). The suite imports vitest; production code (the CLI's TACK_DEV=1 wiring) imports the
// checkers from `@tack/session/invariants` instead.
export * from './dev.ts'
export { describeSessionStore } from './store-suite.ts'
