// Ctrl-C and SIGTERM while the session waits for its MCP servers to start (55-mcp.md M2,
// docs/decisions/0240-mcp-early-start.md): a server that never answers `initialize`, with a start bound
// of 30 s, must not hold tack for those 30 s once it was told to stop — neither before the first
// request nor before a headless `/mcp`. The exit code is the shell's for the signal.
import { spawn } from 'node:child_process'
import { appendFile } from 'node:fs/promises'
import { startLoopbackServer } from '@tack/llm/testing'
import { expect, test } from 'vitest'
import { outcomeOf, sandbox, TACK_BIN, writeLoopConfig } from './helpers.ts'

const silent = { type: 'stdio', command: process.execPath, args: ['-e', 'process.stdin.resume()'] }

async function interrupted(signal: NodeJS.Signals, task: string) {
  const box = await sandbox()
  const server = await startLoopbackServer({ script: [{ kind: 'text', text: 'never asked' }] })
  try {
    const config = await writeLoopConfig(box.root, server.baseUrl)
    await appendFile(
      config,
      `  mcp:\n    startupTimeoutMs: 30000\n    servers: ${JSON.stringify({ silent })}\n`,
    )
    const child = spawn(process.execPath, [TACK_BIN, 'run', '--config', config, '--model', 'loop/m', task], {
      env: box.env,
      cwd: box.workspace,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    const done = outcomeOf(child)
    await new Promise((resolve) => setTimeout(resolve, 3_000))
    const sent = Date.now()
    child.kill(signal)
    const outcome = await done
    return { outcome, afterSignalMs: Date.now() - sent, requests: server.requests.length }
  } finally {
    await server.close()
  }
}

test('Ctrl-C before the first request: tack stops waiting for the servers and exits 130', async () => {
  const { outcome, afterSignalMs, requests } = await interrupted('SIGINT', 'hello')
  // 130, or ended by the signal itself when it came before tack's own handler was in place (the shell
  // reports both as 130); either way within moments, not the servers' 30 s.
  expect(outcome.code === 130 || outcome.signal === 'SIGINT', outcome.stderr).toBe(true)
  expect(afterSignalMs).toBeLessThan(10_000)
  expect(requests).toBe(0)
}, 40_000)

test('SIGTERM during a headless /mcp: exit 143, not the listing 30 s later', async () => {
  const { outcome, afterSignalMs } = await interrupted('SIGTERM', '/mcp')
  expect(outcome.code === 143 || outcome.signal === 'SIGTERM', outcome.stderr).toBe(true)
  expect(afterSignalMs).toBeLessThan(10_000)
  expect(outcome.stdout).not.toContain('silent:')
}, 40_000)
