export { Service } from 'cordis'
export type { Events, Plugin } from 'cordis'
export * from './context.ts'
export * from './config.ts'
export * from './emit.ts'
export * from './freeze.ts'
export * from './seam.ts'
export type { Waterfall } from './seam-types.ts'
export { isSeamName, listenersOf, type SeamListener } from './seam-registry.ts'
export {
  builtinScope,
  declaredSeamPhases,
  declareSeamPhases,
  type SeamPhase,
  seamPhases,
} from './seam-phases.ts'
export * from './secrets.ts'
export * from './dispatch.ts'
export * from './plugin.ts'
export * from './home.ts'
export * from './workspace-trust.ts'
export * from './private-files.ts'
