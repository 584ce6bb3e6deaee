export * from './script.ts'
export { createScriptedModel, play, ScriptExhaustedError, type ScriptedModel } from './scripted-model.ts'
export {
  bootKernel,
  createTestAgent,
  SCRIPTED_MODEL,
  type TestAgent,
  type TestAgentOptions,
  type TestPlugin,
} from './test-agent.ts'
export { installStatusInvariant } from './status-checker.ts'
export {
  installRequestInvariant,
  installStructureInvariant,
  type RequestInvariant,
  STATUS_MOVES,
} from './invariants.ts'
export { settlesWithin } from './settles-within.ts'
