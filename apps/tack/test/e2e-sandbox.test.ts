// Issue 9.3 and 9.4 acceptance through the real `tack run` binary and a scripted loopback model. In the
// default headless mode (workspace-write) bash runs in the OS sandbox: it cannot write outside the
// workspace, read $TACK_HOME/.env, or read tack's environment; an endpoint's key variable is removed
// from its environment whatever its name, and redacted from tack's output. SIGTERM and SIGHUP end a
// run like Ctrl-C: the command's process group dies, the turn is closed `aborted`, exit 143 / 129.
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { type LoopbackEntry, startLoopbackServer } from '@tack/llm/testing'
import { pidsMatching, tempDirOutsideTmp } from '@tack/process/testing'
import { SqliteSessionStore } from '@tack/store-sqlite'
import { describe, expect, test } from 'vitest'
import { jsonLines, runOnLoop, runTack, sandbox, startTackOnBashCall, TACK_BIN } from './helpers.ts'

const GPU_PASS = 'gpu-pass-canary-4242-value'
const ENV_FILE_CANARY = 'env-file-canary-in-tack-home'

/** The text of every tool result the model was sent, unredacted (what the model really saw). */
function toolResultsSent(requests: readonly { body?: unknown }[]): string {
  return requests.map((r) => JSON.stringify(r.body ?? '')).join('\n')
}

describe('issue 9.3: bash in the sandbox, through the real binary', () => {
  test("bash cannot write outside the workspace, read $TACK_HOME/.env, or read tack's environment", async () => {
    const outside = await tempDirOutsideTmp()
    const box = await sandbox({ GPU_PASS })
    await mkdir(box.tackHome, { recursive: true })
    await writeFile(join(box.tackHome, '.env'), `SOME_SETTING=${ENV_FILE_CANARY}\n`)
    const command = [
      'echo inside > made-inside.txt',
      `echo outside > ${outside}/made-outside.txt || echo OUTSIDE-REFUSED`,
      `cat ${box.tackHome}/.env || echo ENV-UNREADABLE`,
      'echo "key=[$GPU_PASS]"',
      'echo "setting=[$SOME_SETTING]"',
      "cat /proc/*/environ 2>/dev/null | tr '\\0' '\\n' | grep -c GPU_PASS || true",
      'echo "procs=$(ls /proc | grep -c "^[0-9]")"',
    ].join('; ')
    const script: LoopbackEntry[] = [
      { kind: 'tool-calls', calls: [{ name: 'bash', args: { command } }] },
      { kind: 'text', text: `done; the key is ${GPU_PASS}, the setting ${ENV_FILE_CANARY}` },
    ]
    const server = await startLoopbackServer({ script, expectApiKey: GPU_PASS })
    try {
      const run = await runOnLoop(box, server.baseUrl, ['--json', '--model', 'loop/m', 'probe the sandbox'], {
        apiKeyEnv: 'GPU_PASS',
        fastRetries: true,
      })
      expect(run.stderr).toBe('')
      expect(run.code).toBe(0)
      expect(existsSync(join(box.workspace, 'made-inside.txt'))).toBe(true)
      expect(existsSync(join(outside, 'made-outside.txt'))).toBe(false)

      const seen = toolResultsSent(server.requests)
      expect(seen).toContain('OUTSIDE-REFUSED')
      expect(seen).toContain('ENV-UNREADABLE')
      expect(seen).not.toContain(ENV_FILE_CANARY)
      expect(seen).toContain('key=[]')
      expect(seen).toContain('setting=[]') // a $TACK_HOME/.env value does not reach bash by name either
      expect(seen).not.toContain(GPU_PASS) // never in what bash printed
      expect(seen).toMatch(/\\n0\\n/) // no /proc/*/environ in the sandbox names GPU_PASS
      // a fresh /proc: bwrap's pid 1, the lifeline's watcher, bash, the $(…) subshell, ls, grep — not the host's
      expect(Number(/procs=(\d+)/.exec(seen)?.[1])).toBeLessThanOrEqual(6)

      // The redactor: the endpoint's key value (not a *KEY* name) and a $TACK_HOME/.env value — every
      // variable a plugin declared in ctx.secrets — never reach tack's own output.
      expect(run.stdout).not.toContain(GPU_PASS)
      expect(run.stdout).not.toContain(ENV_FILE_CANARY)
      expect(jsonLines(run.stdout).at(-1)).toMatchObject({
        answer: 'done; the key is [redacted], the setting [redacted]',
      })
    } finally {
      await server.close()
    }
  })

  test('doctor says whether bash is sandboxed', async () => {
    const box = await sandbox({ DEEPSEEK_API_KEY: 'sk-doctor-test-0000000000' })
    const run = await runTack(['doctor'], { env: box.env, cwd: box.workspace })
    expect(run.stdout).toMatch(
      /bash sandbox\s+bubblewrap .*: bash is confined in workspace-write and read-only modes, network allowed/,
    )
    const noBwrap = { ...box.env, PATH: '/nonexistent' }
    const node = process.execPath
    const bare = await new Promise<string>((resolve) => {
      const child = spawn(node, [TACK_BIN, 'doctor'], { env: noBwrap, cwd: box.workspace })
      let out = ''
      child.stdout.on('data', (d: Buffer) => (out += d))
      child.on('close', () => resolve(out))
    })
    expect(bare).toMatch(
      /bash sandbox\s+UNAVAILABLE: bash runs unconfined \(bubblewrap \(bwrap\) is not installed/,
    )
    expect(bare).toMatch(/warnings:\n {2}- bash cannot be sandboxed/)
  })
})

describe('issue 9.4: SIGTERM and SIGHUP end a run like Ctrl-C', () => {
  async function signalDuringSleep(signal: NodeJS.Signals) {
    const marker = `${Date.now()}${Math.floor(Math.random() * 1000)}`
    const box = await sandbox()
    const { server, child, exited } = await startTackOnBashCall(box, `sleep 30.${marker}`, 'sleep')
    try {
      const deadline = Date.now() + 20_000
      while (pidsMatching(marker).length === 0) {
        if (Date.now() > deadline) throw new Error('the sleep never started')
        await new Promise((r) => setTimeout(r, 50))
      }
      child.kill(signal)
      const code = await exited
      expect(pidsMatching(marker)).toEqual([])
      const store = SqliteSessionStore.open({ path: join(box.tackHome, 'sessions.db') })
      try {
        const [summary] = await store.list()
        const { events } = await store.load(summary.id)
        const types = events.map((e) => e.type)
        expect(types).toContain('tool/result')
        expect(events.at(-1)).toMatchObject({ type: 'turn/end', data: { reason: { kind: 'aborted' } } })
      } finally {
        await store.close()
      }
      return code
    } finally {
      await server.close()
    }
  }

  test('SIGTERM during `sleep 30` leaves no sleep, a closed turn, exit 143', async () => {
    expect(await signalDuringSleep('SIGTERM')).toBe(143)
  })

  test('SIGHUP during `sleep 30` leaves no sleep, a closed turn, exit 129', async () => {
    expect(await signalDuringSleep('SIGHUP')).toBe(129)
  })

  test('SIGINT keeps its code, 130', async () => {
    expect(await signalDuringSleep('SIGINT')).toBe(130)
  })
})
