// 85-skills-and-commands.md I3 through the real `tack acp --effort`: a new session's `effort` option starts
// at the flag's level, and the scripted model's recorded request carries it (`config.reasoningEffort`).
import { readFile } from 'node:fs/promises'
import { methods } from '@agentclientprotocol/sdk'
import { requestsPath } from '@tack/llm'
import { expect, test } from 'vitest'
import { scriptPath, withAcp } from './client.ts'

test('tack acp --effort medium: the effort option starts at medium and the request carries it', async () => {
  await withAcp({ script: [{ kind: 'text', text: 'done' }], args: ['--effort', 'medium'] }, async (acp) => {
    const created = await acp.connection.agent.request(methods.agent.session.new, {
      cwd: acp.box.workspace,
      mcpServers: [],
    })
    expect(created.configOptions?.find((o) => o.id === 'effort')).toMatchObject({
      category: 'thought_level',
      currentValue: 'medium',
    })
    await acp.connection.agent.request(methods.agent.session.prompt, {
      sessionId: created.sessionId,
      prompt: [{ type: 'text', text: 'think a little' }],
    })
    const requests = (await readFile(requestsPath(scriptPath(acp.box)), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { config: { reasoningEffort?: string } })
    expect(requests.map((r) => r.config.reasoningEffort)).toEqual(['medium'])
  })
})
