// The worked examples of docs/architecture.md run for real: each file under docs/examples/ is imported
// here and driven through the real loop (createTestAgent: real kernel, sessions, tools pipeline and
// agent loop; only the model is scripted), so the code the architecture doc shows is code that works.
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { createTestAgent, text, toolCalls } from '@tack/agent/testing'
import type { SessionEvent } from '@tack/session'
import { describe, expect, test } from 'vitest'
import { EchoProviderPlugin } from '../../docs/examples/add-a-provider.ts'
import { NoSecretFilesPlugin } from '../../docs/examples/add-a-seam-listener.ts'
import { WordCountPlugin, wordCountTool } from '../../docs/examples/add-a-tool.ts'

const user = (content: string) => ({ content, source: { kind: 'user' as const } })
const resultsOf = (events: readonly SessionEvent[]) =>
  events.filter((e): e is SessionEvent<'tool/result'> => e.type === 'tool/result')
const textOf = (e: SessionEvent<'tool/result'>) => e.data.content.map((b) => b.text).join('')

describe('docs/examples/add-a-tool.ts', () => {
  test('TL-1 TL-11 word_count is registered, offered to the model, called through the pipeline, and held to the workspace', async () => {
    const t = await createTestAgent({
      plugins: [{ plugin: WordCountPlugin, config: {} }],
      script: [
        toolCalls([
          { name: 'word_count', args: { file_path: 'notes.txt' } },
          { name: 'word_count', args: { file_path: '../outside.txt' } },
          { name: 'word_count', args: {} },
        ]),
        text('notes.txt has two lines.'),
      ],
    })
    await writeFile(join(t.cwd, 'notes.txt'), 'one two three\nfour five\n')
    await writeFile(join(t.cwd, '..', 'outside.txt'), 'not yours\n')
    const outcome = await t.agent.send(user('count the words in notes.txt'))
    expect(outcome.reason).toEqual({ kind: 'completed' })

    // the model was told about the tool, with its schema
    const offered = t.model.requests[0].tools?.find((s) => s.name === 'word_count')
    expect(offered?.parameters).toMatchObject({ required: ['file_path'], additionalProperties: false })
    const [inside, outside, invalid] = resultsOf(t.events())
    expect(textOf(inside)).toBe('notes.txt: 2 lines, 5 words')
    expect(inside.data.meta).toEqual({ lines: 2, words: 5 })
    // the scope came from the declaration: the body never read the outside file
    expect(outside.data.error?.code).toBe('OUTSIDE_WORKSPACE')
    expect(textOf(outside)).not.toContain('lines')
    expect(invalid.data.error?.code).toBe('INVALID_ARGS')
    t.model.assertConsumed()
    await t.dispose()
  })

  test('TL-1 disposing the plugin removes the tool', async () => {
    const t = await createTestAgent()
    const fork = t.ctx.plugin(WordCountPlugin, {})
    await fork
    expect(t.ctx.tools.get('word_count')).toBe(wordCountTool)
    await fork.dispose()
    expect(t.ctx.tools.get('word_count')).toBeUndefined()
    await t.dispose()
  })
})

describe('docs/examples/add-a-seam-listener.ts', () => {
  test('TL-5 a listener on tools/pre-execute denies a call whose declared path is a secrets file; the body never runs', async () => {
    const t = await createTestAgent({
      plugins: [
        { plugin: WordCountPlugin, config: {} },
        { plugin: NoSecretFilesPlugin, config: {} },
      ],
      script: [
        toolCalls([
          { name: 'word_count', args: { file_path: 'app/.env.local' } },
          { name: 'word_count', args: { file_path: 'app/main.ts' } },
        ]),
        text('done'),
      ],
    })
    await mkdir(join(t.cwd, 'app'))
    await writeFile(join(t.cwd, 'app', '.env.local'), 'API_KEY=sk-secret\n')
    await writeFile(join(t.cwd, 'app', 'main.ts'), 'export {}\nconst a = 1\n')
    await t.agent.send(user('count words everywhere'))

    const [secret, plain] = resultsOf(t.events())
    expect(secret.data.error?.code).toBe('DENIED')
    expect(textOf(secret)).toContain('no-secret-files: app/.env.local holds secrets')
    expect(textOf(secret)).not.toContain('words')
    expect(textOf(plain)).toBe('app/main.ts: 2 lines, 6 words')
    // the model saw the reason in the next request
    expect(JSON.stringify(t.model.requests[1].messages)).toContain('holds secrets')
    await t.dispose()
  })

  test('the listener is validated like any plugin: a bad config fails at load naming the key', async () => {
    const t = await createTestAgent()
    await expect(t.ctx.plugin(NoSecretFilesPlugin, { names: 'x' } as never)).rejects.toThrow(/names/)
    await t.dispose()
  })
})

describe('docs/examples/add-a-provider.ts', () => {
  test('AL-20 an adapter registered for echo/* answers the loop through llm/stream; the scripted model is never asked', async () => {
    const seen: string[] = []
    const t = await createTestAgent({
      plugins: [{ plugin: EchoProviderPlugin, config: {} }],
      agentOptions: { config: { model: 'echo/v1' } },
      // a listener on llm/stream sees the request go by on its way to the adapter
      setup: (ctx) =>
        ctx.on('llm/stream', (request, _signal, next) => {
          seen.push(request.config.model)
          return next()
        }),
    })
    const outcome = await t.agent.send(user('hello there'))
    expect(outcome.reason).toEqual({ kind: 'completed' })
    expect(seen).toEqual(['echo/v1'])
    expect(t.model.requests).toHaveLength(0)
    const chunks = t.events().filter((e) => e.type === 'assistant/chunk')
    expect(chunks.length).toBeGreaterThan(2)
    const answer = t
      .events()
      .findLast((e) => e.type === 'assistant/message') as SessionEvent<'assistant/message'>
    expect(answer.data.content).toEqual([{ type: 'text', text: 'echo/v1 heard: HELLO THERE' }])
    await t.dispose()
  })

  test('AL-20 after the plugin is disposed, echo/* is unknown again', async () => {
    const t = await createTestAgent()
    const fork = t.ctx.plugin(EchoProviderPlugin, {})
    await fork
    expect(t.ctx.modelAdapters.adapterFor('echo/v1')).toBeDefined()
    await fork.dispose()
    expect(t.ctx.modelAdapters.adapterFor('echo/v1')).toBeUndefined()
    await t.dispose()
  })
})
