// Codex hooks Codex 0.171 fires that tack did not (packages/hooks-codex/README.md, *Points and seams* and
// *Not fired*), through the real binary: a project `.codex/hooks.json` in a trusted workspace, hooks
// written in bash + jq that record their stdin, and a loopback model whose parent spawns a subagent.
// SubagentStart's plain stdout reaches the child's first request, SubagentStop's block makes the child
// continue once, and `tack hooks list` marks a configured event tack never fires as `not fired`. In an
// ask-mode run PermissionRequest allows `seq` and denies the rest; `/compact` is blocked once by PreCompact's
// `continue: false`, then runs with PreCompact and PostCompact (trigger `manual`).
import { existsSync } from 'node:fs'
import { chmod, mkdir, readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { startLoopbackServer } from '@tack/llm/testing'
import { expect, test } from 'vitest'
import {
  runTack,
  type Sandbox,
  sandbox,
  signalDuringBashCall,
  writeJson,
  writeLoopConfig,
} from './helpers.ts'

/** A bash hook that stores its stdin as `<captures>/<event>-<n>.json`, then runs `then`. */
async function captureHook(box: Sandbox, name: string, then = ''): Promise<string> {
  const captures = join(box.root, 'captures')
  await mkdir(captures, { recursive: true })
  const path = join(box.root, `${name}.sh`)
  await writeFile(
    path,
    [
      '#!/usr/bin/env bash',
      'input=$(cat)',
      `event=$(printf '%s' "$input" | jq -r .hook_event_name)`,
      `n=$(ls "${captures}" | grep -c "^$event-" || true)`,
      `printf '%s' "$input" > "${captures}/$event-$n.json"`,
      then,
      '',
    ].join('\n'),
  )
  await chmod(path, 0o755)
  return path
}

async function captured(box: Sandbox): Promise<Record<string, Record<string, unknown>>> {
  const dir = join(box.root, 'captures')
  const out: Record<string, Record<string, unknown>> = {}
  for (const f of (await readdir(dir)).sort()) {
    out[f.replace(/\.json$/, '')] = JSON.parse(await readFile(join(dir, f), 'utf8'))
  }
  return out
}

const requestText = (server: { requests: readonly { body: unknown }[] }, i: number) =>
  JSON.stringify((server.requests[i]?.body as { messages?: unknown[] } | undefined)?.messages ?? [])

test('Codex SubagentStart and SubagentStop hooks run through tack run; a never-fired event is listed as not fired', async () => {
  const server = await startLoopbackServer({
    script: [
      {
        kind: 'tool-calls',
        calls: [{ name: 'subagent', args: { description: 'survey', prompt: 'survey the repo' } }],
      },
      { kind: 'text', text: 'child first answer' },
      { kind: 'text', text: 'child checked answer' },
      { kind: 'text', text: 'all done' },
    ],
  })
  const box = await sandbox()
  try {
    const ws = box.workspace
    const marker = join(box.root, 'blocked-once')
    const start = await captureHook(box, 'start', `echo "subagent rule: be brief"`)
    const stop = await captureHook(
      box,
      'stop',
      `if [ ! -e "${marker}" ]; then touch "${marker}"; jq -n '{decision: "block", reason: "verify before finishing"}'; fi`,
    )
    const never = await captureHook(box, 'never')
    await mkdir(join(ws, '.codex'))
    await writeFile(
      join(ws, '.codex', 'hooks.json'),
      JSON.stringify({
        hooks: {
          SubagentStart: [{ matcher: 'default', hooks: [{ type: 'command', command: start }] }],
          SubagentStop: [{ matcher: 'default', hooks: [{ type: 'command', command: stop }] }],
          StopFailure: [{ hooks: [{ type: 'command', command: never }] }],
        },
      }),
    )
    // A Claude Code event tack never fires is marked the same way.
    await mkdir(join(ws, '.claude'))
    await writeFile(
      join(ws, '.claude', 'settings.json'),
      JSON.stringify({ hooks: { Elicitation: [{ hooks: [{ type: 'command', command: never }] }] } }),
    )
    expect((await runTack(['trust'], { env: box.env, cwd: ws })).code).toBe(0)
    expect((await runTack(['hooks', 'trust'], { env: box.env, cwd: ws })).code).toBe(0)

    const list = await runTack(['hooks', 'list'], { env: box.env, cwd: ws })
    expect(list.stdout).toMatch(/codex +SubagentStart +default +runs/)
    expect(list.stdout).toMatch(/codex +SubagentStop +default +runs/)
    expect(list.stdout).toMatch(/codex +StopFailure +\* +not fired/)
    expect(list.stdout).toMatch(/claude +Elicitation +\* +not fired/)
    expect(list.stdout).toContain('— not fired by tack: Codex 0.171 does not fire StopFailure')

    const config = await writeLoopConfig(box.root, server.baseUrl)
    const run = await runTack(['run', '--config', config, '--model', 'loop/m', 'delegate a survey'], {
      env: box.env,
      cwd: ws,
    })
    expect(run.code).toBe(0)
    expect(run.stdout).toContain('all done')
    expect(server.requests).toHaveLength(4)
    // The child's first request carries SubagentStart's context ahead of its task; its second, the block.
    expect(requestText(server, 1)).toContain('subagent rule: be brief')
    expect(requestText(server, 1).indexOf('subagent rule')).toBeLessThan(
      requestText(server, 1).indexOf('survey the repo'),
    )
    expect(requestText(server, 0)).not.toContain('subagent rule')
    expect(requestText(server, 2)).toContain('verify before finishing')
    // The parent got the child's answer after the forced continuation.
    expect(requestText(server, 3)).toContain('child checked answer')

    const payloads = await captured(box)
    expect(Object.keys(payloads)).toEqual(['SubagentStart-0', 'SubagentStop-0', 'SubagentStop-1'])
    const startPayload = payloads['SubagentStart-0']
    expect(startPayload).toMatchObject({
      hook_event_name: 'SubagentStart',
      agent_type: 'default',
      cwd: ws,
      model: 'loop/m',
    })
    expect(typeof startPayload.agent_id).toBe('string')
    expect(startPayload.turn_id).toMatch(/:1$/)
    expect(payloads['SubagentStop-0']).toMatchObject({
      hook_event_name: 'SubagentStop',
      agent_id: startPayload.agent_id,
      session_id: startPayload.session_id,
      transcript_path: startPayload.transcript_path,
      stop_hook_active: false,
      last_assistant_message: 'child first answer',
    })
    expect(payloads['SubagentStop-1']).toMatchObject({
      stop_hook_active: true,
      last_assistant_message: 'child checked answer',
    })
    const childFile = String(payloads['SubagentStop-0'].agent_transcript_path)
    expect(childFile).not.toBe(startPayload.transcript_path)
    expect(await readFile(childFile, 'utf8')).toContain('child checked answer')
  } finally {
    await server.close()
  }
}, 60_000)

test('Codex PermissionRequest decides an ask-mode run; PreCompact blocks /compact once, then PreCompact and PostCompact see the compaction', async () => {
  const server = await startLoopbackServer({
    script: [
      { kind: 'tool-calls', calls: [{ name: 'bash', args: { command: 'seq 1 400' } }] },
      { kind: 'tool-calls', calls: [{ name: 'bash', args: { command: 'seq 2 400' } }] },
      { kind: 'tool-calls', calls: [{ name: 'bash', args: { command: 'touch forbidden' } }] },
      { kind: 'text', text: 'counted' },
    ],
  })
  const box = await sandbox()
  try {
    const ws = box.workspace
    // Allows `seq`, denies anything else with a message (any deny wins).
    const perm = await captureHook(
      box,
      'perm',
      `if printf '%s' "$input" | jq -e '.tool_input.command | startswith("seq ")' > /dev/null; then jq -n '{hookSpecificOutput: {hookEventName: "PermissionRequest", decision: {behavior: "allow"}}}'; else jq -n '{hookSpecificOutput: {hookEventName: "PermissionRequest", decision: {behavior: "deny", message: "only seq is allowed here"}}}'; fi`,
    )
    const marker = join(box.root, 'compaction-blocked-once')
    const pre = await captureHook(
      box,
      'pre',
      `if [ ! -e "${marker}" ]; then touch "${marker}"; jq -n '{continue: false, stopReason: "not before the audit copy"}'; fi`,
    )
    const post = await captureHook(box, 'post')
    await mkdir(join(ws, '.codex'))
    await writeFile(
      join(ws, '.codex', 'hooks.json'),
      JSON.stringify({
        hooks: {
          PermissionRequest: [{ matcher: 'Bash', hooks: [{ type: 'command', command: perm }] }],
          PreCompact: [{ matcher: 'manual', hooks: [{ type: 'command', command: pre }] }],
          PostCompact: [{ hooks: [{ type: 'command', command: post }] }],
        },
      }),
    )
    expect((await runTack(['trust'], { env: box.env, cwd: ws })).code).toBe(0)
    expect((await runTack(['hooks', 'trust'], { env: box.env, cwd: ws })).code).toBe(0)

    const config = await writeLoopConfig(box.root, server.baseUrl)
    const run = await runTack(
      ['run', '--config', config, '--model', 'loop/m', '--permission-mode', 'ask', 'count twice'],
      { env: box.env, cwd: ws },
    )
    expect(run.code).toBe(0)
    expect(server.requests).toHaveLength(4)
    expect(requestText(server, 1)).toContain('399')
    expect(requestText(server, 3)).toContain('only seq is allowed here')
    expect(existsSync(join(ws, 'forbidden'))).toBe(false)
    let payloads = await captured(box)
    expect(Object.keys(payloads)).toEqual([
      'PermissionRequest-0',
      'PermissionRequest-1',
      'PermissionRequest-2',
    ])
    expect(payloads['PermissionRequest-0']).toMatchObject({
      hook_event_name: 'PermissionRequest',
      permission_mode: 'default',
      tool_name: 'Bash',
      tool_input: { command: 'seq 1 400' },
      cwd: ws,
    })
    expect(payloads['PermissionRequest-0']).not.toHaveProperty('tool_use_id')

    const summary = await writeJson(join(box.root, 'summary.json'), [
      { kind: 'text', text: 'The user had the agent count with seq.' },
    ])
    const compact = ['run', '-c', '--config', config, '--model', `scripted/${summary}`, '/compact']
    const blocked = await runTack(compact, { env: box.env, cwd: ws })
    expect(blocked.code).not.toBe(0)
    expect(blocked.stdout + blocked.stderr).toContain('not before the audit copy')
    const done = await runTack(compact, { env: box.env, cwd: ws })
    expect(done.code).toBe(0)
    expect(done.stdout).toMatch(/^Compacted \d+ messages? into a summary/)
    payloads = await captured(box)
    expect(payloads['PreCompact-0']).toMatchObject({
      hook_event_name: 'PreCompact',
      trigger: 'manual',
      cwd: ws,
    })
    expect(payloads['PreCompact-0']).not.toHaveProperty('permission_mode')
    expect(payloads['PreCompact-1']).toMatchObject({ trigger: 'manual' })
    expect(Object.keys(payloads).filter((k) => k.startsWith('PostCompact'))).toEqual(['PostCompact-0'])
    expect(payloads['PostCompact-0']).toMatchObject({ hook_event_name: 'PostCompact', trigger: 'manual' })
  } finally {
    await server.close()
  }
}, 90_000)

// A Codex hook that fails — times out, prints JSON-looking text that does not parse, exits 1 — makes no
// decision (fail open: the approver is asked, the compaction runs), and Codex shows its status: tack says so
// on stderr, naming the hook, as the Claude bridge does.
test('failing Codex PermissionRequest, PreCompact and PostCompact hooks fail open with a warning on stderr', async () => {
  const box = await sandbox()
  const ws = box.workspace
  await mkdir(join(ws, '.codex'))
  const hook = (command: string, timeout?: number) => [
    { hooks: [{ type: 'command', command, ...(timeout ? { timeout } : {}) }] },
  ]
  await writeFile(
    join(ws, '.codex', 'hooks.json'),
    JSON.stringify({
      hooks: {
        PermissionRequest: hook('sleep 5', 1),
        PreCompact: hook('echo "{not json"'),
        PostCompact: hook('echo "broken" >&2; exit 1'),
      },
    }),
  )
  expect((await runTack(['trust'], { env: box.env, cwd: ws })).code).toBe(0)
  expect((await runTack(['hooks', 'trust'], { env: box.env, cwd: ws })).code).toBe(0)
  const first = await writeJson(join(box.root, 'first.json'), [
    { kind: 'tool-calls', calls: [{ name: 'bash', args: { command: 'seq 1 400' } }] },
    { kind: 'text', text: 'asked' },
  ])
  const run = await runTack(['run', '--model', `scripted/${first}`, '--permission-mode', 'ask', 'count'], {
    env: box.env,
    cwd: ws,
  })
  expect(run.code).toBe(0)
  expect(run.stderr).toMatch(
    /PermissionRequest hook \S+:permission_request:0:0 failed \(timed out[^)]*\); it is ignored/,
  )
  // No decision: the ask went on to the approver, which headless has none of.
  expect(run.stderr).toContain('no approver was available')
  const summary = await writeJson(join(box.root, 'summary.json'), [{ kind: 'text', text: 'counted' }])
  const compact = await runTack(['run', '-c', '--model', `scripted/${summary}`, '/compact'], {
    env: box.env,
    cwd: ws,
  })
  expect(compact.code).toBe(0)
  expect(compact.stdout).toMatch(/^Compacted/)
  expect(compact.stderr).toMatch(/PreCompact hook \S+:pre_compact:0:0 failed \([^)]+\); it is ignored/)
  expect(compact.stderr).toMatch(
    /PostCompact hook \S+:post_compact:0:0 failed \(exit 1\): broken; it is ignored/,
  )
}, 90_000)

// Ctrl-C in a headless run ends the turn `aborted` and then the run: the Interrupt hook, made for that
// moment, runs to completion before tack exits instead of being killed by the agent's disposal
// (docs/decisions/0186-codex-interrupt-outlives-disposal.md).
test('Codex Interrupt runs to completion when Ctrl-C ends a headless run', async () => {
  const box = await sandbox()
  const ws = box.workspace
  const done = join(box.root, 'interrupt-done')
  await mkdir(join(ws, '.codex'))
  const record = `cat > '${join(box.root, 'interrupt.json')}'; sleep 1; touch '${done}'`
  await writeFile(
    join(ws, '.codex', 'hooks.json'),
    JSON.stringify({ hooks: { Interrupt: [{ hooks: [{ type: 'command', command: record }] }] } }),
  )
  expect((await runTack(['trust'], { env: box.env, cwd: ws })).code).toBe(0)
  expect((await runTack(['hooks', 'trust'], { env: box.env, cwd: ws })).code).toBe(0)
  const r = await signalDuringBashCall(box, [], 'SIGINT')
  expect(r.code, r.stderr).not.toBe(0)
  expect(existsSync(done)).toBe(true)
  const payload = JSON.parse(await readFile(join(box.root, 'interrupt.json'), 'utf8'))
  expect(payload).toMatchObject({ hook_event_name: 'Interrupt', cwd: ws })
  expect(String(payload.turn_id)).toMatch(/:1$/)
}, 60_000)
