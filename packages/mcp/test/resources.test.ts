// A server's resources for people (spec 55-mcp.md M10, docs/decisions/0245-mcp-resource-mentions.md), on
// the test's own stdio server: `@` completion answers from the cached lists, which follow
// notifications/resources/list_changed; a read is cut to maxResultBytes with a note and bounded by the
// server's toolTimeoutMs; a link's URI finds its server by its list or by a template; mentions are found
// where a person writes them, and nowhere else.
import { describe, expect, it } from 'vitest'
import { findMentions } from '../src/mentions.ts'
import { resourceMentions } from '../src/mention-completion.ts'
import { templateMatches } from '../src/resource-directory.ts'
import { readLinkedResource } from '../src/resource-link.ts'
import { fixture, mcpContext } from './helpers.ts'

const signal = () => new AbortController().signal

describe('MCP resources (55-mcp.md M10)', () => {
  it('completion offers resources and templates from the cache, and follows list_changed', async () => {
    const { ctx } = await mcpContext({ servers: { fx: fixture(), other: fixture() } })
    const values = (query: string) => resourceMentions(ctx, query).map((item) => item.value)
    expect(values('f')).toEqual([
      'fx:note://hello',
      'fx:note://huge',
      'fx:note://hang',
      'fx:note://grow',
      'fx:note://echo/',
    ])
    expect(resourceMentions(ctx, 'fx:echo')).toEqual([
      {
        value: 'fx:note://echo/',
        label: 'fx:note://echo/{text}',
        description: 'template: echo',
        partial: true,
      },
    ])
    expect(values('')).toHaveLength(10)
    expect(values('fx:HEL')).toEqual(['fx:note://hello'])
    expect(values('nobody')).toEqual([])
    // Reading note://grow adds a resource; the server says so, and the cache follows.
    expect(await readLinkedResource(ctx, undefined, 'note://grow', signal())).toMatchObject({ kind: 'text' })
    await expect.poll(() => values('fx:grown'), { timeout: 5_000 }).toEqual(['fx:note://grown4'])
    expect(values('other:grown')).toEqual([])
  }, 30_000)

  it('a read is cut to maxResultBytes with a note, and bounded by toolTimeoutMs', async () => {
    const { ctx } = await mcpContext({
      servers: { fx: fixture() },
      maxResultBytes: 2_000,
      toolTimeoutMs: 300,
    })
    const huge = await readLinkedResource(ctx, undefined, 'note://huge', signal())
    expect(huge.kind).toBe('text')
    const text = huge.kind === 'text' ? huge.text : ''
    expect(text.startsWith('y'.repeat(2_000))).toBe(true)
    expect(text).toContain('past plugins.mcp.maxResultBytes (2000)')
    const started = Date.now()
    const hang = await readLinkedResource(ctx, undefined, 'note://hang', signal())
    expect(hang).toMatchObject({ kind: 'failed', server: 'fx' })
    expect(hang.kind === 'failed' ? hang.error : '').toMatch(/timed out/i)
    expect(Date.now() - started).toBeLessThan(5_000)
  }, 30_000)

  it('a link finds its server by its list or a template; a URI no server offers finds none', async () => {
    const { ctx } = await mcpContext({ servers: { fx: fixture() } })
    expect(await readLinkedResource(ctx, undefined, 'note://hello', signal())).toEqual({
      kind: 'text',
      server: 'fx',
      text: 'hello from a note',
    })
    expect(await readLinkedResource(ctx, undefined, 'note://echo/by%20template', signal())).toEqual({
      kind: 'text',
      server: 'fx',
      text: 'by template',
    })
    expect(await readLinkedResource(ctx, undefined, 'other://x', signal())).toEqual({ kind: 'none' })
  }, 30_000)

  it('templates match their expansions only', () => {
    expect(templateMatches('note://echo/{text}', 'note://echo/a/b')).toBe(true)
    expect(templateMatches('note://echo/{text}', 'note://echoes')).toBe(false)
    expect(templateMatches('a.b/{x}', 'aXb/1')).toBe(false)
  })

  it('mentions are words of the form @server:scheme:rest, trailing punctuation left off', () => {
    expect(findMentions('see @fx:note://hello, then (@fx:note://echo/x) and @fx:note://hello again')).toEqual(
      [{ text: '@fx:note://hello', server: 'fx', uri: 'note://hello' }],
    )
    expect(findMentions('@a:b:c\n@fx:note://echo/y.')).toEqual([
      { text: '@a:b:c', server: 'a', uri: 'b:c' },
      { text: '@fx:note://echo/y', server: 'fx', uri: 'note://echo/y' },
    ])
    // Not mentions: no scheme after the server, inside a word, a path with a line number.
    expect(findMentions('mail me@fx:note://x or @src/a.ts:12 or @fx:12 or @fx:')).toEqual([])
  })
})
