import './seams.ts'

export type { SubagentEndInfo, SubagentStartInfo } from './seams.ts'
export { SubagentConfig, SubagentError, SubagentPlugin } from './subagent-tool.ts'
