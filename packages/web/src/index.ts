// @tack/web: `tack serve`, a web view of sessions and jobs (95-fleet.md F5, docs/decisions/0360-web-view.md).
export { isLoopback, newToken, tokensMatch } from './access.ts'
export { ServeConfig, ServePlugin, serveConfig } from './config.ts'
export {
  type JobAttempt,
  JobActionError,
  type JobDetail,
  type JobSource,
  type JobState,
  type JobSummary,
  type JobUsage,
} from './jobs.ts'
export { type Projection, SessionFeed, type SessionPage } from './session-feed.ts'
export { startWebServer, type WebServer, type WebServerOptions } from './server.ts'
