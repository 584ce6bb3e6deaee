// `@<server>:<uri>` mentions through the real binary (spec 55-mcp.md M10,
// docs/decisions/0245-mcp-resource-mentions.md): `tack run` with a mention of one of server-everything's
// static documents sends the model the document's text once per request, and the session log records it
// once (one `context/message` from plugin:mcp) across a turn of two steps; a mention of a server that is
// not configured, or of a resource the server cannot read, gives one line on stderr and the prompt goes
// on with its text as typed. A binary resource becomes a note. A subagent's task, which the model
// wrote, and piped stdin, which is data, read nothing.
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { startLoopbackServer } from '@tack/llm/testing'
import { describe, expect, test } from 'vitest'
import { jsonLines, runTack, sandbox } from './helpers.ts'
import { writeMcpConfig } from './mcp-everything.ts'

const require = createRequire(import.meta.url)
const DOCUMENT = 'demo://resource/static/document/features.md'
/** The document as server-everything serves it (its docs folder). */
const docsDir = () =>
  join(dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'docs')
const documentText = () => readFile(join(docsDir(), 'features.md'), 'utf8')

const echoCall = {
  kind: 'tool-calls' as const,
  calls: [{ name: 'mcp__everything__echo', args: { message: 'step one' } }],
}

async function runPrompt(task: string, script: readonly unknown[], input?: string) {
  const box = await sandbox()
  const server = await startLoopbackServer({ script: script as never })
  try {
    const config = await writeMcpConfig(box.root, server.baseUrl)
    const run = await runTack(
      ['run', '--config', config, '--json', '--permission-mode', 'yolo', '--model', 'loop/m', task],
      { env: box.env, cwd: box.workspace, ...(input !== undefined ? { input } : {}) },
    )
    return { run, requests: server.requests.map((r) => JSON.stringify(r.body)) }
  } finally {
    await server.close()
  }
}

const count = (text: string, part: string) => text.split(part).length - 1
/**
 * A line found once in the document and nowhere in the server's instructions (which every request
 * carries): its presence means the document was attached.
 */
async function marker(doc: string): Promise<string> {
  const instructions = await readFile(join(docsDir(), 'instructions.md'), 'utf8')
  return doc
    .split('\n')
    .find(
      (line) => line.trim().length > 30 && count(doc, line) === 1 && !instructions.includes(line),
    ) as string
}

describe('MCP resource mentions through the real binary (55-mcp.md M10)', () => {
  test('a mention attaches the resource once: in each request once, in the log once across two steps', async () => {
    const doc = await documentText()
    const line = await marker(doc)
    expect(line).toBeTruthy()
    const { run, requests } = await runPrompt(`Summarise @everything:${DOCUMENT}, please.`, [
      echoCall,
      { kind: 'text', text: 'summarised' },
    ])
    expect(run.code, run.stderr).toBe(0)
    expect(requests).toHaveLength(2)
    for (const sent of requests) {
      expect(count(sent, JSON.stringify(line).slice(1, -1))).toBe(1)
      // The prompt's text stays as typed.
      expect(sent).toContain(`Summarise @everything:${DOCUMENT}, please.`)
      expect(sent).toContain('context source=\\"plugin:mcp\\"')
    }
    const events = jsonLines(run.stdout)
    const attached = events.filter(
      (e) => e.type === 'context/message' && JSON.stringify(e).includes(DOCUMENT),
    )
    expect(attached).toHaveLength(1)
    expect(JSON.stringify(attached[0])).toContain(JSON.stringify(line).slice(1, -1))
    expect(events.filter((e) => JSON.stringify(e).includes(JSON.stringify(line).slice(1, -1)))).toHaveLength(
      1,
    )
    expect(run.stderr).not.toContain('left as typed')
  })

  test('an unknown server: one line on stderr, the prompt goes on as typed', async () => {
    const { run, requests } = await runPrompt('Read @nowhere:demo://x/y and say hi', [
      { kind: 'text', text: 'hi' },
    ])
    expect(run.code, run.stderr).toBe(0)
    const lines = run.stderr.split('\n').filter((l) => l.includes('@nowhere:demo://x/y'))
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain('no MCP server named "nowhere"')
    expect(requests).toHaveLength(1)
    expect(requests[0]).toContain('Read @nowhere:demo://x/y and say hi')
    expect(requests[0]).not.toContain('plugin:mcp')
  })

  test('a failing read: one line naming the mention; a template URI is read as-is; a blob is a note', async () => {
    const { run, requests } = await runPrompt(
      'Compare @everything:demo://resource/dynamic/text/7 with @everything:demo://resource/dynamic/blob/2 and @everything:demo://no/such',
      [{ kind: 'text', text: 'compared' }],
    )
    expect(run.code, run.stderr).toBe(0)
    const failed = run.stderr.split('\n').filter((l) => l.includes('@everything:demo://no/such'))
    expect(failed).toHaveLength(1)
    expect(failed[0]).toContain('reading it failed')
    expect(requests[0]).toContain('Resource 7: This is a plaintext resource')
    expect(requests[0]).toMatch(
      /\[Binary resource demo:\/\/resource\/dynamic\/blob\/2 \([^)]*, \d+ bytes\) left out\]/,
    )
  })

  test("a subagent's task, which the model wrote, reads no mention", async () => {
    const task = `Look at @everything:${DOCUMENT}`
    const { run, requests } = await runPrompt('delegate it', [
      { kind: 'tool-calls', calls: [{ name: 'subagent', args: { description: 'look', prompt: task } }] },
      { kind: 'text', text: 'looked' },
      { kind: 'text', text: 'delegated' },
    ])
    expect(run.code, run.stderr).toBe(0)
    expect(requests).toHaveLength(3)
    expect(requests[1]).toContain(task)
    for (const sent of requests) expect(sent).not.toContain('plugin:mcp')
  })

  test('piped stdin is data: a mention in it is not read, and nothing is said', async () => {
    const { run, requests } = await runPrompt(
      'summarize this log',
      [{ kind: 'text', text: 'ok' }],
      `saw @nowhere:demo://x and @everything:${DOCUMENT}\n`,
    )
    expect(run.code, run.stderr).toBe(0)
    expect(requests[0]).toContain(`saw @nowhere:demo://x and @everything:${DOCUMENT}`)
    expect(requests[0]).not.toContain('plugin:mcp')
    expect(run.stderr).not.toContain('@nowhere')
  })
})
