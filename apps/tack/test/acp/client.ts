// A real `tack acp` child process driven by the ACP SDK's own client app over its stdio pipes: the
// scripted model is chosen by configuration (`--model scripted/<file>`), so no key is needed.
import { type ChildProcess, spawn } from 'node:child_process'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { Readable, Writable } from 'node:stream'
import {
  type ClientApp,
  type ClientConnection,
  type ClientCapabilities,
  client,
  methods,
  ndJsonStream,
  type RequestPermissionResponse,
  type SessionNotification,
} from '@agentclientprotocol/sdk'
import { expect } from 'vitest'
import { type Sandbox, sandbox, TACK_BIN } from '../helpers.ts'

export interface AcpChild {
  readonly box: Sandbox
  readonly child: ChildProcess
  readonly connection: ClientConnection
  /** Every session/update received, in order. */
  readonly updates: SessionNotification[]
  /** Every permission request received, in order. */
  readonly permissionRequests: unknown[]
  stderr(): string
  /** Closes stdin and waits for the exit code. */
  close(): Promise<number | null>
}

export interface AcpChildOptions {
  /** Script entries of the scripted model, written to `<root>/model.json`. */
  readonly script?: readonly unknown[]
  readonly box?: Sandbox
  readonly args?: readonly string[]
  /** The answer to each permission request (default: reject once). */
  readonly permission?: (request: unknown) => RequestPermissionResponse | Promise<RequestPermissionResponse>
  /** More client handlers (fs, terminal). */
  readonly configure?: (app: ClientApp) => ClientApp
  readonly capabilities?: ClientCapabilities
  /** Skip `initialize` (for the error table). */
  readonly noInitialize?: boolean
}

export function scriptPath(box: Sandbox, name = 'model.json'): string {
  return join(box.root, name)
}

export async function startAcp(opts: AcpChildOptions = {}): Promise<AcpChild> {
  const box = opts.box ?? (await sandbox())
  const model = scriptPath(box)
  if (opts.script) await writeFile(model, JSON.stringify(opts.script))
  const child = spawn(
    process.execPath,
    [TACK_BIN, 'acp', '--model', `scripted/${model}`, ...(opts.args ?? [])],
    {
      env: box.env,
      cwd: box.workspace,
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  )
  let stderr = ''
  child.stderr?.setEncoding('utf8').on('data', (d: string) => (stderr += d))
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  const updates: SessionNotification[] = []
  const permissionRequests: unknown[] = []
  let app = client({ name: 'tack-test' })
    .onNotification(methods.client.session.update, ({ params }) => {
      updates.push(params)
    })
    .onRequest(methods.client.session.requestPermission, async ({ params }) => {
      permissionRequests.push(params)
      return opts.permission
        ? opts.permission(params)
        : { outcome: { outcome: 'selected', optionId: 'reject-once' } }
    })
  if (opts.configure) app = opts.configure(app)
  const stream = ndJsonStream(
    Writable.toWeb(child.stdin as Writable) as WritableStream<Uint8Array>,
    Readable.toWeb(child.stdout as Readable) as ReadableStream<Uint8Array>,
  )
  const connection = app.connect(stream)
  if (!opts.noInitialize)
    await connection.agent.request(methods.agent.initialize, {
      protocolVersion: 1,
      clientCapabilities: opts.capabilities ?? {},
    })
  return {
    box,
    child,
    connection,
    updates,
    permissionRequests,
    stderr: () => stderr,
    close: async () => {
      child.stdin?.end()
      return exited
    },
  }
}

/** A new session in the workspace, prompted once with `text`; resolves to the prompt's response. */
/** Starts `tack acp`, runs `body` against it, then closes it: every test also asks for a clean exit (0). */
export async function withAcp<T>(opts: AcpChildOptions, body: (acp: AcpChild) => Promise<T>): Promise<T> {
  const acp = await startAcp(opts)
  try {
    return await body(acp)
  } finally {
    expect(await acp.close()).toBe(0)
  }
}

export async function promptOnce(acp: AcpChild, text: string) {
  const { sessionId } = await acp.connection.agent.request(methods.agent.session.new, {
    cwd: acp.box.workspace,
    mcpServers: [],
  })
  return acp.connection.agent.request(methods.agent.session.prompt, {
    sessionId,
    prompt: [{ type: 'text', text }],
  })
}

/** The updates of one kind, for a session. */
export function updatesOf(acp: AcpChild, kind: string, sessionId?: string) {
  return acp.updates
    .filter((n) => sessionId === undefined || n.sessionId === sessionId)
    .map((n) => n.update)
    .filter((u) => u.sessionUpdate === kind) as Array<Record<string, unknown>>
}

/** Waits until `check` holds (updates arrive asynchronously). */
export async function until(check: () => boolean, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 10))
  }
}
