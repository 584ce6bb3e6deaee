// The `agent` plugin: provides `ctx.agents`, `ctx.modelAdapters` and `ctx.systemPrompt`. It needs
// `ctx.sessions` (from @tack/session) and `ctx.tools` (from @tack/tools).
import { type ConfigOf, definePlugin, Schema } from '@tack/kernel'
import { SDK_SECTION_NAME, SDK_SECTION_ORDER } from '@tack/tools'
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
    const systemPrompt = new SystemPromptService()
    // TL-19, TL-21: the Code Mode SDK, built by the registry from the current tool set at each
    // assembly; '' (dropped) in native mode, a throw (turn error) without a code runtime (TL-20).
    systemPrompt.section({
      name: SDK_SECTION_NAME,
      order: SDK_SECTION_ORDER,
      text: () => ctx.tools.sdkSection(),
    })
    ctx.provide('systemPrompt', systemPrompt)
    ctx.provide('agents', new AgentsService(ctx, config))
  },
})
