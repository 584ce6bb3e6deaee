// A stdio MCP server runs in its own process group, and the whole group ends with the server (spec
// 55-mcp.md M1, docs/decisions/0240-mcp-early-start.md), through the real binary: the server is
// `sh -c 'sleep 300 & exec node server-everything'`, so the `sleep` is tack's grandchild, which the
// SDK's own transport would leave running. After a normal end of `tack run`, and after a SIGTERM or a
// SIGHUP (the terminal closed) to tack in the middle of a turn, the sleep is gone.
import { spawn } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { startLoopbackServer } from '@tack/llm/testing'
import { describe, expect, test } from 'vitest'
import { outcomeOf, runTack, type Sandbox, sandbox, TACK_BIN } from './helpers.ts'
import { everythingBin, writeMcpConfig } from './mcp-everything.ts'

/** server-everything behind a shell that first starts `sleep 300` in the background and records its pid. */
function forkingServer(pidFile: string) {
  const script = `sleep 300 & echo $! > '${pidFile}'; exec '${process.execPath}' '${everythingBin}' stdio`
  return { type: 'stdio', command: 'sh', args: ['-c', script] }
}

/** Whether `pid` is a living process (a zombie waiting to be reaped does not count). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1')
    const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0]
    return state !== 'Z' && state !== 'X'
  } catch {
    return false
  }
}

/** The process group `pid` is in (Linux /proc). */
function groupOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'latin1')
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2])
}

async function gone(pid: number, withinMs: number): Promise<boolean> {
  const until = Date.now() + withinMs
  while (alive(pid)) {
    if (Date.now() > until) return false
    await sleep(50)
  }
  return true
}

async function waitFor(check: () => boolean, withinMs: number): Promise<void> {
  const until = Date.now() + withinMs
  while (!check()) {
    if (Date.now() > until) throw new Error('timed out')
    await sleep(25)
  }
}

type Script = NonNullable<Parameters<typeof startLoopbackServer>[0]>['script']

async function setup(box: Sandbox, script: Script) {
  const server = await startLoopbackServer({ script })
  const pidFile = join(box.root, 'grandchild.pid')
  const config = await writeMcpConfig(box.root, server.baseUrl, { forking: forkingServer(pidFile) })
  const args = ['run', '--config', config, '--permission-mode', 'yolo', '--model', 'loop/m', 'go']
  return { server, pidFile, args }
}

describe.skipIf(process.platform !== 'linux')('stdio MCP servers in their own process group', () => {
  test('a normal end of the run ends the server’s grandchild too', async () => {
    const box = await sandbox()
    const { server, pidFile, args } = await setup(box, [{ kind: 'text', text: 'done' }])
    try {
      const run = await runTack(args, { env: box.env, cwd: box.workspace })
      expect(run.code, run.stderr).toBe(0)
      // the server was up for the request: its tools were offered
      expect(server.requests[0]?.rawBody).toContain('mcp__forking__echo')
      const pid = Number(readFileSync(pidFile, 'utf8'))
      expect(pid).toBeGreaterThan(0)
      expect(await gone(pid, 5_000)).toBe(true)
    } finally {
      await server.close()
    }
  }, 60_000)

  test.each([
    ['SIGTERM', 143, false],
    ['SIGHUP', 129, false],
    ['SIGTERM', 143, true],
  ] as const)(
    '%s to tack mid-turn (exit %i; sent twice: %s) ends the server and its grandchild, which was in the server’s own group',
    async (signal, code, twice) => {
      const box = await sandbox()
      const { server, pidFile, args } = await setup(box, [
        { kind: 'tool-calls', calls: [{ name: 'bash', args: { command: 'sleep 30' } }] },
        { kind: 'text', text: 'done' },
      ])
      try {
        const child = spawn(process.execPath, [TACK_BIN, ...args], {
          env: box.env,
          cwd: box.workspace,
          stdio: 'pipe',
        })
        child.stdin.end()
        const outcome = outcomeOf(child)
        // the first request went out (so the servers were waited for) and the bash call is running
        await waitFor(() => server.requests.length >= 1 && existsSync(pidFile), 30_000)
        await sleep(300)
        const pid = Number(readFileSync(pidFile, 'utf8'))
        expect(alive(pid)).toBe(true)
        const group = groupOf(pid)
        expect(group).not.toBe(groupOf(child.pid as number))
        expect(group).not.toBe(groupOf(process.pid))
        child.kill(signal)
        // twice: tack exits at once (process.exit) without waiting for its disposal; its `exit` hook
        // still ends the server's group
        if (twice) {
          await sleep(20)
          child.kill(signal)
        }
        const run = await outcome
        // the second signal finds tack's run still handling signals (it exits with the code at once) or
        // past that, disposing (the signal then ends tack as it would with no handler)
        if (twice)
          expect([run.code, run.signal], run.stderr).toContainEqual(run.code === null ? signal : code)
        else expect(run.code, run.stderr).toBe(code)
        expect(await gone(pid, 5_000)).toBe(true)
      } finally {
        await server.close()
      }
    },
    60_000,
  )
})
