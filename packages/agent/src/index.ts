export * from './types.ts'
export type * from './seams.ts'
export * from './errors.ts'
export { ABORTED, settledOrAborted } from './abortable.ts'
export { AgentsService } from './agents.ts'
export { AgentPlugin, AgentConfig } from './plugin.ts'
export { callModel, matchesModel, ModelAdapters } from './model-adapters.ts'
export { SystemPromptService, addSystemPromptSection, type SystemPromptSection } from './system-prompt.ts'
export { CANCELLED_BEFORE_ADMISSION, CONTINUATION_SOURCE } from './admission.ts'
import './seams.ts'
export { loopAgentOf } from './loop-agent.ts'
export { setAgentModel, switchAgentModel, switchedModelOf } from './model-switch.ts'
export {
  type EffortChoice,
  effortOf,
  isEffortChoice,
  setAgentEffort,
  switchedEffortOf,
} from './effort-switch.ts'
