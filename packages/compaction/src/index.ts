// @tack/compaction: keeps a long session inside the model's context window (35-compaction.md).
export { type CompactionAnswer, compactionAnswer } from './answer.ts'
export { CompactionConfig } from './config.ts'
export { type CompactionResult, Compactor, SUMMARY_HEADING } from './compactor.ts'
export { COMPACTION_LOG_EVENTS, COMPACTION_SOURCE, type CompactionTrigger } from './log-events.ts'
export {
  fixedChars,
  measurePressure,
  messageChars,
  type Pressure,
  type RequestParts,
  tokensOf,
} from './pressure.ts'
export { type CompactionPlan, planCompaction } from './retention.ts'
export { renderTranscript, SUMMARY_SYSTEM_PROMPT, summaryRequest } from './summary.ts'
export { type CompactOptions, CONTEXT_TOO_LONG, CompactionPlugin, CompactionService } from './plugin.ts'
export type { PostCompactInfo, PostCompactResult, PreCompactDecision, PreCompactInfo } from './seams.ts'
import './seams.ts'
