// @tack/permissions: permission modes and allow / deny rules on `tools/pre-execute`.
export {
  isPermissionRule,
  PermissionsConfig,
  type PermissionRule,
} from './config.ts'
export { decide, OUTSIDE_REASON, type ProtectedPath, type Verdict } from './decide.ts'
export { type CallFacts, factsOf, type PathFact } from './facts.ts'
export {
  isPermissionMode,
  isWiderMode,
  loggedMode,
  narrowerMode,
  PERMISSION_MODES,
  type PermissionMode,
  permissionModeOf,
  setPermissionMode,
  settleImportedMode,
} from './modes.ts'
export { PermissionsPlugin } from './plugin.ts'
export { controlFileKind, protectedPathOf } from './protected.ts'
