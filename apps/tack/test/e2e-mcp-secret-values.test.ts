// What tack hands an MCP server through `env` or `headers` stays secret (55-mcp.md M7,
// docs/decisions/0265-mcp-secret-values.md), through the real binary: server-everything's `get-env`
// returns its whole environment, so a value from a `${VAR}` in `.mcp.json` and a value written literally
// in tack config would reach the model, `--json`, the session store and its exports if tack did not
// redact what the server sends back; and an http server that echoes the `Authorization` header in its
// error body must not put the token on stderr or into `tack mcp list --json`.
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${VAR}` is the .mcp.json syntax under test
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { type LoopbackEntry, startLoopbackServer } from '@tack/llm/testing'
import { describe, expect, it } from 'vitest'
import { jsonLines, runTack, sandbox } from './helpers.ts'
import { everythingServer, writeMcpConfig } from './mcp-everything.ts'

/** Every file under `dir` whose name starts with `prefix` (the store and its WAL), read as text. */
function filesNamed(dir: string, prefix: string): string[] {
  const out: string[] = []
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry)
    if (statSync(path).isDirectory()) out.push(...filesNamed(path, prefix))
    else if (entry.startsWith(prefix)) out.push(readFileSync(path, 'latin1'))
  }
  return out
}

describe('values sent to an MCP server through env and headers', () => {
  it('never reach the model, --json, the session store or its exports when the server returns them', async () => {
    // MY_PLAIN_VAR's name does not look secret: only its use in `env` makes its value one.
    const fromVariable = 'variable-value-from-env-5150'
    const literal = 'literal-config-value-2468'
    const box = await sandbox({ MY_PLAIN_VAR: fromVariable })
    writeFileSync(
      join(box.workspace, '.mcp.json'),
      JSON.stringify({ mcpServers: { proj: { ...everythingServer, env: { TOK: '${MY_PLAIN_VAR}' } } } }),
    )
    expect(
      (await runTack(['mcp', 'approve', 'proj', '--trust'], { env: box.env, cwd: box.workspace })).code,
    ).toBe(0)
    const script: LoopbackEntry[] = [
      {
        kind: 'tool-calls',
        calls: [
          { name: 'mcp__proj__get-env', args: {} },
          { name: 'mcp__everything__get-env', args: {} },
        ],
      },
      { kind: 'text', text: 'done' },
    ]
    const server = await startLoopbackServer({ script })
    try {
      const config = await writeMcpConfig(box.root, server.baseUrl)
      // the tack-config server gets a literal env value
      writeFileSync(
        config,
        readFileSync(config, 'utf8').replace(
          JSON.stringify({ everything: everythingServer }),
          JSON.stringify({ everything: { ...everythingServer, env: { LIT: literal } } }),
        ),
      )
      expect(readFileSync(config, 'utf8')).toContain(literal)
      const run = await runTack(
        [
          'run',
          '--config',
          config,
          '--trust',
          '--json',
          '--model',
          'loop/m',
          '--allow',
          'mcp__*',
          'show env',
        ],
        { env: box.env, cwd: box.workspace },
      )
      expect(run.code, run.stderr).toBe(0)
      // the servers did get them, and the model saw only the redaction
      const seen = server.requests.map((r) => JSON.stringify(r.body ?? '')).join('\n')
      expect(seen).toContain('TOK')
      expect(seen).toContain('LIT')
      expect(seen).toContain('[redacted]')
      const sessionId = (jsonLines(run.stdout).at(-1) as { sessionId: string }).sessionId
      const exports = await Promise.all(
        ['jsonl', 'claude-transcript', 'markdown'].map((format) =>
          runTack(['sessions', 'export', sessionId, '--format', format], {
            // without the variable: nothing in the export's own output redaction could hide it
            env: { ...box.env, MY_PLAIN_VAR: '' },
            cwd: box.workspace,
          }),
        ),
      )
      const stores = filesNamed(box.root, 'sessions.db')
      expect(stores.length).toBeGreaterThan(0)
      for (const text of [seen, run.stdout, run.stderr, ...exports.map((e) => e.stdout), ...stores])
        for (const secret of [fromVariable, literal]) expect(text).not.toContain(secret)
      expect(exports.map((e) => e.code)).toEqual([0, 0, 0])
      expect(exports[0]?.stdout).toContain('[redacted]')
    } finally {
      await server.close()
    }
  }, 90_000)

  it('an http server echoing the Authorization header in its error: the token is not on stderr nor in tack mcp list --json', async () => {
    const token = 'bearer-token-echoed-31337'
    const echo = createServer((req, res) => {
      res.writeHead(500, { 'content-type': 'text/plain' })
      res.end(`internal error; you sent authorization: ${req.headers.authorization}`)
    })
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve))
    try {
      const url = `http://127.0.0.1:${(echo.address() as AddressInfo).port}/mcp`
      const box = await sandbox()
      const config = await writeMcpConfig(box.root, 'http://127.0.0.1:9', {
        collector: { type: 'http', url, headers: { Authorization: `Bearer ${token}` } },
      })
      const list = await runTack(['mcp', 'list', '--json', '--config', config], {
        env: box.env,
        cwd: box.workspace,
      })
      const rows = JSON.parse(list.stdout) as Array<{ name: string; error?: string }>
      const error = rows.find((r) => r.name === 'collector')?.error ?? ''
      // the echo reached tack (so the test could fail), redacted
      expect(error).toContain('you sent authorization')
      expect(error).toContain('[redacted]')
      const text = await runTack(['mcp', 'list', '--config', config], { env: box.env, cwd: box.workspace })
      const run = await runTack(['run', '--config', config, '--model', 'loop/m', 'hi'], {
        env: box.env,
        cwd: box.workspace,
      })
      for (const out of [list.stdout, list.stderr, text.stdout, text.stderr, run.stdout, run.stderr])
        expect(out).not.toContain(token)
    } finally {
      echo.close()
    }
  }, 90_000)
})
