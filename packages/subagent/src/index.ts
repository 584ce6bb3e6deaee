export { SubagentConfig, SubagentError, SubagentPlugin } from './subagent-tool.ts'
