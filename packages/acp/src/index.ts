// @tack/acp: tack as an Agent Client Protocol (v1) server, for editors such as Zed (50-acp.md).
import './log-events.ts'

export { AcpSession } from './acp-session.ts'
export { AcpConfig } from './config.ts'
export { ACP_LOG_EVENTS } from './log-events.ts'
export { AcpPlugin, AcpService } from './plugin.ts'
export type { ProjectMcpApprovals, ProjectServerQuestion } from './project-mcp.ts'
export { AcpServer, type AcpServerOptions, type AcpWorkspace } from './server.ts'
export { redirectConsoleToStderr, serveStdio } from './stdio.ts'
