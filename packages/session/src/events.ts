// The session log's vocabulary: the envelope, every core event type and its payload, and the shared
// value types they carry. Plugins add members by declaration merging into `SessionEventMap` (and
// `TurnEndReasonMap`, `MessageSourceMap`, `TurnTriggerMap`); each member's doc comment feeds the
// generated catalog (docs/session-events.md).

/** A JSON value, as stored (SL-2). */
export type JsonValue =
  | null
  | boolean
  | number
  | string
  | readonly JsonValue[]
  | { readonly [key: string]: JsonValue }

/** Words in message content; a string input is stored as one text block. */
export type TextBlock = { type: 'text'; text: string }
/**
 * An image, its bytes as base64 text written once in the event that brought it, with their SHA-256
 * (lower-case hex) and size; `imageBlock` in image.ts builds one (docs/decisions/0255-image-content.md).
 */
export type ImageBlock = {
  type: 'image'
  mimeType: string
  data: string
  sha256: string
  bytes: number
  /** Never set: an image has no text (`blockText` gives its note), so `block.text` reads as absent. */
  text?: never
}
/** A block of message content: words, or (in tool results today) an image. */
export type ContentBlock = TextBlock | ImageBlock
/** Content as callers give it. */
export type Content = string | readonly ContentBlock[]

export interface MessageSourceMap {
  user: { kind: 'user' }
  plugin: { kind: 'plugin'; name: string }
}
/** Who put a message in the log: the user, or a named plugin (never passed off as the user). */
export type MessageSource = MessageSourceMap[keyof MessageSourceMap]

/**
 * Input for an agent with who it comes from (AL-1), the user or a named plugin: what `send` and `steer`
 * take and `agent/prompt-submit` sees. Declared here, below both `@tack/agent` and `@tack/tools`, so a
 * tool's `steer` takes the same type as the agent's.
 */
export interface Prompt {
  readonly content: Content
  readonly source: MessageSource
}

/** Content plus its required source that a hook or plugin adds as context (AL-1). */
export interface HookContext {
  readonly content: Content
  readonly source: MessageSource
}

export interface TurnTriggerMap {
  message: { kind: 'message' }
  injection: { kind: 'injection' }
}
export type TurnTrigger = TurnTriggerMap[keyof TurnTriggerMap]

export interface TurnEndReasonMap {
  completed: { kind: 'completed' }
  'max-tokens': { kind: 'max-tokens' }
  aborted: { kind: 'aborted' }
  disposed: { kind: 'disposed' }
  error: { kind: 'error'; message: string; step?: number; code?: string }
  /** Every prompt of the batch was blocked; the turn ran zero steps. */
  rejected: { kind: 'rejected'; reason: string }
  /** Written only by crash recovery (SL-25). */
  interrupted: { kind: 'interrupted' }
}
export type TurnEndReason = TurnEndReasonMap[keyof TurnEndReasonMap]

export type Usage = {
  inputTokens: number
  outputTokens: number
  cachedInputTokens?: number
  cacheWriteTokens?: number
  reasoningTokens?: number
}

export type AssistantBlock =
  | { type: 'text'; text: string }
  | { type: 'reasoning'; text: string; signature?: string }
  | { type: 'tool-call'; callId: string; name: string; arguments: string }

export type FinishReason = 'stop' | 'tool-calls' | 'length' | 'content-filter' | 'other'

export type StreamChunk =
  | { type: 'text-delta'; text: string }
  | { type: 'reasoning-delta'; text: string }
  | { type: 'tool-call-delta'; callId: string; name?: string; argumentsDelta: string }
  | { type: 'usage'; usage: Usage }
  | { type: 'finish'; reason: FinishReason }

/** A message as the model sees it: the projection of one surface node. */
export type Message =
  | { role: 'user'; content: readonly ContentBlock[] }
  | { role: 'assistant'; content: readonly AssistantBlock[] }
  | { role: 'tool'; callId: string; name: string; content: readonly ContentBlock[]; isError: boolean }

/** A JSON Schema object (the tool parameter subset lives in @tack/tools). */
export type JsonSchema = { readonly [key: string]: JsonValue }

/** One tool as it goes on the wire. */
export interface ToolSchema {
  readonly name: string
  readonly description: string
  readonly parameters: JsonSchema
}

/** Reasoning effort levels a person may ask for (85-skills-and-commands.md I3); absent: the provider's default. */
export const REASONING_EFFORTS = Object.freeze(['low', 'medium', 'high'] as const)
export type ReasoningEffort = (typeof REASONING_EFFORTS)[number]

export function isReasoningEffort(value: unknown): value is ReasoningEffort {
  return typeof value === 'string' && (REASONING_EFFORTS as readonly string[]).includes(value)
}

/** The call configuration of one model request; shaped by `agent/request`. */
export interface LlmCallConfig {
  readonly model: string
  /**
   * How hard a reasoning model thinks; each wire protocol maps it to its own option (`@tack/llm`
   * effort.ts), one that takes none ignores it. Recorded in the request header like the model.
   */
  readonly reasoningEffort?: ReasoningEffort
  readonly temperature?: number
  readonly maxTokens?: number
  readonly topP?: number
  readonly stop?: readonly string[]
  /** Provider-specific options, passed through to the provider (e.g. reasoning effort). */
  readonly providerOptions?: { readonly [provider: string]: { readonly [key: string]: JsonValue } }
}

/** What every request of one header epoch shares (SL-14: empty parts are absent). */
export interface EpochHeader {
  readonly config: LlmCallConfig
  readonly system?: string
  readonly tools?: readonly ToolSchema[]
  readonly messagePrefix?: readonly Message[]
}

/** The change from one header to the next (SL-15). */
export interface HeaderDelta {
  system?: { keepStart: number; keepEnd: number; insert: readonly string[] }
  tools?: { added?: readonly ToolSchema[]; removed?: readonly string[]; changed?: readonly ToolSchema[] }
  /** Whole replacement. */
  config?: LlmCallConfig
  /** Whole replacement; `[]` means "now absent". */
  messagePrefix?: readonly Message[]
}

export interface SessionEventMap {
  /** A turn begins; `trigger` says whether a prompt or a waking injection started it. */
  'turn/start': { turn: number; trigger: TurnTrigger }
  /** A turn ends, with the reason that applied first (AL-19). */
  'turn/end': { turn: number; reason: TurnEndReason }
  /** A step (one model request and its tool calls) begins; the boundary for that request's messages. */
  'step/start': { turn: number; step: number }
  /** A step ends. */
  'step/end': { turn: number; step: number; finishReason?: FinishReason }
  /** A prompt the user (or a plugin on the user's behalf) sent, after `agent/prompt-submit` allowed it. */
  'user/message': { content: readonly ContentBlock[]; source: MessageSource }
  /** Context added for the model; rendered in a `<context source=…>` envelope when plugin-sourced. */
  'context/message': { content: readonly ContentBlock[]; source: MessageSource }
  /** Input given while a turn runs, drained at the next step (also forced continuations). */
  'steering/message': { content: readonly ContentBlock[]; source: MessageSource }
  /**
   * A prompt that `agent/prompt-submit` blocked, or whose admission a cancel cut short (`reason`
   * "cancelled before it was admitted"), recorded where the message would have been.
   */
  'prompt/blocked': { content: readonly ContentBlock[]; source: MessageSource; reason: string }
  /** One streamed chunk of the model's answer, logged before the next is read. */
  'assistant/chunk': { turn: number; step: number; chunk: StreamChunk }
  /** The model's complete answer for a step. */
  'assistant/message': {
    turn: number
    step: number
    content: readonly AssistantBlock[]
    finishReason: FinishReason
    usage?: Usage
  }
  /** A tool call about to run, with the model's raw argument text. */
  'tool/call': { turn: number; step: number; callId: string; name: string; arguments: string }
  /**
   * The result of a tool call: text and image blocks (an image's base64 stored here, once:
   * docs/decisions/0255-image-content.md); `meta` is tool-private and never shown to the model.
   */
  'tool/result': {
    callId: string
    name: string
    content: readonly ContentBlock[]
    isError: boolean
    error?: { name: string; code: string; message?: string }
    meta?: JsonValue
  }
  /** A full request-header snapshot: the first of a loop instance, or a fallback when a delta would not round-trip. */
  'request/header': { header: EpochHeader; reason: 'initial' | 'resume' | 'fallback' }
  /** A change to the request header since the folded baseline. */
  'request/header-delta': HeaderDelta
}

export type SessionEventType = keyof SessionEventMap & string

/** The five event types that are model-visible; fixed, not extensible (SL-7). */
export type SurfaceEventType =
  | 'user/message'
  | 'context/message'
  | 'steering/message'
  | 'assistant/message'
  | 'tool/result'
export const SURFACE_EVENT_TYPES: readonly SurfaceEventType[] = Object.freeze([
  'user/message',
  'context/message',
  'steering/message',
  'assistant/message',
  'tool/result',
])
export function isSurfaceType(type: string): type is SurfaceEventType {
  return (SURFACE_EVENT_TYPES as readonly string[]).includes(type)
}

export type SurfaceOp = { kind: 'append' } | { kind: 'replace'; fromSeq: number; toSeq: number }

/** The envelope every logged event has. */
export interface SessionEvent<T extends SessionEventType = SessionEventType> {
  readonly type: T
  /** 0-based index in this log, contiguous. */
  readonly seq: number
  /** ISO-8601 UTC with milliseconds, from an injectable clock. */
  readonly time: string
  readonly data: SessionEventMap[T]
  /** Present exactly on surface events. */
  readonly op?: SurfaceOp
}

/** Any event, discriminated by `type` so a switch narrows `data`. */
export type AnySessionEvent = { [T in SessionEventType]: SessionEvent<T> }[SessionEventType]

export const SESSION_FORMAT_VERSION = 1

export interface SessionHeader {
  readonly version: number
  readonly id: string
  readonly createdAt: string
  readonly cwd: string
  readonly parentSession?: string
  readonly seedLength?: number
}

export interface SessionSummary {
  readonly id: string
  readonly createdAt: string
  readonly cwd: string
  readonly parentSession?: string
  /** Set on forks (the header's `seedLength`); a subagent's session names a parent without it. */
  readonly seedLength?: number
  readonly eventCount: number
  readonly lastTime?: string
  /** Turns started (`turn/start` events); the rest of `summarizeLog` in summary.ts. */
  readonly turns: number
  /** The first prompt's first text, cut to `SUMMARY_PROMPT_CHARS` code points. */
  readonly firstPrompt?: string
  /** The model of the last request header in force. */
  readonly model?: string
}

/** A source of wall-clock time; tests inject a fixed one. */
export interface Clock {
  now(): number
}
export const systemClock: Clock = { now: () => Date.now() }
