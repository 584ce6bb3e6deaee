// The vitest-free part of the testing module, exported as `@tack/session/invariants` so the CLI can
// install the dev-mode checkers under `TACK_DEV=1` without loading (or shipping) vitest.
export { InvariantError } from '../errors.ts'
export { firstDifference } from './diff.ts'
export {
  attachStructureInvariant,
  checkRequestAgainstLog,
  devInvariantsEnabled,
  installRequestInvariant,
  installStructureInvariant,
  type RequestInvariant,
  rebuildRequest,
} from './invariants.ts'
export { checkLogStructure, createStructureChecker, type StructureChecker } from './structure.ts'
