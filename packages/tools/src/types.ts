// Tool registry, execution pipeline and presentation types (30-tools.md §1, §3, §4).
import type {
  Content,
  ContentBlock,
  HookContext,
  JsonSchema,
  Prompt,
  Session,
  ToolSchema,
} from '@tack/session'
import type { ToolHosts } from './host.ts'
import type { ToolsMode } from './modes.ts'
import type { CallPresentation, ResultIntent, ResultPresentation, ToolPresentation } from './presentation.ts'

export type { JsonSchema, ToolSchema }

/**
 * The agent a call runs for, as far as tools and the pipeline need it. `@tack/agent`'s `Agent`
 * satisfies it structurally; declaring it here (not importing `Agent`) keeps `@tack/tools` below
 * `@tack/agent` — the agent package depends on this one, never the other way round.
 */
export interface ToolAgent {
  readonly id: string
  readonly session: Session
  /** The workspace root of the agent's calls. */
  readonly cwd: string
  readonly options: {
    /** The agent's permission mode (read by the permissions plugin). */
    readonly permissionMode?: string
    readonly toolsMode?: ToolsMode
    readonly labels?: Readonly<Record<string, unknown>>
  }
  /** Set for child agents started by the subagent tool. */
  readonly parent?: ToolAgent
  /** A tool may steer its agent (queued for the next step) … */
  steer(input: Prompt): void
  /** … or inject model-visible context (AL-4). */
  inject(input: HookContext, opts?: { wake?: boolean }): void
}

/**
 * What a tool does to the world (0011-tool-declarations.md). Permissions judge a call by it, and the
 * agent loop runs `read` and `network` calls of one message side by side
 * (docs/decisions/0063-parallel-tool-calls.md): a tool with any effect beyond reading must say so.
 *  - `read`    reads files or state, changes nothing;
 *  - `write`   changes files (its `paths` say which) or anything else outside the session;
 *  - `execute` runs programs or commands (`bash`): its effects cannot be known in advance;
 *  - `network` reaches the network;
 *  - `session` changes only the session's own state (`todo_write`): never asked, allowed in read-only.
 */
export type ToolAccess = 'read' | 'write' | 'execute' | 'network' | 'session'

export const TOOL_ACCESSES: readonly ToolAccess[] = Object.freeze([
  'read',
  'write',
  'execute',
  'network',
  'session',
])

/** A call's request to run outside the sandbox (`ToolDefinition.escalation`). */
export interface SandboxEscalation {
  /** The model's one-sentence reason, shown to the person asked. */
  readonly justification: string
}

export type ToolOutput = Content | { content: Content; meta?: unknown }

export interface ToolCallContext {
  readonly callId: string
  readonly agent?: ToolAgent
  readonly cwd: string
  readonly signal: AbortSignal
  /**
   * Set when a `tools/pre-execute` decision asked and the approver allowed the call: by the user or
   * by a rule. Absent for calls that were simply allowed. Tools that widen their scope only with an
   * approval (e.g. paths outside the workspace, TL-11) read it.
   */
  readonly approval?: 'user' | 'rule'
  /**
   * Tells the people watching how far the call is (an MCP server's progress notifications): logged
   * as `tool/progress` at most once per `plugins.tools.progressIntervalMs`, never after the call ended,
   * and shown on the call's card. The model never sees it. Absent where no log is kept.
   */
  readonly progress?: (update: ToolProgress) => void
}

/** How far a running call is: a message, and/or `progress` of `total` (total may be unknown). */
export interface ToolProgress {
  readonly message?: string
  readonly progress?: number
  readonly total?: number
}

export interface ToolResultView {
  readonly content: readonly ContentBlock[]
  readonly isError: boolean
  readonly error?: { name: string; code: string; message?: string }
  readonly meta?: unknown
}

export interface ToolDefinition<A = unknown> {
  /** /^[a-z][a-z0-9_]{0,63}$/, or an MCP tool's /^mcp__[A-Za-z0-9_-]{1,59}$/ (define-tool.ts) */
  readonly name: string
  readonly description: string
  /** An object schema in the defineTool subset. */
  readonly parameters: JsonSchema
  readonly timeoutMs?: number
  /** What the tool does (see `ToolAccess`); a tool that declares none is treated as `write`. */
  readonly access?: ToolAccess
  /**
   * The paths a call touches, as the model gave them (relative to the call's cwd, or absolute),
   * from the validated arguments. Pure and synchronous. Every path is held to the workspace scope
   * before the body runs (TL-11) and judged by the permission plugin; none declared means none.
   */
  paths?(args: A): readonly string[]
  /** How Claude Code's and Codex's hooks see it: name, input, way back, response (see `ToolHosts`). */
  readonly host?: ToolHosts
  /**
   * The permission plugin asks before every call outside yolo mode, whatever the tool's access and the
   * mode (an allow rule still counts as the approval): an MCP tool its server marks `destructiveHint`.
   */
  readonly alwaysAsk?: boolean
  /**
   * Whether this call asks to run outside the OS sandbox its tool otherwise runs in, and why
   * (bash's `sandbox_permissions: "require_escalated"`, docs/decisions/0315-leaving-the-sandbox.md).
   * Pure and synchronous, from the validated arguments; the permission plugin never lets such a call
   * through without a person's or a user rule's yes, and the body runs it unconfined only with
   * `call.approval` set.
   */
  escalation?(args: A): SandboxEscalation | undefined
  execute(args: A, call: ToolCallContext): ToolOutput | Promise<ToolOutput>
  /**
   * The call's dry run (docs/decisions/0300-approval-shows-the-change.md): what it would do, without
   * doing anything. The pipeline runs it when a pre-execute decision asks, before the approver is
   * asked: `fail` ends the call with the tool's own error and no question is put (an edit of a file not
   * read yet); `proceed` puts the question with `preview` — the change the body would apply, as the
   * result intents its result will carry. `call.approval` is set as if the person allowed the call.
   * Must not change anything; should not throw (a throw is taken as no preview, a `ToolFailure` as `fail`).
   */
  plan?(args: A, call: ToolCallContext): Promise<ToolPlan>
  /** How the tool looks in front ends (presentation.ts); none declared means the defaults. */
  readonly present?: ToolPresentation<A>
  /**
   * Not offered to a model until a tool search loads it for that agent (deferred.ts): a plugin with many
   * tools (MCP past `deferAbove`) keeps them out of every request but the ones asked for.
   */
  readonly deferred?: boolean
  /** Where and how Code Mode's generated SDK declares it (see `ToolSdkDeclaration`); none means `tools.<name>`. */
  readonly sdk?: ToolSdkDeclaration
}

/** What a tool's dry run (`ToolDefinition.plan`) found: go on and ask, showing `preview`, or fail now. */
export type ToolPlan =
  | { readonly action: 'proceed'; readonly preview?: readonly ResultIntent[] }
  | { readonly action: 'fail'; readonly code: string; readonly message: string }

/**
 * A tool's place in Code Mode's `tools` API (TL-21). `path` puts it under namespaces — an MCP tool
 * declares `['mcp', server, tool]` and is called `tools.mcp.<server>.<tool>(args)` — while the pipeline
 * still runs it under its own name. `result` is the JSON schema of the value whose JSON is the tool's
 * result text: the program then gets that value, parsed and typed, instead of the text.
 */
export interface ToolSdkDeclaration {
  readonly path?: readonly string[]
  readonly result?: JsonSchema
}

export interface ToolExecution {
  readonly callId: string
  readonly name: string
  /** The model's raw argument text. */
  readonly rawArguments: string
  /** Parsed, default-filled, validated arguments (`undefined` before validation ran). */
  readonly arguments: unknown
  readonly agent?: ToolAgent
  readonly cwd: string
  readonly signal: AbortSignal
}

/**
 * One call as a caller hands it to `ctx.tools.execute`: the model's call. `arguments` is not part of
 * it — the pipeline parses and validates `rawArguments` and fills it in for the seams and the body.
 */
export type ToolCallRequest = Omit<ToolExecution, 'arguments'>

export interface ToolError {
  readonly name: string
  readonly code: string
  readonly message?: string
}

export interface ToolExecutionResult {
  readonly callId: string
  readonly name: string
  readonly content: readonly ContentBlock[]
  readonly isError: boolean
  readonly error?: ToolError
  readonly additionalContext?: readonly HookContext[]
  readonly meta?: unknown
}

export type PreToolDecision =
  | {
      action: 'allow'
      arguments?: unknown
      /** A configured rule vouches for this call; the body sees `call.approval === 'rule'`. */
      approval?: 'rule'
      additionalContext?: readonly HookContext[]
    }
  | { action: 'deny'; reason: string; additionalContext?: readonly HookContext[] }
  | { action: 'ask'; reason?: string; arguments?: unknown; additionalContext?: readonly HookContext[] }

export type PostToolDecision =
  | { action: 'accept'; content?: Content; additionalContext?: readonly HookContext[] }
  | { action: 'block'; feedback: string; additionalContext?: readonly HookContext[] }

export type { ToolsMode } from './modes.ts'

/** What an approver answers for an `ask` (TL-5, TL-35). */
export type ApprovalAnswer =
  | { action: 'allow'; by: 'user' | 'rule'; scope?: 'once' | 'session' }
  | { action: 'deny'; by: 'user' | 'rule' | 'none'; reason?: string; scope?: 'once' | 'session' }

export interface ApprovalRequest {
  readonly agent?: ToolAgent
  readonly exec: ToolExecution
  /** What the tool declares it does (its `access`, else `write`): a session rule for an `execute` call holds the exact command. */
  readonly access: ToolAccess
  readonly reason?: string
  /**
   * What the call would change, from the tool's dry run (`ToolDefinition.plan`): the result intents
   * its result will carry (an edit's hunks, a created file's content), cut at
   * `plugins.tools.approvalPreviewMaxChars` with a `text` note saying how much is not shown. Absent
   * when the tool has no dry run or it has nothing to show.
   */
  readonly preview?: readonly ResultIntent[]
  readonly signal: AbortSignal
}

/** An `ask` about to be put to `ctx.approval`: what the tool does and why it asks. */
export interface PermissionAsk {
  readonly access: ToolAccess
  readonly reason?: string
}

/** What `tools/permission-request` decides before the approver is asked. */
export type PermissionRequestDecision =
  | { readonly action: 'ask' }
  | { readonly action: 'allow'; readonly arguments?: unknown }
  | { readonly action: 'deny'; readonly reason: string }

/** Service `ctx.approval`: answers `ask` decisions (the TUI, ACP permission requests, rules). */
export interface ApprovalService {
  request(req: ApprovalRequest): Promise<ApprovalAnswer>
  /**
   * The answer a session-long rule of this approver gives ("allow for this session", "always reject"),
   * when one matches: no question will be put, so the pipeline takes it before `tools/permission-request`
   * (Claude Code fires no PermissionRequest when no prompt is shown). Must not ask anyone.
   */
  remembered?(req: Omit<ApprovalRequest, 'signal'>): ApprovalAnswer | undefined
}

/** What a `tools/call` listener may answer with instead of running the pipeline (TL-31). */
export interface ToolAnswer {
  readonly content: Content
  /** Default: `true` when `error` is given, else `false`. */
  readonly isError?: boolean
  readonly error?: ToolError
  readonly meta?: unknown
  readonly additionalContext?: readonly HookContext[]
}

/** Service `ctx.tools` (30-tools.md §1). */
/** The agents that see a tool registered for some agents only (`ToolRegistry.register`). */
export type ToolAudience = (agent: ToolAgent) => boolean

export interface ToolRegistry {
  /**
   * Adds a tool; the disposer (and disposal of the registering plugin) removes it (TL-1). With an
   * `audience` only the agents it accepts are offered and may call the tool (an ACP session's own MCP
   * servers); its name must not be one every agent sees, but two audiences may share a name.
   */
  register(def: ToolDefinition, audience?: ToolAudience): () => void
  /**
   * The wire list for `agent`'s tools mode (TL-36; the configured mode without an agent or an override),
   * sorted by name (TL-2, TL-19); throws CodeModeUnavailableError (TL-20).
   */
  schemas(agent?: ToolAgent): readonly ToolSchema[]
  /**
   * The `tools:sdk` system prompt section (TL-21): '' in `native` mode; else the tools as a TypeScript
   * API, memoised per tool-set revision. Throws CodeModeUnavailableError without a code runtime (TL-20).
   */
  sdkSection(agent?: ToolAgent): string
  /** Whether a TypeScript code runtime is mounted, so `code` and `both` can be served (TL-20). */
  codeModeAvailable(): boolean
  /** Runs one call through the pipeline; never rejects (TL-3). */
  execute(call: ToolCallRequest): Promise<ToolExecutionResult>
  /** The registered definition, if any (with `agent`: also one of that agent's own tools). */
  get(name: string, agent?: ToolAgent): ToolDefinition | undefined
  /**
   * How a logged call looks (TL-10): the tool's declared presentation, each missing part defaulted; a
   * tool that is gone, or arguments that do not validate, get the defaults. `args` may be the raw text.
   * With `agent`, that agent's own tools (`register(def, audience)`) are found too.
   */
  presentCall(name: string, args: unknown, agent?: ToolAgent): CallPresentation
  /** How a logged result looks (TL-10): the tool's declared result intents, else its text. */
  presentResult(name: string, args: unknown, result: ToolResultView, agent?: ToolAgent): ResultPresentation
  /** Resolves once every tool body started so far has settled, including bodies given up on after a cancel. */
  settled(): Promise<void>
}
