// The vitest-free part of the testing module, exported as `@tack/session/invariants`: the log checkers
// that need no agent. `@tack/agent/invariants` installs them with the agent-seam checks (the CLI's
// `TACK_DEV=1` and `createTestAgent`) without loading (or shipping) vitest.
export { InvariantError } from '../errors.ts'
export { firstDifference } from './diff.ts'
export {
  attachStructureInvariant,
  checkRequestAgainstLog,
  devInvariantsEnabled,
  installSessionStructureInvariant,
  type RequestLike,
  rebuildRequest,
  reportInvariantViolation,
} from './invariants.ts'
export { checkLogStructure, createStructureChecker, type StructureChecker } from './structure.ts'
