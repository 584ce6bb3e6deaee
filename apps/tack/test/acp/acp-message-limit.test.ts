// A line over the ACP message limit (plugins.acp.maxMessageBytes, by default the SDK's 32 MiB) through the
// real `tack acp` on raw pipes: the client gets a JSON-RPC parse error (its request's id when it can be
// read, else null), stderr one line, and the next request is answered — the SDK alone would end the
// connection and exit 0 without a word (packages/acp/src/line-guard.ts).
import { type ChildProcess, spawn } from 'node:child_process'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { runTack, type Sandbox, sandbox, TACK_BIN } from '../helpers.ts'
import { until } from './client.ts'

interface RawAcp {
  readonly child: ChildProcess
  readonly box: Sandbox
  send(text: string): void
  /** The message with this id, once it came. */
  reply(id: number | null): Promise<Record<string, unknown>>
  stderr(): string
  close(): Promise<number | null>
}

async function rawAcp(args: readonly string[] = []): Promise<RawAcp> {
  const box = await sandbox()
  const model = join(box.root, 'model.json')
  await writeFile(model, JSON.stringify([{ kind: 'text', text: 'hi' }]))
  const child = spawn(process.execPath, [TACK_BIN, 'acp', '--model', `scripted/${model}`, ...args], {
    env: box.env,
    cwd: box.workspace,
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout?.setEncoding('utf8').on('data', (d: string) => (stdout += d))
  child.stderr?.setEncoding('utf8').on('data', (d: string) => (stderr += d))
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  const messages = () =>
    stdout
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as Record<string, unknown>)
  const raw: RawAcp = {
    child,
    box,
    send: (text) => child.stdin?.write(text),
    reply: async (id) => {
      await until(() => messages().some((m) => m.id === id), `the reply with id ${id}`, 30_000)
      return messages().find((m) => m.id === id) as Record<string, unknown>
    },
    stderr: () => stderr,
    close: async () => {
      child.stdin?.end()
      return exited
    },
  }
  raw.send(
    `${JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: 1, clientCapabilities: {} } })}\n`,
  )
  await raw.reply(0)
  return raw
}

/** A `session/new` request whose `_meta` carries `padding` characters, `id` first (as the SDK writes it) or last. */
function newSessionLine(id: number, cwd: string, padding: number, idLast = false): string {
  const params = { cwd, mcpServers: [], _meta: { padding: 'x'.repeat(padding) } }
  const message = idLast
    ? { jsonrpc: '2.0', method: 'session/new', params, id }
    : { jsonrpc: '2.0', id, method: 'session/new', params }
  return `${JSON.stringify(message)}\n`
}

const SDK_LIMIT = 32 * 1024 * 1024

test('a request over the default 32 MiB limit is answered with -32700 by its id, stderr says so once, and the next request is served', async () => {
  const acp = await rawAcp()
  const over = newSessionLine(1, acp.box.workspace, SDK_LIMIT)
  acp.send(over)
  acp.send(newSessionLine(2, acp.box.workspace, 10))
  const refused = await acp.reply(1)
  expect(refused.error).toEqual({
    code: -32700,
    message: `Parse error: the message is ${Buffer.byteLength(over) - 1} bytes, over tack's limit of ${SDK_LIMIT} bytes`,
    data: { bytes: Buffer.byteLength(over) - 1, maxMessageBytes: SDK_LIMIT },
  })
  const served = await acp.reply(2)
  expect(served.result).toMatchObject({ sessionId: expect.any(String) })
  expect(acp.stderr().trim().split('\n')).toEqual([
    `tack acp: dropped a message of ${Buffer.byteLength(over) - 1} bytes from the client, over the limit of ${SDK_LIMIT} bytes (plugins.acp.maxMessageBytes); answered request 1 with error -32700`,
  ])
  expect(await acp.close()).toBe(0)
}, 60_000)

test('plugins.acp.maxMessageBytes moves the limit: a line at the limit is served, one over it gets -32700 with id null when its id comes after params', async () => {
  const box = await sandbox()
  const config = join(box.root, 'acp.yml')
  await writeFile(config, 'plugins:\n  acp:\n    maxMessageBytes: 65536\n')
  const acp = await rawAcp(['--config', config])
  const fits = newSessionLine(1, acp.box.workspace, 0)
  // Padded to exactly 65536 bytes before the newline.
  acp.send(newSessionLine(1, acp.box.workspace, 65_536 - (Buffer.byteLength(fits) - 1)))
  expect((await acp.reply(1)).result).toMatchObject({ sessionId: expect.any(String) })
  acp.send(newSessionLine(2, acp.box.workspace, 70_000, true))
  acp.send(newSessionLine(3, acp.box.workspace, 10))
  const refused = await acp.reply(null)
  expect(refused.error).toMatchObject({ code: -32700, data: { maxMessageBytes: 65_536 } })
  expect((await acp.reply(3)).result).toMatchObject({ sessionId: expect.any(String) })
  expect(acp.stderr()).toContain('sent error -32700 with id null (its id could not be read)')
  expect(await acp.close()).toBe(0)
})

test('plugins.acp.maxMessageBytes out of range is refused at start, naming the file, the key and the range', async () => {
  const box = await sandbox()
  const config = join(box.root, 'acp.yml')
  await writeFile(config, 'plugins:\n  acp:\n    maxMessageBytes: 1000\n')
  const r = await runTack(['acp', '--config', config], { env: box.env, cwd: box.workspace })
  expect(r.code).toBe(2)
  expect(r.stdout).toBe('')
  expect(r.stderr).toBe(
    `tack: ${config}: plugins.acp.maxMessageBytes: must be an integer 65536–1073741824 (got 1000)\n`,
  )
})
