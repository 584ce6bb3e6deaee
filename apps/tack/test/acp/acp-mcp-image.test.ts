// An MCP image through the real `tack acp` process (spec 55-mcp.md M4, docs/decisions/0255-image-content.md):
// the editor's server-everything answers get-tiny-image, and the completed tool_call_update carries the
// words and an ACP image content block with the server's base64, in order; the model is scripted.
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { methods } from '@agentclientprotocol/sdk'
import { expect, test } from 'vitest'
import { updatesOf, withAcp } from './client.ts'

const require = createRequire(import.meta.url)
const everythingBin = join(
  dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')),
  'dist',
  'index.js',
)

test('55-mcp.md M4: an image result reaches the editor as an ACP image content block', async () => {
  await withAcp(
    {
      args: ['--permission-mode', 'yolo'],
      script: [
        { kind: 'tool-calls', calls: [{ name: 'mcp__everything__get-tiny-image', args: {} }] },
        { kind: 'text', text: 'a logo' },
      ],
    },
    async (acp) => {
      const { sessionId } = await acp.connection.agent.request(methods.agent.session.new, {
        cwd: acp.box.workspace,
        mcpServers: [
          { name: 'everything', command: process.execPath, args: [everythingBin, 'stdio'], env: [] },
        ],
      })
      const done = await acp.connection.agent.request(methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: 'text', text: 'show me the logo' }],
      })
      expect(done.stopReason).toBe('end_turn')
      const update = updatesOf(acp, 'tool_call_update', sessionId).find((u) => u.status === 'completed')
      const content = (update?.content ?? []) as Array<{ type: string; content?: Record<string, unknown> }>
      expect(content.map((c) => c.content?.type)).toEqual(['text', 'image', 'text'])
      const image = content[1]?.content as { mimeType: string; data: string }
      expect(image.mimeType).toBe('image/png')
      expect(Buffer.from(image.data, 'base64').subarray(1, 4).toString('latin1')).toBe('PNG')
      // the words do not repeat the image as a note: the editor shows the image itself
      expect(JSON.stringify(content)).not.toContain('[Image:')
    },
  )
})
