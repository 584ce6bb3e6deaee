// A worked example of a tack plugin: every behaviour change is a listener on a typed seam, each
// decision is a small union returned (never written into a shared object), and `next()` lets the
// plugin compose with whatever else is installed.
//
//   - agent/prompt-submit    blocks prompts that ask for destructive SQL (recorded as prompt/blocked)
//   - tools/pre-execute      denies tool calls that touch /etc/passwd (the model sees the reason)
//   - tools/post-execute     redacts e-mail addresses in tool results, and adds a reminder as context
//   - agent/turn-continuation forces exactly one "double-check" step per turn
import { type ConfigOf, definePlugin, Schema } from '@tack/kernel'
import { blockText } from '@tack/session'

export const HouseRulesConfig = Schema.object({
  reminder: Schema.string({
    default: 'Cite the file and line for every claim about the code.',
    description: 'Context added after each tool result.',
  }),
  doubleCheck: Schema.string({
    default: 'Before you finish, double-check your answer against the tool results.',
    description: 'The steering line of the one forced continuation per turn.',
  }),
})
export type HouseRulesConfig = ConfigOf<typeof HouseRulesConfig>

const source = { kind: 'plugin', name: 'house-rules' } as const
const EMAIL = /[\w.+-]+@[\w-]+\.[\w.]+/g

export const HouseRules = definePlugin({
  name: 'house-rules',
  Config: HouseRulesConfig,
  apply(ctx, config) {
    ctx.on('agent/prompt-submit', async (_agent, prompt, next) => {
      const text =
        typeof prompt.content === 'string' ? prompt.content : prompt.content.map(blockText).join('')
      if (/\bdrop\s+table\b/i.test(text))
        return { action: 'block', reason: 'destructive SQL is not allowed here' }
      return next()
    })

    ctx.on('tools/pre-execute', async (exec, next) => {
      if (exec.rawArguments.includes('/etc/passwd')) {
        return { action: 'deny', reason: 'house rules: system account files are off limits' }
      }
      return next()
    })

    ctx.on('tools/post-execute', async (_exec, result, next) => {
      const decision = await next()
      if (decision.action !== 'accept') return decision
      const original = result.content.map(blockText).join('')
      const redacted = original.replace(EMAIL, '[email]')
      return {
        action: 'accept',
        ...(redacted !== original
          ? { content: redacted }
          : decision.content !== undefined
            ? { content: decision.content }
            : {}),
        additionalContext: [...(decision.additionalContext ?? []), { content: config.reminder, source }],
      }
    })

    ctx.on('agent/turn-continuation', async (agent, info, next) => {
      const downstream = await next()
      if (downstream.action === 'continue' || info.continuations > 0 || agent.parent) return downstream
      return { action: 'continue', reason: config.doubleCheck }
    })
  },
})
