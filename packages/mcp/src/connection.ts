// One MCP server's connection (spec 55-mcp.md M1, M2, M12b): started on demand and at most once at a
// time, its tools listed (every page) at start and again on `notifications/tools/list_changed`. When
// the server goes away the in-flight calls fail (the SDK rejects them), one line reaches the person, and
// the next call starts it again once the restart backoff allows. Closing it (the plugin disposed, the
// session over) ends a stdio server's process: the SDK closes its stdin, then signals it.
import { setTimeout as sleep } from 'node:timers/promises'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import {
  type CallToolResult,
  type GetPromptResult,
  type Progress,
  type Prompt,
  PromptListChangedNotificationSchema,
  type ReadResourceResult,
  type Resource,
  ResourceListChangedNotificationSchema,
  type ResourceTemplate,
  type Tool,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js'
import type { RestartBackoff } from './backoff.ts'
import type { McpServerDefinition } from './definition.ts'
import { errorText } from './error-text.ts'
import { isMessageOverflow, McpMessageTooLarge } from './message-bound.ts'
import { definitionSecretValues, type Redact, redactDeep, redactError, redactorOf } from './secret-values.ts'
import { isSignInNeeded, SignInNeededError, signInNote } from './sign-in.ts'
import { StderrTail } from './stderr-tail.ts'
import { type OpenedTransport, openTransport } from './transport.ts'

export interface ConnectionOptions {
  readonly name: string
  readonly def: McpServerDefinition
  readonly connectTimeoutMs: number
  readonly stderrMaxBytes: number
  /** Bytes of one message a stdio server may send (`plugins.mcp.maxMessageBytes`). */
  readonly maxMessageBytes: number
  readonly backoff: RestartBackoff
  /** The variables declared secret now (`ctx.secrets`), kept out of a stdio server's environment. */
  readonly secretVariables: () => readonly string[]
  /**
   * The values declared secret now (`ctx.secrets.values()`), redacted from all the server sends back, with
   * its own `env`/`headers` values (docs/decisions/0265-mcp-secret-values.md); absent: its own only.
   */
  readonly secretValues?: () => readonly string[]
  /** The server's whole tool list, after each start and each list change. */
  onTools(tools: readonly Tool[]): void
  /** The server's whole prompt list (none without the prompts capability), after each start and change. */
  onPrompts?(prompts: readonly Prompt[]): void
  /**
   * The server's whole resource and template lists (none without the resources capability), after each
   * start and each `notifications/resources/list_changed` (55-mcp.md M10: mention completion's cache).
   */
  onResources?(resources: ResourceLists): void
  /** The server's `instructions` from `initialize`, after each start. */
  onInstructions(text: string | undefined): void
  /** One line for a person (stderr). */
  warn(line: string): void
}

/** A server's resources and resource templates, every page of each. */
export interface ResourceLists {
  readonly resources: readonly Resource[]
  readonly templates: readonly ResourceTemplate[]
}

const CLIENT_INFO = { name: 'tack', version: '0.1.0' }

/** Where a connection is, for `/mcp` (mcp-command.ts). */
export type ConnectionState =
  | { readonly kind: 'connected' }
  | { readonly kind: 'starting' }
  /** `error`: why its last start failed or why it went away, with its last stderr line. */
  | { readonly kind: 'failed'; readonly error: string }
  | { readonly kind: 'closed' }

export class McpConnection {
  readonly #options: ConnectionOptions
  #client?: Client
  #opened?: OpenedTransport
  #starting?: Promise<Client>
  #stderr?: StderrTail
  #closed = false
  /** The client of a start under way, so closing can end a server that has not answered yet. */
  #connecting?: Client
  #lastError?: string
  /** The client whose server sent a message past `maxMessageBytes` (and was ended for it). */
  #overflowed?: Client

  /** Redacts the session's secret values and this server's own from a text it sent (secret-values.ts). */
  readonly #redact: Redact

  constructor(options: ConnectionOptions) {
    const own = definitionSecretValues(options.def)
    this.#redact = redactorOf(() => [...own, ...(options.secretValues?.() ?? [])])
    // Every line about the server passes the redactor: its error and stderr text may carry them.
    const redact = this.#redact
    this.#options = {
      ...options,
      warn: (line) => options.warn(redact(line)),
      onTools: (list) => options.onTools(redactDeep(list, redact)),
      ...(options.onPrompts && {
        onPrompts: (list: readonly Prompt[]) => options.onPrompts?.(redactDeep(list, redact)),
      }),
      ...(options.onResources && {
        onResources: (lists: ResourceLists) => options.onResources?.(redactDeep(lists, redact)),
      }),
      onInstructions: (text) => options.onInstructions(text === undefined ? text : redact(text)),
    }
  }

  get name(): string {
    return this.#options.name
  }

  state(): ConnectionState {
    if (this.#closed) return { kind: 'closed' }
    if (this.#client) return { kind: 'connected' }
    if (this.#starting) return { kind: 'starting' }
    return { kind: 'failed', error: this.#redact(this.#lastError ?? 'not started') }
  }

  /**
   * Ends the running server (if any) and starts it again now, without the restart backoff: a person
   * asked (`/mcp reconnect`). Rejects when it cannot start.
   */
  async reconnect(): Promise<Client> {
    await this.#starting?.catch(() => undefined)
    const client = this.#client
    // Forgotten first, so its close is not reported as the server going away.
    this.#client = undefined
    await client?.close().catch(() => undefined)
    this.#options.backoff.succeeded()
    return this.start()
  }

  /** The last line a stdio server wrote to stderr in its latest start, if any. */
  lastStderrLine(): string | undefined {
    const line = this.#stderr?.lastLine()
    return line === undefined ? line : this.#redact(line)
  }

  /** The stdio server's pid while it runs. */
  pid(): number | undefined {
    return this.#client ? this.#opened?.pid() : undefined
  }

  /** The connected client, starting the server if it is not running. Rejects when it cannot start. */
  start(): Promise<Client> {
    if (this.#closed) return Promise.reject(new Error(`MCP server "${this.name}" is closed`))
    if (this.#client) return Promise.resolve(this.#client)
    this.#starting ??= this.#connect().finally(() => {
      this.#starting = undefined
    })
    return this.#starting
  }

  /** Calls `tool`; waits out the restart backoff of a server that failed, then (re)starts it. */
  async call(
    tool: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
    timeoutMs: number,
    onProgress?: (progress: Progress) => void,
  ): Promise<CallToolResult> {
    const wait = this.#client ? 0 : this.#options.backoff.waitMs()
    if (wait > 0) await sleep(wait, undefined, { signal })
    const client = await this.start()
    try {
      // The SDK sends `notifications/cancelled` when `signal` aborts or its own timeout passes. With
      // `onprogress` it sends a progress token, and the server's progress notifications come back here;
      // they do not extend the bound.
      const result = (await client.callTool({ name: tool, arguments: args }, undefined, {
        signal,
        timeout: timeoutMs,
        ...(onProgress && { onprogress: (p: Progress) => onProgress(redactDeep(p, this.#redact)) }),
      })) as CallToolResult
      return redactDeep(result, this.#redact)
    } catch (error) {
      if (this.#overflowed === client) throw new McpMessageTooLarge(this.name, this.#options.maxMessageBytes)
      throw redactError(error, this.#redact)
    }
  }

  /** Gets prompt `name` with `args`; (re)starts the server as a tool call does. */
  async prompt(name: string, args: Record<string, string>, signal: AbortSignal): Promise<GetPromptResult> {
    const wait = this.#client ? 0 : this.#options.backoff.waitMs()
    if (wait > 0) await sleep(wait, undefined, { signal })
    const client = await this.start()
    try {
      return redactDeep(await client.getPrompt({ name, arguments: args }, { signal }), this.#redact)
    } catch (error) {
      throw redactError(error, this.#redact)
    }
  }

  /**
   * Reads resource `uri` (`resources/read`) within `timeoutMs`; (re)starts the server as a tool call does.
   * The SDK sends `notifications/cancelled` when `signal` aborts or the bound passes.
   */
  async read(uri: string, signal: AbortSignal, timeoutMs: number): Promise<ReadResourceResult> {
    const wait = this.#client ? 0 : this.#options.backoff.waitMs()
    if (wait > 0) await sleep(wait, undefined, { signal })
    const client = await this.start()
    try {
      return redactDeep(await client.readResource({ uri }, { signal, timeout: timeoutMs }), this.#redact)
    } catch (error) {
      throw redactError(error, this.#redact)
    }
  }

  async close(): Promise<void> {
    this.#closed = true
    // A server still starting is ended now, not when its start would time out.
    const clients = [this.#client, this.#connecting]
    this.#client = undefined
    await Promise.all(clients.map((client) => client?.close().catch(() => undefined)))
  }

  async #connect(): Promise<Client> {
    const { name, def, backoff } = this.#options
    const stderr = new StderrTail(this.#options.stderrMaxBytes)
    this.#stderr = stderr
    // Called before any `await` here: a stdio server spawned early is taken at once (transport.ts).
    const opening = openTransport(
      name,
      def,
      this.#options.secretVariables(),
      stderr,
      this.#options.maxMessageBytes,
    )
    const client = new Client(CLIENT_INFO, { capabilities: {} })
    this.#connecting = client
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      this.#list(client).then(
        (tools) => {
          if (this.#client === client) this.#options.onTools(tools)
        },
        (error) => this.#listFailed(client, 'tools', error),
      )
    })
    client.setNotificationHandler(PromptListChangedNotificationSchema, () => {
      this.#listPrompts(client).then(
        (prompts) => {
          if (this.#client === client) this.#options.onPrompts?.(prompts)
        },
        (error) => this.#listFailed(client, 'prompts', error),
      )
    })
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
      this.#listResources(client).then(
        (lists) => {
          if (this.#client === client) this.#options.onResources?.(lists)
        },
        (error) => this.#listFailed(client, 'resources', error),
      )
    })
    client.onclose = () => this.#lost(client)
    // Bytes that are not protocol (a server logging on stdout), a malformed message: the SDK skips or
    // reports them; the person hears of the first one per start, the session goes on.
    // A broken pipe or socket is not reported here: the close that follows says what happened, once.
    let reported = false
    client.onerror = (error) => {
      // The SDK closes the transport after this one: the line says why, and the close adds none.
      if (isMessageOverflow(error)) {
        this.#overflowed = client
        if (!this.#closed)
          this.#options.warn(
            `MCP server "${name}" sent a message over ${this.#options.maxMessageBytes} bytes (plugins.mcp.maxMessageBytes), so tack ended it; it is started again on the next call of one of its tools`,
          )
        return
      }
      // The rest of the too-large message is still arriving while the SDK closes: not worth a line.
      // A 401 is said once, by the failed start below, with what to do about it.
      if (
        reported ||
        this.#closed ||
        this.#overflowed === client ||
        isSystemError(error) ||
        isSignInNeeded(error)
      )
        return
      reported = true
      this.#options.warn(
        isMalformed(error)
          ? `MCP server "${name}" sent something that is not MCP: ${errorText(error)}`
          : `MCP server "${name}": ${errorText(error)}`,
      )
    }
    try {
      const opened = await opening
      await client.connect(opened.transport, { timeout: this.#options.connectTimeoutMs })
      if (this.#closed) throw new Error('closed while starting')
      this.#client = client
      this.#opened = opened
      const tools = await this.#list(client)
      const prompts = await this.#listPrompts(client)
      const resources = await this.#listResources(client).catch((error: unknown) => {
        // A server whose resource list fails still serves its tools; mentions of it find nothing.
        this.#options.warn(`MCP server "${name}": listing its resources failed: ${errorText(error)}`)
        return { resources: [], templates: [] }
      })
      if (this.#closed) throw new Error('closed while starting')
      // Instructions and tools in one synchronous step: the next request sees both or neither, so the
      // prompt prefix changes once for a server that joins.
      this.#options.onInstructions(client.getInstructions())
      this.#options.onTools(tools)
      this.#options.onPrompts?.(prompts)
      this.#options.onResources?.(resources)
      backoff.succeeded()
      this.#lastError = undefined
      return client
    } catch (caught) {
      const error = redactError(isSignInNeeded(caught) ? new SignInNeededError(name) : caught, this.#redact)
      this.#client = undefined
      await client.close().catch(() => undefined)
      if (!this.#closed) {
        // The model reads why the server's tools are missing (its instructions section, M12b).
        if (error instanceof SignInNeededError) this.#options.onInstructions(signInNote(name))
        backoff.failed()
        this.#lastError = `${errorText(error)}${this.#lastStderr()}`
        this.#options.warn(`MCP server "${name}" did not start: ${errorText(error)}${this.#lastStderr()}`)
      }
      throw error
    } finally {
      if (this.#connecting === client) this.#connecting = undefined
    }
  }

  /** Every page of the server's tool list (none when it offers no tools). */
  async #list(client: Client): Promise<Tool[]> {
    if (!client.getServerCapabilities()?.tools) return []
    return everyPage(async (cursor) => {
      const page = await client.listTools(cursor === undefined ? {} : { cursor })
      return { items: page.tools, nextCursor: page.nextCursor }
    })
  }

  /** Every page of the server's prompt list (none when it offers no prompts). */
  async #listPrompts(client: Client): Promise<Prompt[]> {
    if (!client.getServerCapabilities()?.prompts) return []
    return everyPage(async (cursor) => {
      const page = await client.listPrompts(cursor === undefined ? {} : { cursor })
      return { items: page.prompts, nextCursor: page.nextCursor }
    })
  }

  /** Every page of the server's resources and templates (none without the resources capability). */
  async #listResources(client: Client): Promise<ResourceLists> {
    if (!client.getServerCapabilities()?.resources) return { resources: [], templates: [] }
    const resources = await everyPage(async (cursor) => {
      const page = await client.listResources(cursor === undefined ? {} : { cursor })
      return { items: page.resources, nextCursor: page.nextCursor }
    })
    const templates = await everyPage(async (cursor) => {
      const page = await client.listResourceTemplates(cursor === undefined ? {} : { cursor })
      return { items: page.resourceTemplates, nextCursor: page.nextCursor }
    }).catch(() => [])
    return { resources, templates }
  }

  #lost(client: Client): void {
    if (this.#client !== client) return
    this.#client = undefined
    if (this.#closed) return
    this.#options.backoff.failed()
    if (this.#overflowed === client) {
      this.#lastError = `sent a message over ${this.#options.maxMessageBytes} bytes (plugins.mcp.maxMessageBytes)`
      return
    }
    this.#lastError = `exited${this.#lastStderr()}`
    this.#options.warn(
      `MCP server "${this.name}" exited${this.#lastStderr()}; it is started again on the next call of one of its tools`,
    )
  }

  /** A re-listing after a change notification failed: said, unless the server is going away anyway. */
  #listFailed(client: Client, what: string, error: unknown): void {
    if (this.#closed || this.#client !== client) return
    this.#options.warn(`MCP server "${this.name}": listing its ${what} failed: ${errorText(error)}`)
  }

  #lastStderr(): string {
    const line = this.lastStderrLine()
    return line ? ` (its last stderr line: ${line})` : ''
  }
}

/** Every item of a paginated list, following `nextCursor` to its end. */
async function everyPage<T>(
  fetch: (cursor: string | undefined) => Promise<{ items: readonly T[]; nextCursor?: string | undefined }>,
): Promise<T[]> {
  const items: T[] = []
  let cursor: string | undefined
  do {
    const page = await fetch(cursor)
    items.push(...page.items)
    cursor = page.nextCursor
  } while (cursor)
  return items
}

/** A failure of the pipe or socket itself (EPIPE, ECONNRESET, …), not of what came through it. */
function isSystemError(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code
  return typeof code === 'string' && /^E[A-Z]+$/.test(code)
}

/** Bytes that are not JSON, or JSON that is no protocol message (the SDK's parse and schema errors). */
function isMalformed(error: unknown): boolean {
  const name = (error as { name?: unknown } | undefined)?.name
  return error instanceof SyntaxError || name === 'ZodError' || name === '$ZodError'
}
