// An MCP server's image through the real binary (spec 55-mcp.md M4, docs/decisions/0255-image-content.md):
// server-everything's get-tiny-image is called by a model on the loopback server. For a model that takes
// images the next request carries the image once, as the provider wire wants it, every later step and a
// continued session carry it again from the log, and the log holds its bytes once; for a text-only model
// the requests carry a note and no image. Compaction and `tack run -c` work on a session with an image.
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { type LoopbackEntry, startLoopbackServer } from '@tack/llm/testing'
import { type SessionEvent, imagesOf } from '@tack/session'
import { checkLogStructure } from '@tack/session/invariants'
import { SqliteSessionStore } from '@tack/store-sqlite'
import { describe, expect, test } from 'vitest'
import { recordClaudeHook } from './claude-hook-recorder.ts'
import { runTack, type Sandbox, sandbox } from './helpers.ts'
import { everythingServer } from './mcp-everything.ts'

const TINY = 'mcp__everything__get-tiny-image'
const imageCall = { kind: 'tool-calls' as const, calls: [{ name: TINY, args: {} }] }
const echoCall = {
  kind: 'tool-calls' as const,
  calls: [{ name: 'mcp__everything__echo', args: { message: 'next' } }],
}

interface Wire {
  readonly kind: string
  /** The endpoint's `images` setting. */
  readonly images?: boolean
  /** `plugins.tools.maxImageBytes`. */
  readonly maxImageBytes?: number
}

/** A config whose endpoint `loop` (`wire`) is the loopback server, with server-everything. */
async function writeConfig(box: Sandbox, baseUrl: string, wire: Wire): Promise<string> {
  const file = join(box.root, 'image.yml')
  const imageKey = wire.images === undefined ? '' : `, images: ${wire.images}`
  const tools = wire.maxImageBytes === undefined ? '' : `  tools:\n    maxImageBytes: ${wire.maxImageBytes}\n`
  await writeFile(
    file,
    `plugins:\n  llm:\n    endpoints:\n      loop: { kind: ${wire.kind}, baseUrl: "${baseUrl}", apiKeyEnv: LOOP_KEY${imageKey} }\n  mcp:\n    servers: ${JSON.stringify({ everything: everythingServer })}\n${tools}`,
  )
  return file
}

/** One `tack run` (extra args first, e.g. `-c`) against a loopback server playing `script`; its result and the request bodies. */
async function run(
  box: Sandbox,
  script: readonly LoopbackEntry[],
  args: readonly string[],
  wire: Wire = { kind: 'anthropic' },
) {
  const server = await startLoopbackServer({ script })
  try {
    const config = await writeConfig(box, server.baseUrl, wire)
    const result = await runTack(
      ['run', '--config', config, '--permission-mode', 'yolo', '--model', 'loop/m', ...args],
      // TACK_DEV: the log's invariant checkers run too (every request equals the log's projection).
      { env: { ...box.env, LOOP_KEY: 'loop-key', TACK_DEV: '1' }, cwd: box.workspace },
    )
    expect(result.code, result.stderr).toBe(0)
    return { result, bodies: server.requests.map((r) => r.rawBody) }
  } finally {
    await server.close()
  }
}

/** Every stored event row's JSON, straight from the SQLite file. */
function storedRows(box: Sandbox): string[] {
  const db = new DatabaseSync(join(box.tackHome, 'sessions.db'), { readOnly: true })
  try {
    return (db.prepare('SELECT data FROM events').all() as Array<{ data: string }>).map((row) => row.data)
  } finally {
    db.close()
  }
}

async function loadSummary(box: Sandbox) {
  const store = SqliteSessionStore.open({ path: join(box.tackHome, 'sessions.db') })
  try {
    const [summary] = await store.list()
    if (!summary) throw new Error('no session stored')
    return summary
  } finally {
    await store.close()
  }
}

async function loadEvents(box: Sandbox): Promise<readonly SessionEvent[]> {
  const store = SqliteSessionStore.open({ path: join(box.tackHome, 'sessions.db') })
  try {
    const [summary] = await store.list()
    return (await store.load(summary?.id as string)).events
  } finally {
    await store.close()
  }
}

/** The image of the session's get-tiny-image result. */
async function loggedImage(box: Sandbox) {
  const results = (await loadEvents(box)).filter(
    (e): e is SessionEvent<'tool/result'> =>
      e.type === 'tool/result' && (e.data as { name: string }).name === TINY,
  )
  const [image] = imagesOf(results[0]?.data.content ?? [])
  if (!image) throw new Error('the log has no image from get-tiny-image')
  return image
}

const count = (text: string, part: string) => text.split(part).length - 1

/** Claude Code hooks in the box's ~/.claude: a PostToolUse hook that saves its input (the file returned), a Stop hook. */
const postToolUseRecorder = (box: Sandbox) =>
  recordClaudeHook(box, 'PostToolUse', 'mcp__everything__.*', {
    // A Stop hook brings the transcript up to date at the end of the turn.
    more: { Stop: [{ hooks: [{ type: 'command', command: 'cat > /dev/null' }] }] },
  })

describe('an MCP image through the real binary', () => {
  test('Anthropic wire: each later request carries the image once inside the tool_result; the log stores it once', async () => {
    const box = await sandbox()
    const first = await run(box, [imageCall, echoCall, { kind: 'text', text: 'a tiny logo' }], ['show me'])
    const image = await loggedImage(box)
    expect(image).toMatchObject({ mimeType: 'image/png' })
    expect(count(first.bodies[0] ?? '', image.data)).toBe(0)
    for (const body of first.bodies.slice(1)) {
      expect(count(body, image.data)).toBe(1)
      expect(body).toContain('"type":"image","source":{"type":"base64","media_type":"image/png"')
    }
    // Three steps, one copy of the bytes in the whole log.
    expect(count(storedRows(box).join('\n'), image.data)).toBe(1)

    // `tack -c`: the continued session's request carries the image from the log, once.
    const again = await run(box, [{ kind: 'text', text: 'still a logo' }], ['-c', 'what was it?'])
    expect(count(again.bodies[0] ?? '', image.data)).toBe(1)
    expect(count(storedRows(box).join('\n'), image.data)).toBe(1)

    // Compaction: the summary model reads a note for the image, and the session goes on afterwards.
    const compacted = await run(
      box,
      [{ kind: 'text', text: 'The agent fetched a tiny PNG logo.' }],
      ['-c', '/compact'],
    )
    expect(compacted.result.stdout).toMatch(/^Compacted \d+ messages? into a summary/)
    expect(compacted.bodies[0]).not.toContain(image.data)
    expect(compacted.bodies[0]).toContain('[Image: image/png')
    const after = await run(box, [{ kind: 'text', text: 'fine' }], ['-c', 'and now?'])
    expect(after.result.stdout).toContain('fine')
    checkLogStructure(await loadEvents(box))
  }, 180_000)

  test('openai-compatible endpoint with images: true: the image follows the tool message in a user message; hooks and the transcript get a note', async () => {
    const box = await sandbox()
    const seen = await postToolUseRecorder(box)
    const { bodies } = await run(box, [imageCall, { kind: 'text', text: 'seen' }], ['show me'], {
      kind: 'openai-compatible',
      images: true,
    })
    const image = await loggedImage(box)
    const messages = (
      JSON.parse(bodies[1] ?? '{}') as { messages: Array<{ role: string; content: unknown }> }
    ).messages
    const [tool, carrier] = messages.slice(-2)
    expect(tool?.role).toBe('tool')
    expect(tool?.content).toContain('attached in the user message after the tool results')
    expect(carrier).toEqual({
      role: 'user',
      content: [
        {
          type: 'text',
          text: `[Image from the result of ${TINY} (call ${JSON.parse(bodies[1] ?? '{}').messages.at(-2).tool_call_id})]`,
        },
        { type: 'image_url', image_url: { url: `data:image/png;base64,${image.data}` } },
      ],
    })
    expect(count(bodies[1] ?? '', image.data)).toBe(1)
    // The hook's tool_response and the Claude-format transcript carry the note, not the bytes.
    const input = JSON.parse(await readFile(seen, 'utf8')) as {
      tool_response: unknown
      transcript_path: string
    }
    expect(JSON.stringify(input.tool_response)).toContain(`[Image: image/png, ${image.bytes} bytes]`)
    expect(JSON.stringify(input)).not.toContain(image.data)
    // (the Stop hook's transcript: PostToolUse ran before the result's line was written)
    const transcript = await readFile(input.transcript_path, 'utf8')
    expect(transcript).toContain('[Image: image/png')
    expect(transcript).not.toContain(image.data)
  }, 120_000)

  test('a text-only model (openai-compatible by default): the request has the note and no image', async () => {
    const box = await sandbox()
    const { bodies } = await run(box, [imageCall, { kind: 'text', text: 'no picture' }], ['show me'], {
      kind: 'openai-compatible',
    })
    const image = await loggedImage(box)
    expect(bodies[1]).not.toContain(image.data)
    expect(bodies[1]).toContain(
      `[Image: image/png, ${image.bytes} bytes, not shown: model loop/m takes no images]`,
    )
    // the log keeps the image all the same: a later model that takes images sees it
    expect(count(storedRows(box).join('\n'), image.data)).toBe(1)
    // `tack sessions export` (Markdown) shows the note, not the bytes
    const id = (await loadSummary(box)).id
    const exported = await runTack(['sessions', 'export', id, '--format', 'markdown'], {
      env: box.env,
      cwd: box.workspace,
    })
    expect(exported.code, exported.stderr).toBe(0)
    expect(exported.stdout).toContain(
      `Here's the image you requested:[Image: image/png, ${image.bytes} bytes]`,
    )
    expect(exported.stdout).not.toContain(image.data)
  }, 120_000)

  test('past plugins.tools.maxImageBytes the log keeps a note naming the bound, and no request carries the image', async () => {
    const box = await sandbox()
    const { bodies } = await run(box, [imageCall, { kind: 'text', text: 'too big' }], ['show me'], {
      kind: 'anthropic',
      maxImageBytes: 64,
    })
    const note = 'not kept: past plugins.tools.maxImageBytes (64) for one result]'
    expect(bodies[1]).toContain(note)
    expect(bodies[1]).not.toContain('"type":"image"')
    const rows = storedRows(box).join('\n')
    expect(rows).toContain(note)
    expect(rows).not.toContain('iVBORw0KGgo')
  }, 120_000)
})
