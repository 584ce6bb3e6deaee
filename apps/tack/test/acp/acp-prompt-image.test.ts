// ACP image content in a prompt through the real `tack acp` (85-skills-and-commands.md I2,
// docs/decisions/0285-user-images.md): `initialize` advertises image prompts; an image block reaches the
// model as an image block of the user message (the scripted model's request log); a block whose base64
// is no image is refused with -32602; a model without image input refuses the prompt before any
// request and the editor reads why; session/load replays the image as an image chunk.
import { readFile } from 'node:fs/promises'
import { methods } from '@agentclientprotocol/sdk'
import { startLoopbackServer } from '@tack/llm/testing'
import { pngOf } from '@tack/session/testing'
import { expect, test } from 'vitest'
import { sandbox, writeLoopConfig } from '../helpers.ts'
import { scriptPath, startAcp, updatesOf, withAcp } from './client.ts'

const png = pngOf(16, 9).toString('base64')

test('I2 initialize advertises image prompts, and an image block reaches the model as an image', async () => {
  const acp = await startAcp({ script: [{ kind: 'text', text: 'a small grey box' }] })
  try {
    const init = await acp.connection.agent.request(methods.agent.initialize, {
      protocolVersion: 1,
      clientCapabilities: {},
    })
    expect(init.agentCapabilities?.promptCapabilities?.image).toBe(true)
    const { sessionId } = await acp.connection.agent.request(methods.agent.session.new, {
      cwd: acp.box.workspace,
      mcpServers: [],
    })
    const done = await acp.connection.agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [
        { type: 'text', text: 'what is this?' },
        { type: 'image', mimeType: 'image/png', data: png },
      ],
    })
    expect(done.stopReason).toBe('end_turn')
    const [request] = (await readFile(`${scriptPath(acp.box)}.requests.jsonl`, 'utf8')).trim().split('\n')
    const user = (
      JSON.parse(request ?? '{}') as { messages: Array<{ role: string; content: unknown[] }> }
    ).messages.find((m) => m.role === 'user')
    expect(user?.content).toEqual([
      { type: 'text', text: 'what is this?' },
      expect.objectContaining({ type: 'image', mimeType: 'image/png', data: png }),
    ])

    const bad = acp.connection.agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: 'image', mimeType: 'image/png', data: Buffer.from('<svg/>').toString('base64') }],
    })
    await expect(bad).rejects.toMatchObject({ code: -32602 })
    await expect(bad).rejects.toThrow(
      /prompt\[0\]: image content must be base64 of a PNG, JPEG, GIF or WebP image/,
    )

    // session/load replays the user's image as an image chunk
    const before = acp.updates.length
    await acp.connection.agent.request(methods.agent.session.load, {
      sessionId,
      cwd: acp.box.workspace,
      mcpServers: [],
    })
    const replayed = acp.updates
      .slice(before)
      .map((n) => n.update as { sessionUpdate: string; content?: unknown })
    expect(
      replayed.filter((u) => u.sessionUpdate === 'user_message_chunk').map((u) => u.content),
    ).toContainEqual({
      type: 'image',
      mimeType: 'image/png',
      data: png,
    })
  } finally {
    expect(await acp.close()).toBe(0)
  }
})

test('I2 a model without image input: the prompt is refused before any request, the editor reads why', async () => {
  const server = await startLoopbackServer({ script: [] })
  try {
    const box = await sandbox()
    const config = await writeLoopConfig(box.root, server.baseUrl)
    await withAcp({ box, args: ['--config', config, '--model', 'loop/text-only'] }, async (acp) => {
      const { sessionId } = await acp.connection.agent.request(methods.agent.session.new, {
        cwd: acp.box.workspace,
        mcpServers: [],
      })
      const done = await acp.connection.agent.request(methods.agent.session.prompt, {
        sessionId,
        prompt: [
          { type: 'text', text: 'look' },
          { type: 'image', mimeType: 'image/png', data: png },
        ],
      })
      expect(done.stopReason).toBe('cancelled')
      const said = updatesOf(acp, 'agent_message_chunk', sessionId).map(
        (u) => (u.content as { text: string }).text,
      )
      expect(said.join('')).toContain('model loop/text-only takes no images')
      expect(server.requests).toHaveLength(0)
    })
  } finally {
    await server.close()
  }
})
