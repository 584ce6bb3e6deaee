// The public contract of `import … from 'tack'` (docs/library.md, docs/decisions/0345-tack-as-a-library.md).
// This file is the library's declaration file as shipped: scripts/pack.ts copies it as
// `apps/tack/build/library/index.d.ts`, the `types` of the package's "." export. So it holds declarations
// only (types, `declare function`, `declare class`), imports nothing, and names no internal package: a
// user's type check sees exactly this. The implementation (index.ts) types each export by its declaration
// here (`typeof Api.openSession`), so the two cannot drift; library-exports.test.ts checks the runtime
// exports against this list. A change that is not an addition is a major version of `tack`.

/** How far the agent may act without asking (80-cli.md §4): what `tack run --permission-mode` takes. */
export type PermissionMode = 'ask' | 'workspace-write' | 'read-only' | 'yolo'

/** How tools are offered to the model (30-tools.md TL-36): what `--tools-mode` takes. */
export type ToolsMode = 'native' | 'code' | 'both'

export type ReasoningEffort = 'low' | 'medium' | 'high'

/** One MCP server, as `plugins.mcp.servers.<name>` in a config file (packages/mcp/README.md). */
export type McpServer =
  | {
      readonly type?: 'stdio'
      readonly command: string
      readonly args?: readonly string[]
      readonly env?: Readonly<Record<string, string>>
      readonly cwd?: string
      readonly startupTimeoutMs?: number
      readonly toolTimeoutMs?: number
      readonly enabled?: boolean
    }
  | {
      readonly type: 'http' | 'sse'
      readonly url: string
      readonly headers?: Readonly<Record<string, string>>
      readonly startupTimeoutMs?: number
      readonly toolTimeoutMs?: number
      readonly enabled?: boolean
    }

/** Recorded in the session's log as a `session/metadata` event before its first turn. */
export interface SessionMetadata {
  /** The session this one runs again (a job's earlier attempt). */
  readonly attemptOf?: string
  readonly jobId?: string
  readonly [key: string]: string | undefined
}

/** A tool call the permission layer would ask a person about, put to `onApproval`. */
export interface ApprovalRequest {
  readonly sessionId: string
  /** The tool's name (`write`, `bash`, `mcp__server__tool`). */
  readonly tool: string
  readonly callId: string
  /** The call's validated arguments. */
  readonly input: unknown
  /** What the tool declares it does. */
  readonly access: 'read' | 'write' | 'execute' | 'network' | 'session'
  /** Why it asks (outside the workspace, a protected file, leaving the sandbox, the mode). */
  readonly reason?: string
  /** What the call would change, from the tool's dry run (a diff's hunks, a created file), when it has one. */
  readonly preview?: readonly unknown[]
  /** Aborted when the call is cancelled (the turn aborted, the session closed): stop asking. */
  readonly signal: AbortSignal
}

export type ApprovalDecision =
  | { readonly decision: 'allow' }
  | { readonly decision: 'deny'; readonly reason?: string }

export interface SessionOptions {
  /** The workspace folder (absolute, or relative to the process's working folder); must exist. */
  readonly cwd: string
  /** `endpoint/model` as `--model`; `scripted//abs/script.json` plays a script. Default: config, then `@tack/llm`'s. */
  readonly model?: string
  readonly effort?: ReasoningEffort
  /** As `--base-url`: an OpenAI-compatible server for a bare model name (`local/<model>`). */
  readonly baseUrl?: string
  /** Extra config files (as `--config`), after `$TACK_HOME/config.yml` and the workspace's, in order. */
  readonly configFiles?: readonly string[]
  /** A profile of the config files (as `--profile`). */
  readonly profile?: string
  /** As `--permission-mode`; default: the config's, else `workspace-write` (as `tack run`). */
  readonly permissionMode?: PermissionMode
  /** As `--tools-mode` (then `TACK_TOOLS_MODE` of `env`, then config). */
  readonly toolsMode?: ToolsMode
  /** Claude Code mod folders to load (as `--mod`), after the configured ones. */
  readonly mods?: readonly string[]
  /** MCP servers for this session, merged over the config's `plugins.mcp.servers`. */
  readonly mcpServers?: Readonly<Record<string, McpServer>>
  /** Allow rules `TOOL[:pattern]` (as `--allow`). */
  readonly allow?: readonly string[]
  /** Deny rules `TOOL[:pattern]` (as `--deny`). */
  readonly deny?: readonly string[]
  /** Folders sandboxed commands may write (as `--sandbox-writable`). */
  readonly sandboxWritable?: readonly string[]
  /** Trust the workspace for this session (as `--trust`); absent or false: the trust store and `TACK_TRUST` decide. */
  readonly trust?: boolean
  /** tack's home folder (sessions, config, scratch); default `TACK_HOME` of `env`, else `~/.tack`. */
  readonly tackHome?: string
  /** The session store (`plugins.store.url`), e.g. `postgres://…`; default the SQLite file in tack's home. */
  readonly storeUrl?: string
  /** The environment tack, its tools and hooks see; default `process.env`. `$TACK_HOME/.env` fills what it lacks. */
  readonly env?: Readonly<Record<string, string | undefined>>
  /** Answers the calls the permission layer would ask about; absent: they are denied, as in `tack run`. */
  readonly onApproval?: (request: ApprovalRequest) => ApprovalDecision | Promise<ApprovalDecision>
  /** Where warnings go (an untrusted workspace's held-back files, a plugin's warning); default stderr. */
  readonly onWarning?: (line: string) => void
  readonly metadata?: SessionMetadata
  /**
   * Ends a turn once its steps have cost more than this many US dollars (exit reason `max-cost`); the
   * turn stops like `abort()` at the next event, and the log records the limit. Needs the model's price
   * (`@tack/llm` catalogue): a model without one is refused when this is set.
   */
  readonly maxCostUsd?: number
}

/**
 * Options of `resumeSession`: the session's own folder is its workspace (`cwd`, when given, must be it,
 * and is where the session is looked up); with no `model` given or configured, the model it last ran with.
 * A `model`, `effort`, `permissionMode` or `toolsMode` given is a switch, logged as `tack run -r` logs its flags.
 */
export type ResumeOptions = Omit<SessionOptions, 'cwd'> & { readonly cwd?: string }

export type ForkOptions = ResumeOptions & {
  /** Fork at this turn boundary (`seq` of a `turn/end` event); default the end of the log. */
  readonly atSeq?: number
}

export interface Usage {
  readonly inputTokens: number
  readonly outputTokens: number
  readonly cachedInputTokens: number
  readonly cacheWriteTokens: number
  readonly reasoningTokens: number
}

/** The data of the events a library user most often reads; every other event's data is `unknown`. */
export interface TackEventMap {
  'turn/start': { readonly turn: number; readonly trigger: { readonly kind: string } }
  'turn/end': { readonly turn: number; readonly reason: TurnEndReason }
  'user/message': { readonly content: readonly ContentBlock[] }
  'assistant/chunk': { readonly turn: number; readonly step: number; readonly chunk: unknown }
  'assistant/message': {
    readonly turn: number
    readonly step: number
    readonly content: readonly AssistantBlock[]
    readonly finishReason: string
    readonly usage?: Partial<Usage>
  }
  'tool/call': {
    readonly turn: number
    readonly step: number
    readonly callId: string
    readonly name: string
    /** The model's raw argument text. */
    readonly arguments: string
  }
  'tool/result': {
    readonly callId: string
    readonly name: string
    readonly content: readonly ContentBlock[]
    readonly isError: boolean
    readonly error?: { readonly name: string; readonly code: string; readonly message?: string }
  }
  'approval/requested': { readonly callId: string; readonly reason?: string }
  'approval/resolved': {
    readonly callId: string
    readonly decision: 'allow' | 'deny'
    readonly by: 'user' | 'rule' | 'none'
  }
  'session/metadata': SessionMetadata
  'session/limit': { readonly kind: 'max-cost'; readonly limitUsd: number; readonly spentUsd: number }
}

/** One event of the session's log (the same events `tack run --json` prints). */
export interface TackEvent<T extends string = string> {
  readonly type: T
  /** 0-based position in the session's log. */
  readonly seq: number
  /** ISO-8601 UTC. */
  readonly time: string
  readonly data: T extends keyof TackEventMap ? TackEventMap[T] : unknown
}

export type ContentBlock =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'image'; readonly mimeType: string; readonly data: string }

export type AssistantBlock =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'reasoning'; readonly text: string }
  | { readonly type: 'tool-call'; readonly callId: string; readonly name: string; readonly arguments: string }

export type TurnEndReason =
  | { readonly kind: 'completed' | 'max-tokens' | 'aborted' | 'disposed' | 'interrupted' }
  | { readonly kind: 'error'; readonly message: string; readonly code?: string }
  | { readonly kind: 'rejected'; readonly reason: string }

/** Narrows an event to one of the types `TackEventMap` describes. */
export declare function isEvent<T extends keyof TackEventMap>(
  event: TackEvent,
  type: T,
): event is TackEvent<T>

/** How a prompt ended; `max-cost` when `maxCostUsd` stopped it. */
export type ExitReason = TurnEndReason['kind'] | 'max-cost'

export interface TurnResult {
  readonly sessionId: string
  readonly exitReason: ExitReason
  /** The last turn's end as logged (`turn/end`'s reason). */
  readonly reason: TurnEndReason
  /** The model's final answer ('' when the turn did not complete with one). */
  readonly finalText: string
  /** Summed over the prompt's steps. */
  readonly usage: Usage
  /** USD, present when every step's model has a known price. */
  readonly costUsd?: number
  /** Absent for `completed` and `rejected` (a hook blocked the prompt). */
  readonly error?: { readonly code: string; readonly message: string }
  readonly turns: number
  readonly steps: number
  /** Calls the permission layer refused (a rule, the mode, `onApproval`, no approver). */
  readonly permissionDenials: readonly {
    readonly tool: string
    readonly callId: string
    readonly arguments: string
    readonly message?: string
  }[]
}

/**
 * A prompt's events as they are logged, with secrets redacted as `tack run --json` redacts them
 * (docs/library.md, Secrets); the iteration ends once the prompt's last turn has ended.
 */
export interface Turn extends AsyncIterable<TackEvent> {
  /** Settles when the prompt's turns have ended (whether or not the events are read). */
  readonly result: Promise<TurnResult>
}

export interface PromptOptions {
  /** Aborting it aborts the turn, as `session.abort()`. */
  readonly signal?: AbortSignal
}

export interface TackSession {
  readonly id: string
  /** The workspace the session runs in. */
  readonly cwd: string
  /** The model of the session's base request (`endpoint/model`). */
  readonly model: string
  /** Sends a prompt; throws when a turn is still running or the session is closed. */
  prompt(text: string, options?: PromptOptions): Turn
  /** The whole log so far (a resumed session's history included), secrets redacted. */
  events(): readonly TackEvent[]
  /** Like Ctrl-C: the running turn ends `aborted`, and the log says so. No-op when idle. */
  abort(reason?: string): void
  /** Aborts a running turn, flushes the log and releases the session; idempotent. */
  close(): Promise<void>
}

/** Why the library refused (bad options or config, no model, a session not found): the message is one line for a person. */
export declare class TackError extends Error {
  readonly kind: 'usage' | 'config' | 'not-found' | 'store'
}

/** Starts a new session in `options.cwd`. */
export declare function openSession(options: SessionOptions): Promise<TackSession>

/** Continues a stored session (a unique prefix of its id is enough) in its own workspace. */
export declare function resumeSession(id: string, options?: ResumeOptions): Promise<TackSession>

/** A new session holding a stored one's log up to a turn boundary; the original is untouched. */
export declare function forkSession(id: string, options?: ForkOptions): Promise<TackSession>

/** Where a read of the store looks: the options that choose the store (`cwd`: whose config, default the process's folder). */
export type StoreOptions = Pick<
  SessionOptions,
  'tackHome' | 'storeUrl' | 'env' | 'configFiles' | 'profile' | 'trust'
> & { readonly cwd?: string }

/** A stored session as `tack sessions list` shows it. */
export interface SessionSummary {
  readonly id: string
  readonly createdAt: string
  /** The workspace it runs in. */
  readonly cwd: string
  /** The session it was forked from (with `seedLength`), or a subagent's parent session. */
  readonly parentSession?: string
  readonly seedLength?: number
  readonly eventCount: number
  readonly lastTime?: string
  readonly turns: number
  readonly firstPrompt?: string
  readonly model?: string
}

export interface StoredSession {
  readonly summary: SessionSummary
  readonly events: readonly TackEvent[]
}

/** Every stored session, oldest first. */
export declare function listSessions(options?: StoreOptions): Promise<readonly SessionSummary[]>

/**
 * A stored session's log (a unique prefix of its id is enough), read without taking it over: a session
 * a live process is writing is returned as stored, its running turn not closed.
 */
export declare function readSession(id: string, options?: StoreOptions): Promise<StoredSession>

/** The `tack` package's version; the API follows it by semver (docs/library.md, Stability). */
export declare const VERSION: string
