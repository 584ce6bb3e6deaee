// MCP tools as Claude Code's and Codex's hooks see them, through the real binary (55-mcp.md M8,
// docs/decisions/0250-mcp-approval-prompt.md), with hooks written as people write them (bash + jq) and the
// reference server (server-everything). Claude Code: PostToolUse's `tool_response` is the result's
// content blocks, and `updatedMCPToolOutput` replaces what the model reads. Codex: PreToolUse and
// PostToolUse name the tool `mcp__everything__<tool>` with the arguments as sent, `tool_response` is the
// CallToolResult object (`content`, `structuredContent`), and a PreToolUse deny stops the call.
import { chmod, mkdir, readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { type LoopbackEntry, startLoopbackServer } from '@tack/llm/testing'
import { describe, expect, test } from 'vitest'
import { jsonLines, runTack, type Sandbox, sandbox } from './helpers.ts'
import { writeMcpConfig } from './mcp-everything.ts'

/** A bash hook that stores its stdin as `<root>/captures/<event>-<tool>.json`, then runs `then`. */
async function captureHook(box: Sandbox, name: string, then = ''): Promise<string> {
  const captures = join(box.root, 'captures')
  await mkdir(captures, { recursive: true })
  const path = join(box.root, `${name}.sh`)
  await writeFile(
    path,
    [
      '#!/usr/bin/env bash',
      'input=$(cat)',
      `printf '%s' "$input" > "${captures}/$(printf '%s' "$input" | jq -r '.hook_event_name + "-" + .tool_name').json"`,
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
  for (const f of (await readdir(dir)).sort())
    out[f.replace(/\.json$/, '')] = JSON.parse(await readFile(join(dir, f), 'utf8'))
  return out
}

/** One scripted turn calling `tool` with `args`, then answering; the run and what the model was sent. */
async function runCall(box: Sandbox, tool: string, args: Record<string, unknown>) {
  const script: LoopbackEntry[] = [
    { kind: 'tool-calls', calls: [{ name: tool, args }] },
    { kind: 'text', text: 'done' },
  ]
  const server = await startLoopbackServer({ script })
  try {
    const config = await writeMcpConfig(box.root, server.baseUrl)
    const run = await runTack(
      ['run', '--config', config, '--json', '--permission-mode', 'yolo', '--model', 'loop/m', 'go'],
      { env: box.env, cwd: box.workspace },
    )
    return { run, second: JSON.stringify(server.requests[1]?.body ?? null) }
  } finally {
    await server.close()
  }
}

const toolResult = (stdout: string) =>
  jsonLines(stdout).find((l) => l.type === 'tool/result') as {
    data: { isError: boolean; content: Array<{ text: string }> }
  }

const ECHO = 'mcp__everything__echo'
const WEATHER = 'mcp__everything__get-structured-content'
const CHICAGO = { temperature: 36, conditions: 'Light rain / drizzle', humidity: 82 }

describe('Claude Code hooks and MCP tools', () => {
  async function claudeHooks(box: Sandbox, postThen = ''): Promise<void> {
    const post = await captureHook(box, 'post', postThen)
    await mkdir(join(box.home, '.claude'), { recursive: true })
    await writeFile(
      join(box.home, '.claude', 'settings.json'),
      JSON.stringify({
        hooks: {
          PostToolUse: [{ matcher: 'mcp__everything__.*', hooks: [{ type: 'command', command: post }] }],
        },
      }),
    )
  }

  test('PostToolUse gets tool_response as the content blocks Claude Code sends', async () => {
    const box = await sandbox()
    await claudeHooks(box)
    const { run } = await runCall(box, ECHO, { message: 'hi there' })
    expect(run.code, run.stderr).toBe(0)
    const post = (await captured(box))[`PostToolUse-${ECHO}`]
    expect(post).toMatchObject({
      tool_name: ECHO,
      tool_input: { message: 'hi there' },
      tool_response: [{ type: 'text', text: 'Echo: hi there' }],
    })
  })

  test("updatedMCPToolOutput replaces what the model reads of the MCP tool's result", async () => {
    const box = await sandbox()
    await claudeHooks(
      box,
      `jq -n '{hookSpecificOutput: {hookEventName: "PostToolUse", updatedMCPToolOutput: [{type: "text", text: "redacted by the hook"}]}}'`,
    )
    const { run, second } = await runCall(box, ECHO, { message: 'a secret' })
    expect(run.code, run.stderr).toBe(0)
    expect(run.stderr).not.toContain('not supported')
    expect(toolResult(run.stdout).data.content[0]?.text).toBe('redacted by the hook')
    expect(second).toContain('redacted by the hook')
    expect(second).not.toContain('Echo: a secret')
  })
})

describe('Codex hooks and MCP tools', () => {
  async function codexHooks(box: Sandbox, preThen = ''): Promise<void> {
    const pre = await captureHook(box, 'pre', preThen)
    const post = await captureHook(box, 'post')
    await mkdir(join(box.workspace, '.codex'))
    const group = (command: string) => [
      { matcher: 'mcp__everything__.*', hooks: [{ type: 'command', command }] },
    ]
    await writeFile(
      join(box.workspace, '.codex', 'hooks.json'),
      JSON.stringify({ hooks: { PreToolUse: group(pre), PostToolUse: group(post) } }),
    )
    expect((await runTack(['trust'], { env: box.env, cwd: box.workspace })).code).toBe(0)
    expect((await runTack(['hooks', 'trust'], { env: box.env, cwd: box.workspace })).code).toBe(0)
  }

  test('PreToolUse and PostToolUse see mcp__server__tool, the arguments as sent, and the CallToolResult', async () => {
    const box = await sandbox()
    await codexHooks(box)
    const { run } = await runCall(box, WEATHER, { location: 'Chicago' })
    expect(run.code, run.stderr).toBe(0)
    const payloads = await captured(box)
    expect(payloads[`PreToolUse-${WEATHER}`]).toMatchObject({
      hook_event_name: 'PreToolUse',
      tool_name: WEATHER,
      tool_input: { location: 'Chicago' },
    })
    const post = payloads[`PostToolUse-${WEATHER}`]
    expect(post).toMatchObject({ tool_name: WEATHER, tool_input: { location: 'Chicago' } })
    const response = post?.tool_response as { content: Array<{ type: string; text: string }> }
    expect(response).toEqual({
      content: [expect.objectContaining({ type: 'text' })],
      structuredContent: CHICAGO,
    })
    expect(JSON.parse(response.content[0]?.text ?? '')).toEqual(CHICAGO)
  })

  test("a Codex PreToolUse deny stops the MCP call, and the model reads Codex's wording", async () => {
    const box = await sandbox()
    await codexHooks(
      box,
      `jq -n '{hookSpecificOutput: {hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "no weather today"}}'`,
    )
    const { run, second } = await runCall(box, WEATHER, { location: 'Chicago' })
    expect(run.code, run.stderr).toBe(0)
    const result = toolResult(run.stdout)
    expect(result.data.isError).toBe(true)
    expect(result.data.content[0]?.text).toBe(
      `Tool call blocked by PreToolUse hook: no weather today. Tool: ${WEATHER}`,
    )
    expect(second).not.toContain('Light rain')
    expect(Object.keys(await captured(box))).toEqual([`PreToolUse-${WEATHER}`])
  })
})
