// 50-acp.md requirement 11 and the `acp` plugin's config: bash in the client's terminal. A stub client
// records every terminal request; the real `tack acp` runs with the scripted model.
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { type ClientApp, methods } from '@agentclientprotocol/sdk'
import { expect, test } from 'vitest'
import { runTack, type Sandbox, sandbox } from '../helpers.ts'
import { type AcpChild, promptOnce, updatesOf, withAcp } from './client.ts'

interface StubTerminal {
  readonly calls: string[]
  readonly created: unknown[]
}

/** A client terminal that "runs" every command: it exits 0 with fixed output, or never when `hang`. */
function stubTerminal(stub: StubTerminal, hang: boolean) {
  let exit: ((value: { exitCode: number | null; signal: string | null }) => void) | undefined
  return (app: ClientApp) =>
    app
      .onRequest(methods.client.terminal.create, ({ params }) => {
        stub.calls.push('create')
        stub.created.push(params)
        return { terminalId: 'term-1' }
      })
      .onRequest(methods.client.terminal.waitForExit, () => {
        stub.calls.push('wait')
        return hang
          ? new Promise((resolve) => {
              exit = resolve
            })
          : { exitCode: 0, signal: null }
      })
      .onRequest(methods.client.terminal.output, () => {
        stub.calls.push('output')
        return { output: 'from the editor terminal\n', truncated: false }
      })
      .onRequest(methods.client.terminal.kill, () => {
        stub.calls.push('kill')
        exit?.({ exitCode: null, signal: 'SIGKILL' })
        return {}
      })
      .onRequest(methods.client.terminal.release, () => {
        stub.calls.push('release')
        return {}
      })
}

const bashScript = (command: string) => [
  { kind: 'tool-calls', calls: [{ name: 'bash', args: { command } }] },
  { kind: 'text', text: 'done' },
]

/** `tack acp` for a client with a stub terminal; the model runs `command` once in bash, then answers. */
async function withStubTerminal(
  opts: { box?: Sandbox; args: readonly string[]; command: string; hang: boolean },
  body: (acp: AcpChild, stub: StubTerminal) => Promise<void>,
): Promise<void> {
  const stub: StubTerminal = { calls: [], created: [] }
  const { box, args, command, hang } = opts
  await withAcp(
    {
      ...(box && { box }),
      args,
      script: bashScript(command),
      capabilities: { terminal: true },
      configure: stubTerminal(stub, hang),
    },
    (acp) => body(acp, stub),
  )
}

/** A sandbox whose `acp.yml` sets one `plugins.acp` line; returns the box and the file. */
async function boxWithAcpSetting(setting: string): Promise<{ box: Sandbox; config: string }> {
  const box = await sandbox()
  const config = join(box.root, 'acp.yml')
  await writeFile(config, `plugins:\n  acp:\n    ${setting}\n`)
  return { box, config }
}

test('50-acp.md requirement 11: bash runs in the client terminal: create, wait, output, release; the card shows the terminal', async () => {
  const args = ['--permission-mode', 'yolo']
  await withStubTerminal({ args, command: 'echo hi', hang: false }, async (acp, stub) => {
    expect((await promptOnce(acp, 'run it')).stopReason).toBe('end_turn')
    expect(stub.calls).toEqual(['create', 'wait', 'output', 'release'])
    expect(stub.created[0]).toMatchObject({
      command: 'bash',
      args: ['-c', 'echo hi'],
      cwd: acp.box.workspace,
    })
    // in progress when the body starts, as every call; then the runner shows its terminal on the card
    const running = updatesOf(acp, 'tool_call_update').filter((u) => u.status === 'in_progress')
    expect(running.map((u) => u.content)).toEqual([undefined, [{ type: 'terminal', terminalId: 'term-1' }]])
    const done = updatesOf(acp, 'tool_call_update').find((u) => u.status === 'completed')
    expect(JSON.stringify(done?.content)).toContain('from the editor terminal')
  })
})

test('50-acp.md requirement 11: the timeout kills, then releases (plugins.acp.terminalTimeoutMs configured)', async () => {
  const { box, config } = await boxWithAcpSetting('terminalTimeoutMs: 1000')
  const args = ['--permission-mode', 'yolo', '--config', config]
  await withStubTerminal({ box, args, command: 'sleep 100', hang: true }, async (acp, stub) => {
    expect((await promptOnce(acp, 'run it')).stopReason).toBe('end_turn')
    expect(stub.calls).toEqual(['create', 'wait', 'kill', 'output', 'release'])
    const failed = updatesOf(acp, 'tool_call_update').find((u) => u.status === 'failed')
    expect(JSON.stringify(failed?.content)).toContain('timed out after 1000 ms')
  })
})

test('config: clientTerminal false, or a sandboxed mode, keeps bash local; the default uses the client terminal (previous tests)', async () => {
  const { box, config } = await boxWithAcpSetting('clientTerminal: false')
  for (const args of [
    ['--permission-mode', 'yolo', '--config', config],
    ['--permission-mode', 'workspace-write'],
  ]) {
    await withStubTerminal(
      { box: { ...box }, args, command: 'echo local', hang: false },
      async (acp, stub) => {
        await writeFile(join(box.root, 'model.json.cursor'), JSON.stringify({ next: 0, calls: 0 }))
        expect((await promptOnce(acp, 'run it')).stopReason).toBe('end_turn')
        expect(stub.calls).toEqual([])
        const done = updatesOf(acp, 'tool_call_update').find((u) => u.status === 'completed')
        expect(JSON.stringify(done?.content)).toContain('local')
      },
    )
  }
})

test('config: an out-of-range plugins.acp field is one line naming the key, exit 2', async () => {
  const { box, config } = await boxWithAcpSetting('terminalTimeoutMs: 5')
  const result = await runTack(['acp', '--model', 'scripted/x.json', '--config', config], {
    env: box.env,
    cwd: box.workspace,
  })
  expect(result.code).toBe(2)
  expect(result.stdout).toBe('')
  expect(result.stderr).toContain('plugins.acp.terminalTimeoutMs')
  expect(result.stderr.trim().split('\n')).toHaveLength(1)
})
