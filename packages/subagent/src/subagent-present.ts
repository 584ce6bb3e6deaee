// How the subagent tool looks (presentation.ts in @tack/tools): delegated thinking, named by the few
// words the model chose for the task, not the whole prompt as JSON.
import type { ToolPresentation } from '@tack/tools'

interface SubagentArgs {
  readonly description: string
  readonly prompt: string
}

export const subagentPresentation: ToolPresentation<SubagentArgs, keyof SubagentArgs> = {
  kind: 'think',
  key: ['description', 'prompt'],
  title: (args) => `subagent: ${args.description}`,
}
