// The `agent` plugin: provides `ctx.agents`, `ctx.modelAdapters` and `ctx.systemPrompt`. It needs
// `ctx.sessions` (from @tack/session) and `ctx.tools` (from @tack/tools).
import { type ConfigOf, definePlugin, Schema } from '@tack/kernel'
import { AgentsService } from './agents.ts'
import { ModelAdapters } from './model-adapters.ts'
import { SystemPromptService } from './system-prompt.ts'

export const AgentConfig = Schema.object({
  maxStepsPerTurn: Schema.integer({
    min: 1,
    max: 10000,
    default: 200,
    description: 'Steps (model requests) one turn may take before it ends with error MAX_STEPS.',
  }),
  model: Schema.string({
    default: '',
    description: 'The default model as `provider/model` for agents that do not set one.',
  }),
})
export type AgentConfig = ConfigOf<typeof AgentConfig>

export const AgentPlugin = definePlugin({
  name: 'agent',
  Config: AgentConfig,
  inject: ['sessions', 'tools'],
  apply(ctx, config) {
    ctx.provide('modelAdapters', new ModelAdapters())
    ctx.provide('systemPrompt', new SystemPromptService())
    ctx.provide('agents', new AgentsService(ctx, config))
  },
})
