// Claude Code hook events through the real interactive tack in a pty (docs/decisions/
// 0106-tui-acceptance-in-a-pty.md, 0170-hook-event-seams.md): a trusted project `.claude/settings.json`
// hooks all 33 events with bash + jq hooks that append their payload to a log. One session: a prompt whose
// model message runs one good and one failing command in `ask` mode (two permission questions, the first
// left waiting), an idle box, `/model`, `/compact`, another prompt, `/clear`, and Ctrl-D. Each event fires
// once per moment with its fields; events tack does not fire never do. Run `node scripts/build.ts` first.
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import {
  FIRED,
  HOOK_EVENTS,
  countsOf,
  loggedPayloads,
  writeAllEventsSettings,
} from './hook-events-settings.ts'
import { closeAllTuis, openTui, submit } from './pty/tui-session.ts'

afterEach(closeAllTuis)

const SUMMARY = 'SUMMARY: one command worked, one failed.'
const FAILING = 'seq 1 300; echo broken >&2; exit 3'
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

async function until(check: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const end = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out waiting for the hook log')
    await sleep(50)
  }
}

it('every event tack has a moment for fires once per moment, with its fields', async () => {
  let log = ''
  let workspace = ''
  const run = await openTui(
    [
      {
        kind: 'tool-calls',
        calls: [
          { name: 'bash', args: { command: 'echo fine' } },
          { name: 'bash', args: { command: FAILING } },
        ],
      },
      { kind: 'text', text: 'One worked, one failed.' },
      { kind: 'text', text: SUMMARY },
      { kind: 'text', text: 'Still here.' },
    ],
    {
      args: ['--permission-mode', 'ask', '--trust'],
      prepare: async (ws) => {
        workspace = ws
        log = join(ws, '..', 'hooks.jsonl')
        // PostCompact's stdout is shown with the /compact result.
        await writeAllEventsSettings(ws, log, { PostCompact: 'echo "post-compact note"' })
        await writeFile(join(ws, 'CLAUDE.md'), 'Be brief.\n')
        // The attention thresholds, short enough to wait out, in the user's config ($TACK_HOME/config.yml).
        const tackHome = join(ws, '..', 'tack-home')
        await mkdir(tackHome, { recursive: true })
        await writeFile(
          join(tackHome, 'config.yml'),
          'plugins:\n  tui:\n    permissionNotifyMs: 2500\n    idleNotifyMs: 2500\n',
        )
      },
    },
  )
  const { term, server } = run
  await submit(term, 'run both')
  await term.waitFor('Permission required', 20_000)
  // The first question waits past permissionNotifyMs: one Notification permission_prompt.
  await until(async () => countsOf(await loggedPayloads(log)).Notification === 1)
  term.press('enter')
  await term.waitFor(/Allow bash seq 1 300/, 20_000)
  term.press('enter')
  await term.waitFor('One worked, one failed.', 20_000)
  // The box sits idle past idleNotifyMs (counted from the turn's end, after its Stop hook): one idle_prompt.
  await until(async () => countsOf(await loggedPayloads(log)).Notification === 2)
  await submit(term, '/model loop/other')
  await term.waitFor('model set to loop/other', 20_000)
  await submit(term, '/compact')
  await term.waitFor('conversation compacted', 30_000)
  await term.waitFor('post-compact note', 20_000)
  await submit(term, 'still there?')
  await term.waitFor('Still here.', 20_000)
  // The answer is on screen before its turn ends: /clear now would cancel the turn's Stop hook.
  await until(async () => countsOf(await loggedPayloads(log)).Stop === 2)
  await submit(term, '/clear')
  await term.waitFor(/session [0-9a-f]{8}/, 20_000)
  // The new session's SessionStart runs detached; leaving before it finishes would cut it (A8).
  await until(async () => countsOf(await loggedPayloads(log)).SessionStart === 3)
  term.press('ctrl-d')
  expect((await term.exit).exitCode).toBe(0)
  expect(server.requests).toHaveLength(4)

  const payloads = await loggedPayloads(log)
  const of = (event: string) => payloads.filter((p) => p.hook_event_name === event)
  const counts = countsOf(payloads)
  for (const event of HOOK_EVENTS) if (!FIRED.has(event)) expect(counts[event], event).toBeUndefined()
  expect(counts).toMatchObject({
    SessionStart: 3,
    UserPromptSubmit: 2,
    InstructionsLoaded: 1,
    PreToolUse: 2,
    PermissionRequest: 2,
    PostToolUse: 1,
    PostToolUseFailure: 1,
    PostToolBatch: 1,
    Stop: 2,
    Notification: 2,
    PreModelSwitch: 1,
    PostModelSwitch: 1,
    PreCompact: 1,
    PostCompact: 1,
    SessionEnd: 2,
  })
  expect(counts.StopFailure).toBeUndefined()
  expect(of('SessionStart').map((p) => p.source)).toEqual(['startup', 'compact', 'clear'])
  expect(of('InstructionsLoaded')[0]).toMatchObject({
    file_path: join(workspace, 'CLAUDE.md'),
    memory_type: 'Project',
    load_reason: 'session_start',
  })
  const permission = of('PermissionRequest')
  expect(permission.map((p) => (p.tool_input as { command: string }).command)).toEqual(['echo fine', FAILING])
  for (const p of permission) {
    expect(p).toMatchObject({ tool_name: 'Bash', permission_suggestions: [], permission_mode: 'default' })
    expect('tool_use_id' in p).toBe(false)
  }
  expect(of('PostToolUse')[0]).toMatchObject({ tool_input: { command: 'echo fine' } })
  expect(of('PostToolUseFailure')[0]).toMatchObject({
    tool_name: 'Bash',
    tool_input: { command: FAILING },
    tool_use_id: 'call_2',
    is_interrupt: false,
  })
  expect(String(of('PostToolUseFailure')[0].error)).toContain('broken')
  const batch = of('PostToolBatch')[0].tool_calls as Array<Record<string, unknown>>
  expect(batch.map((c) => c.tool_use_id)).toEqual(['call_1', 'call_2'])
  expect(of('Notification').map((p) => [p.notification_type, p.message])).toEqual([
    ['permission_prompt', 'tack needs your permission to use bash'],
    ['idle_prompt', 'tack is waiting for your input'],
  ])
  expect(of('PreModelSwitch')[0]).toMatchObject({ from_model: 'loop/m', to_model: 'loop/other' })
  expect(of('PostModelSwitch')[0]).toMatchObject({ to_model: 'loop/other', source: 'slash_command' })
  expect(of('PreCompact')[0]).toMatchObject({ trigger: 'manual', custom_instructions: null })
  expect(of('PostCompact')[0]).toMatchObject({ trigger: 'manual', compact_summary: SUMMARY })
  const ends = of('SessionEnd')
  expect(ends.map((p) => p.reason)).toEqual(['clear', 'prompt_input_exit'])
  // /clear starts a new session: its SessionStart and the final SessionEnd carry the new id.
  const [first, , cleared] = of('SessionStart')
  expect(ends[0].session_id).toBe(first.session_id)
  expect(ends[1].session_id).toBe(cleared.session_id)
  expect(cleared.session_id).not.toBe(first.session_id)
}, 150_000)

// "Allow for this session" answers the same command later without a question, so no PermissionRequest
// fires for it (as in Claude Code, where no prompt means no hook); PreToolUse still fires for each call.
it('a call a session answer allows fires no PermissionRequest', async () => {
  let log = ''
  const again = { kind: 'tool-calls', calls: [{ name: 'bash', args: { command: 'echo same' } }] } as const
  const run = await openTui([again, again, { kind: 'text', text: 'Ran it twice.' }], {
    args: ['--permission-mode', 'ask', '--trust'],
    prepare: async (ws) => {
      log = join(ws, '..', 'hooks.jsonl')
      await writeAllEventsSettings(ws, log)
    },
  })
  const { term } = run
  await submit(term, 'twice')
  await term.waitFor('Allow bash echo same?', 20_000)
  term.type('2')
  await term.waitFor('Ran it twice.', 20_000)
  await until(async () => countsOf(await loggedPayloads(log)).Stop === 1)
  term.press('ctrl-d')
  expect((await term.exit).exitCode).toBe(0)
  const counts = countsOf(await loggedPayloads(log))
  expect(counts).toMatchObject({ PreToolUse: 2, PostToolUse: 2, PermissionRequest: 1 })
}, 90_000)
