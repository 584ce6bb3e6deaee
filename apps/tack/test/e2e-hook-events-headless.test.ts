// Claude Code hook events in headless `tack run` through the real binary (packages/hooks-claude/README.md
// "Points"; docs/decisions/0170-hook-event-seams.md), with a trusted project `.claude/settings.json`
// hooking all 33 events: an exit-2 PreCompact blocks `tack run -c "/compact"` with a message naming the
// command; an API error ends the turn with StopFailure instead of Stop; SessionEnd `other` ends each run;
// `tack hooks list` marks the events tack does not fire.
import { join } from 'node:path'
import { expect, test } from 'vitest'
import {
  FIRED,
  HOOK_EVENTS,
  countsOf,
  loggedPayloads,
  writeAllEventsSettings,
} from './hook-events-settings.ts'
import { runTack, sandbox, signalDuringBashCall, writeJson } from './helpers.ts'

const BLOCKER = 'echo "not before the review" >&2; exit 2'

test('an exit-2 PreCompact hook blocks /compact, naming its command; SessionEnd other ends each run', async () => {
  const box = await sandbox()
  const log = join(box.root, 'hooks.jsonl')
  await writeAllEventsSettings(box.workspace, log, { PreCompact: BLOCKER })
  const first = await writeJson(join(box.root, 'first.json'), [
    { kind: 'tool-calls', calls: [{ name: 'bash', args: { command: 'seq 1 400' } }] },
    { kind: 'tool-calls', calls: [{ name: 'bash', args: { command: 'seq 2 400' } }] },
    { kind: 'text', text: 'counted' },
  ])
  const run = (args: string[]) => runTack(['run', '--trust', ...args], { env: box.env, cwd: box.workspace })
  const r1 = await run(['--model', `scripted/${first}`, 'count twice'])
  expect(r1.code).toBe(0)
  const summary = await writeJson(join(box.root, 'summary.json'), [{ kind: 'text', text: 'never asked' }])
  const r2 = await run(['-c', '--model', `scripted/${summary}`, '/compact'])
  expect(r2.code).not.toBe(0)
  expect(r2.stderr).toContain(
    `PreCompact hook blocked the compaction: [jq -c . >> '${log}'; ${BLOCKER}]: not before the review`,
  )
  const payloads = await loggedPayloads(log)
  const pre = payloads.filter((p) => p.hook_event_name === 'PreCompact')
  expect(pre).toEqual([expect.objectContaining({ trigger: 'manual', custom_instructions: null })])
  expect(payloads.some((p) => p.hook_event_name === 'PostCompact')).toBe(false)
  const ends = payloads.filter((p) => p.hook_event_name === 'SessionEnd')
  expect(ends.map((p) => p.reason)).toEqual(['other', 'other'])
  // The batches of the first run: one PostToolBatch per model message with calls, PostToolUse per call.
  const counts = countsOf(payloads)
  expect(counts.PostToolBatch).toBe(2)
  expect(counts.PostToolUse).toBe(2)
  for (const event of HOOK_EVENTS) if (!FIRED.has(event)) expect(counts[event]).toBeUndefined()
}, 120_000)

test('an API error ends the turn with StopFailure, not Stop; tack hooks list marks what tack does not fire', async () => {
  const box = await sandbox()
  const log = join(box.root, 'hooks.jsonl')
  await writeAllEventsSettings(box.workspace, log)
  const script = await writeJson(join(box.root, 'fail.json'), [
    { kind: 'error', message: 'no such model here', status: 404, code: 'HTTP_404' },
  ])
  const r = await runTack(['run', '--trust', '--model', `scripted/${script}`, 'hello'], {
    env: box.env,
    cwd: box.workspace,
  })
  expect(r.code).not.toBe(0)
  const payloads = await loggedPayloads(log)
  const failures = payloads.filter((p) => p.hook_event_name === 'StopFailure')
  expect(failures).toEqual([
    expect.objectContaining({ error: 'model_not_found', error_details: 'no such model here' }),
  ])
  expect(countsOf(payloads).Stop).toBeUndefined()

  const list = await runTack(['hooks', 'list', '--json', '--trust'], { env: box.env, cwd: box.workspace })
  const rows = JSON.parse(list.stdout) as Array<{ event: string; willRun: boolean; why?: string }>
  for (const event of HOOK_EVENTS) {
    const row = rows.find((x) => x.event === event)
    if (FIRED.has(event)) expect(row, event).toMatchObject({ willRun: true })
    else expect(row?.why, event).toMatch(/^not fired by tack: /)
  }
  const text = await runTack(['hooks', 'list', '--trust'], { env: box.env, cwd: box.workspace })
  expect(text.stdout).toContain('not fired by tack: tack has no MCP elicitation')
}, 120_000)

// A call cut by Ctrl-C (or SIGTERM) failed while running: PostToolUseFailure fires for it with
// `is_interrupt: true` (claude-code-hook-events.md), once, and never PostToolUse; SessionEnd follows once.
// The hook must not be cut by the very abort it reports.
test.each(['SIGINT', 'SIGTERM'] as const)(
  'a bash call cut by %s fires PostToolUseFailure with is_interrupt, then one SessionEnd',
  async (signal) => {
    const box = await sandbox()
    const log = join(box.root, 'hooks.jsonl')
    await writeAllEventsSettings(box.workspace, log)
    const r = await signalDuringBashCall(box, ['--trust'], signal)
    expect(r.code, r.stderr).not.toBe(0)
    const payloads = await loggedPayloads(log)
    const failures = payloads.filter((p) => p.hook_event_name === 'PostToolUseFailure')
    expect(failures).toEqual([
      expect.objectContaining({ tool_name: 'Bash', tool_use_id: 'call_1', is_interrupt: true }),
    ])
    const counts = countsOf(payloads)
    expect(counts.PostToolUse).toBeUndefined()
    expect(counts.SessionEnd).toBe(1)
  },
  60_000,
)

// "Prompt is too long" is a 400/413 from the provider (tack's CONTEXT_TOO_LONG): when compaction cannot
// help, the turn's StopFailure says `invalid_request`, as Claude Code does, not `unknown`.
test('a context-too-long end of a turn is StopFailure invalid_request', async () => {
  const box = await sandbox()
  const log = join(box.root, 'hooks.jsonl')
  await writeAllEventsSettings(box.workspace, log)
  const script = await writeJson(join(box.root, 'long.json'), [
    {
      kind: 'error',
      message: 'prompt is too long: 300000 tokens > 200000 maximum',
      code: 'CONTEXT_TOO_LONG',
      status: 400,
    },
  ])
  const r = await runTack(['run', '--trust', '--model', `scripted/${script}`, 'hello'], {
    env: box.env,
    cwd: box.workspace,
  })
  expect(r.code).not.toBe(0)
  const failures = (await loggedPayloads(log)).filter((p) => p.hook_event_name === 'StopFailure')
  expect(failures).toEqual([expect.objectContaining({ error: 'invalid_request' })])
}, 60_000)
