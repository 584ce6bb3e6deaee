// AL-23 through the real binary (packages/agent/README.md, docs/decisions/0195-cancel-during-admission.md):
// Ctrl-C while a project UserPromptSubmit hook of a trusted workspace still runs (`sleep 30`) ends
// `tack run` at once with exit 130 — not when the hook would have finished — kills the hook, sends
// nothing to the model, and records the prompt as not admitted (`prompt/blocked`, never `user/message`:
// a gate that never decided does not let its prompt into the session).
import { spawn } from 'node:child_process'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { startLoopbackServer } from '@tack/llm/testing'
import { isGone, waitForLine } from '@tack/process/testing'
import { expect, test } from 'vitest'
import { jsonLines, outcomeOf, runTack, type Sandbox, sandbox, TACK_BIN, writeLoopConfig } from './helpers.ts'

/** Generous for a loaded machine, far below the hook's 30 s. */
const EXIT_WITHIN_MS = 5000

/** The hook: its shell's pid to `pid` in the workspace, then 30 s of sleep. */
const SLOW_HOOK = 'cat > /dev/null; echo $$ > pid; sleep 30'

async function interruptDuringHook(box: Sandbox) {
  const server = await startLoopbackServer({ script: [{ kind: 'text', text: 'never asked' }] })
  try {
    const config = await writeLoopConfig(box.root, server.baseUrl)
    const child = spawn(
      process.execPath,
      [TACK_BIN, 'run', '--json', '--config', config, '--model', 'loop/m', 'hello'],
      {
        env: box.env,
        cwd: box.workspace,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    )
    const result = outcomeOf(child)
    try {
      const hookPid = Number(await waitForLine(join(box.workspace, 'pid')))
      const signalledAt = performance.now()
      child.kill('SIGINT')
      const r = await result
      const exitMs = performance.now() - signalledAt
      return { ...r, exitMs, hookPid, requests: server.requests.length }
    } finally {
      child.kill('SIGKILL')
    }
  } finally {
    await server.close()
  }
}

function expectCancelledBeforeAdmission(r: Awaited<ReturnType<typeof interruptDuringHook>>): void {
  expect(r.code, r.stderr).toBe(130)
  expect(r.exitMs, `exit ${Math.round(r.exitMs)} ms after SIGINT`).toBeLessThan(EXIT_WITHIN_MS)
  expect(isGone(r.hookPid), 'the hook still runs').toBe(true)
  expect(r.requests).toBe(0)
  const events = jsonLines(r.stdout)
  const types = events.map((e) => e.type)
  expect(types).not.toContain('user/message')
  expect(events.find((e) => e.type === 'prompt/blocked')).toMatchObject({
    data: { reason: 'cancelled before it was admitted', content: [{ type: 'text', text: 'hello' }] },
  })
  expect(events.find((e) => e.type === 'turn/end')).toMatchObject({ data: { reason: { kind: 'aborted' } } })
  expect(events.at(-1)).toMatchObject({ type: 'result', reason: { kind: 'aborted' } })
}

/**
 * A sandbox whose workspace holds `file` (`.claude/settings.json` or `.codex/hooks.json`, the same JSON
 * shape) with the slow UserPromptSubmit hook, trusted by `trust` (a `tack` command line).
 */
async function workspaceWithSlowHook(file: string, trust: readonly string[]): Promise<Sandbox> {
  const box = await sandbox()
  await mkdir(join(box.workspace, file, '..'), { recursive: true })
  await writeFile(
    join(box.workspace, file),
    JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: SLOW_HOOK }] }] } }),
  )
  const trusted = await runTack(trust, { env: box.env, cwd: box.workspace })
  expect(trusted.code, trusted.stderr).toBe(0)
  return box
}

test('AL-23 Ctrl-C during a Claude UserPromptSubmit hook of a trusted workspace: exit 130 at once, prompt not admitted', async () => {
  const box = await workspaceWithSlowHook('.claude/settings.json', ['trust'])
  expectCancelledBeforeAdmission(await interruptDuringHook(box))
}, 60_000)

test('AL-23 Ctrl-C during a Codex UserPromptSubmit hook of a trusted workspace: exit 130 at once, the hook killed', async () => {
  // `hooks trust --project` trusts the workspace and records the hook's hash, so the hook runs.
  const box = await workspaceWithSlowHook('.codex/hooks.json', ['hooks', 'trust', '--project'])
  expectCancelledBeforeAdmission(await interruptDuringHook(box))
}, 60_000)
