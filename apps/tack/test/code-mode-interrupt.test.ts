// Ctrl-C, SIGTERM, Esc and an ACP cancel stop a Code Mode program that never yields (`while (true) {}`)
// at once, through the real binary (docs/decisions/0150-code-mode-off-thread.md). The compute budget is
// 60 s, so "at once" and "at the budget" are far apart: each run must end within a few seconds of the
// signal, and the run_code result says the program was interrupted.
import { spawn } from 'node:child_process'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { methods } from '@agentclientprotocol/sdk'
import { afterEach, describe, expect, test } from 'vitest'
import { until, updatesOf, withAcp } from './acp/client.ts'
import { jsonLines, outcomeOf, type Sandbox, sandbox, scriptedModel, TACK_BIN } from './helpers.ts'
import { closeAllTuis, openTui, submit } from './pty/tui-session.ts'

afterEach(closeAllTuis)

const SPIN = "console.log('spinning')\nwhile (true) {}"
const spinCall = {
  kind: 'tool-calls',
  calls: [{ id: 'c1', name: 'run_code', args: { code: SPIN } }],
} as const
/** Far above anything the assertions allow: a run that waited for the budget fails them. */
const BUDGET_YAML = 'plugins:\n  codeRuntime:\n    computeMs: 60000\n    maxWallMs: 120000\n'
/** "At once", with room for a loaded machine; the budget is 60 s. */
const PROMPTLY_MS = 12_000

/** A sandbox whose user config (TACK_HOME/config.yml) sets the long budgets. */
async function budgetBox(): Promise<Sandbox> {
  const box = await sandbox()
  await mkdir(box.tackHome, { recursive: true })
  await writeFile(join(box.tackHome, 'config.yml'), BUDGET_YAML)
  return box
}

async function signalledRun(signal: 'SIGINT' | 'SIGTERM') {
  const box = await budgetBox()
  const model = await scriptedModel(box.root, [spinCall, { kind: 'text', text: 'never reached' }])
  const child = spawn(
    process.execPath,
    [TACK_BIN, 'run', '--json', '--trust', '--tools-mode', 'code', '--model', model, 'spin'],
    { env: box.env, cwd: box.workspace, stdio: ['ignore', 'pipe', 'pipe'] },
  )
  let stdout = ''
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d))
  const outcome = outcomeOf(child)
  try {
    await until(() => /"type":"tool\/call".*"name":"run_code"/.test(stdout), 'the run_code call', 60_000)
    // Let the guest reach its loop (the worker, the isolate and the strip take a moment).
    await new Promise((r) => setTimeout(r, 1_000))
    const signalledAt = performance.now()
    child.kill(signal)
    const r = await outcome
    return { ...r, stdout: stdout, tookMs: performance.now() - signalledAt }
  } finally {
    child.kill('SIGKILL')
  }
}

function expectInterrupted(stdout: string) {
  const events = jsonLines(stdout)
  expect(events.find((e) => e.type === 'turn/end')).toMatchObject({ data: { reason: { kind: 'aborted' } } })
  const result = events.find((e) => e.type === 'tool/result') as
    | { data: { isError: boolean; meta: unknown; content: Array<{ text: string }> } }
    | undefined
  expect(result?.data).toMatchObject({ isError: true, meta: { kind: 'aborted' } })
  expect(result?.data.content[0].text).toMatch(/^run_code failed \(aborted\): the program was interrupted/)
}

describe('Code Mode: an abort stops a busy program at once', () => {
  const signals = [
    ['Ctrl-C (SIGINT)', 'SIGINT', 130],
    ['SIGTERM', 'SIGTERM', 143],
  ] as const
  for (const [what, signal, exitCode] of signals) {
    test(`${what} during while (true) {}: tack exits ${exitCode} within seconds, the turn is logged aborted and the result says interrupted`, async () => {
      const r = await signalledRun(signal)
      expect(r.tookMs, `exit came ${Math.round(r.tookMs)} ms after ${signal}`).toBeLessThan(PROMPTLY_MS)
      expect(r.code, r.stderr).toBe(exitCode)
      expectInterrupted(r.stdout)
    }, 90_000)
  }

  test('Esc in the TUI interrupts while (true) {}; the UI answers and takes the next prompt', async () => {
    const { term, server } = await openTui([spinCall, { kind: 'text', text: 'never reached' }], {
      args: ['--tools-mode', 'code', '--permission-mode', 'yolo'],
      prepare: async (ws) => {
        await mkdir(join(ws, '..', 'tack-home'), { recursive: true })
        await writeFile(join(ws, '..', 'tack-home', 'config.yml'), BUDGET_YAML)
      },
    })
    await submit(term, 'spin')
    await term.waitFor(/● run_code console\.log\('spinning'\).*running/, 30_000)
    await new Promise((r) => setTimeout(r, 1_000))
    const pressedAt = performance.now()
    term.press('esc')
    await term.waitFor('interrupted', PROMPTLY_MS)
    await term.waitForGone('Esc to interrupt', PROMPTLY_MS)
    expect(performance.now() - pressedAt).toBeLessThan(PROMPTLY_MS)
    expect(server.requests).toHaveLength(1)
    term.type('still here?')
    await term.waitFor('still here?')
  }, 90_000)

  test('ACP session/cancel during while (true) {}: the prompt ends cancelled within seconds and the session goes on', async () => {
    await withAcp(
      {
        box: await budgetBox(),
        args: ['--tools-mode', 'code', '--permission-mode', 'workspace-write'],
        script: [spinCall, { kind: 'text', text: 'never reached' }, { kind: 'text', text: 'usable again' }],
      },
      async (acp) => {
        const { sessionId } = await acp.connection.agent.request(methods.agent.session.new, {
          cwd: acp.box.workspace,
          mcpServers: [],
        })
        const prompt = (text: string) =>
          acp.connection.agent.request(methods.agent.session.prompt, {
            sessionId,
            prompt: [{ type: 'text', text }],
          })
        const pending = prompt('spin')
        await until(() => updatesOf(acp, 'tool_call').length > 0, 'the run_code call', 30_000)
        await new Promise((r) => setTimeout(r, 1_000))
        const cancelledAt = performance.now()
        await acp.connection.agent.notify(methods.agent.session.cancel, { sessionId })
        expect((await pending).stopReason).toBe('cancelled')
        expect(performance.now() - cancelledAt).toBeLessThan(PROMPTLY_MS)
        const final = updatesOf(acp, 'tool_call_update').at(-1)
        expect(final?.status).toBe('failed')
        expect(JSON.stringify(final?.content)).toContain('the program was interrupted')
        expect((await prompt('still there?')).stopReason).toBe('end_turn')
      },
    )
  }, 90_000)
})
