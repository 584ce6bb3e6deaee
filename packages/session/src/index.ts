// @tack/session: the append-only session log, its pure projections, the header codec, crash recovery,
// the store interface with an in-memory store, and the `sessions` cordis plugin.
export * from './errors.ts'
export * from './events.ts'
export { applyHeaderDelta, diffHeader, foldRequestHeader, normalizeHeader } from './request-header.ts'
export {
  blockText,
  contentText,
  formatBytes,
  IMAGE_MIME,
  imageBlock,
  imageBlockOfBytes,
  imageNote,
  imagesOf,
  isImageBlock,
  sniff as imageTypeOf,
} from './image.ts'
export { IMAGE_EXTENSIONS, readImageFile } from './image-file.ts'
export { formatSize, imageBlockSize, type ImageSize, imageSize, longEdge } from './image-size.ts'
export { checkJson, type JsonCheck, jsonEqual, MAX_JSON_DEPTH } from './json.ts'
export { MemorySessionStore } from './memory-store.ts'
export { assistantText, lastAssistantText } from './assistant-text.ts'
export { deriveEventMessage, renderContextEnvelope, toContentBlocks } from './messages.ts'
export { isOneShotRequest, markOneShotRequest, registerRequestOrigin, requestOriginOf } from './origin.ts'
export { INTERRUPTED_RESULT_TEXT, openTurnAt, recoverLog } from './recover.ts'
export { describeForkPoints, type ForkPoint, forkPoints } from './fork-points.ts'
export {
  memorySessionStorePlugin,
  type SessionOrigin,
  SessionsConfig,
  SessionsService,
  sessionsPlugin,
} from './service.ts'
export { Session, type SessionListener, type SessionOptions } from './session.ts'
export { validateSessionHeader } from './session-header.ts'
export type { SessionAccess, SessionStore } from './store.ts'
export { surfaceOf } from './surface.ts'
export {
  cutPrompt,
  type LogSummary,
  SUMMARY_EVENT_TYPES,
  SUMMARY_PROMPT_CHARS,
  SUMMARY_PROMPT_READ_CHARS,
  summarizeLog,
} from './summary.ts'
